import XCTest
import CardProtocol
import TransitModel
import TransitFiles
import TransitStations
import TransitArchive
import TransitOutput

final class MoneyTests: XCTestCase {
    func testFormatsEachFamilysCurrencyAsTicketMachinesShowIt() {
        XCTAssertEqual(Money.format(10, "JPY"), "¥10")
        XCTAssertEqual(Money.format(897, "SGD"), "S$8.97")
        XCTAssertEqual(Money.format(60, "HKD"), "HK$0.60")
        XCTAssertEqual(Money.format(17650, "KRW"), "₩17,650")
        XCTAssertEqual(Money.format(-1440, "HKD"), "-HK$14.40")
        XCTAssertEqual(Money.format(12345, "CNY"), "CN¥123.45")
        XCTAssertEqual(Money.format(505, "NZD"), "NZ$5.05")
        XCTAssertEqual(Money.format(1234, "EUR"), "12.34 EUR")
    }
}

import CardProtocol
import XCTest

final class GregorianTests: XCTestCase {
    func testLeapYearsOfTheGregorianRule() {
        XCTAssertTrue(Gregorian.isDay(year: 2024, month: 2, day: 29))
        XCTAssertTrue(Gregorian.isDay(year: 2000, month: 2, day: 29), "divisible by 400")
        XCTAssertFalse(Gregorian.isDay(year: 1900, month: 2, day: 29), "divisible by 100 only")
        XCTAssertFalse(Gregorian.isDay(year: 2026, month: 4, day: 31))
        XCTAssertFalse(Gregorian.isDay(year: 0, month: 1, day: 1), "ISO 8601 years begin at 0001")
        XCTAssertFalse(Gregorian.isDay(year: 10000, month: 1, day: 1))
    }

    func testDaysFromTheUnixEpoch() {
        XCTAssertEqual(Gregorian.daysFromUnixEpoch(year: 1970, month: 1, day: 1), 0)
        // date -u -d 2000-03-01 +%s → 951868800 = 11017 days.
        XCTAssertEqual(Gregorian.daysFromUnixEpoch(year: 2000, month: 3, day: 1), 11017)
        XCTAssertEqual(Gregorian.daysFromUnixEpoch(year: 1969, month: 12, day: 31), -1)
        let back = Gregorian.civil(fromDays: 11017)
        XCTAssertEqual([back.year, back.month, back.day], [2000, 3, 1])
    }
}

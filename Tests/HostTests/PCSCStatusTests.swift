import CPCSCLite
import XCTest
import CardProtocol
import TransitModel
import TransitFiles
import TransitReader
import TransitStations
import TransitArchive
import TransitOutput

final class PCSCStatusTests: XCTestCase {
    func testPcscdNotRunningNoReaderAndCardGoneEachHaveTheirKind() {
        let noService = PCSCStatus(LONG(bitPattern: 0x8010_001D)).error("connecting to pcscd")
        XCTAssertEqual(noService.kind, .noReader)
        XCTAssertTrue(noService.message.contains("pcscd is not running"), noService.message)
        XCTAssertEqual(PCSCStatus(LONG(bitPattern: 0x8010_002E)).error("listing").kind, .noReader)
        for removed: UInt in [0x8010_0069, 0x8010_000C, 0x8010_0017] {
            XCTAssertEqual(PCSCStatus(LONG(bitPattern: removed)).error("sending").kind, .sessionLost)
        }
        XCTAssertEqual(PCSCStatus(LONG(bitPattern: 0x8010_0002)).error("waiting").kind, .cancelled)
        let other = PCSCStatus(LONG(bitPattern: 0x8010_002F)).error("sending a command")
        XCTAssertEqual(other.kind, .communication)
        XCTAssertTrue(other.message.hasPrefix("sending a command failed"), other.message)
    }
}

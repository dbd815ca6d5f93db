import CPCSCLite
import XCTest
import CardProtocol
import TransitModel
import TransitFiles
import TransitTransport
import TransitPCSC
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
        // The raw code rides along (pcsclite.h: SCARD_W_REMOVED_CARD 0x80100069), to the log and --json.
        XCTAssertEqual(PCSCStatus(LONG(bitPattern: 0x8010_0069)).error("sending").pcscCode, 0x8010_0069)
        XCTAssertEqual(PCSCStatus(SCARD_E_TIMEOUT), PCSCStatus(LONG(bitPattern: 0x8010_000A)), "pcsclite's macros, imported")
        let other = PCSCStatus(LONG(bitPattern: 0x8010_002F)).error("sending a command")
        XCTAssertEqual(other.kind, .communication)
        XCTAssertTrue(other.message.hasPrefix("sending a command failed"), other.message)
    }
}

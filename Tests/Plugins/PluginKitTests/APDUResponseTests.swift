import PluginKit
import XCTest

/// ISO 7816-4 status words: 9000 is the only success (§5.1.3); any other word of a command a read
/// depends on is the card's refusal, named with the command and the word.
final class APDUResponseTests: XCTestCase {
    func testRequireGivesTheDataOf9000AndNamesARefusal() throws {
        XCTAssertEqual(try APDUResponse([0x00, 0x00, 0x13, 0x88, 0x90, 0x00]).require("GET BALANCE").storage, [0x00, 0x00, 0x13, 0x88])
        XCTAssertThrowsError(try APDUResponse([0x6A, 0x88]).require("GET BALANCE")) { error in
            XCTAssertEqual(error as? PluginError, .cardRefused("GET BALANCE answered 6A88"))
        }
        // 61xx and 6Cxx never reach a plugin (the host follows them); a warning 62xx/63xx is no success either.
        XCTAssertThrowsError(try APDUResponse([0x01, 0x62, 0x82]).require("READ BINARY"))
        // One byte has no status word: malformed, never a trap.
        XCTAssertThrowsError(try APDUResponse([0x90])) { error in
            guard case .malformedResponse? = error as? PluginError else { return XCTFail("\(error)") }
        }
    }
}

/// The command builders against ISO/IEC 7816-4:2005's encodings: SELECT (§7.1.1), READ BINARY with
/// a short file identifier in P1 (§7.2.3: b8 set, the SFI in b5–b1, P2 the offset) and READ RECORD
/// (§7.3.3: P2 = SFI·8 + 4 for record P1, + 5 for P1 to the last); the class byte 00 unless told.
final class APDUBuilderTests: XCTestCase {
    func testBuildersEncodeISO7816AndTakeAClassByte() {
        XCTAssertEqual(APDU.selectAID([0x31, 0x54, 0x49, 0x43]), [0x00, 0xA4, 0x04, 0x00, 0x04, 0x31, 0x54, 0x49, 0x43, 0x00])
        XCTAssertEqual(APDU.selectAID([0x31], cla: 0x94), [0x94, 0xA4, 0x04, 0x00, 0x01, 0x31, 0x00])
        XCTAssertEqual(APDU.selectFile(0x3F00), [0x00, 0xA4, 0x00, 0x00, 0x02, 0x3F, 0x00])
        XCTAssertEqual(APDU.selectFile(0x1001, cla: 0x94), [0x94, 0xA4, 0x00, 0x00, 0x02, 0x10, 0x01])
        XCTAssertEqual(APDU.readRecord(1, sfi: 0x18), [0x00, 0xB2, 0x01, 0xC4, 0x00])
        XCTAssertEqual(APDU.readRecord(2, sfi: 0x08, length: 0x1D, cla: 0x94), [0x94, 0xB2, 0x02, 0x44, 0x1D])
        XCTAssertEqual(APDU.readRecord(1, sfi: 0x07, cla: 0x94, toLast: true), [0x94, 0xB2, 0x01, 0x3D, 0x00])
        XCTAssertEqual(APDU.readBinary(sfi: 0x15), [0x00, 0xB0, 0x95, 0x00, 0x00])
        XCTAssertEqual(APDU.readBinary(sfi: 0x15, offset: 10, length: 18), [0x00, 0xB0, 0x95, 0x0A, 0x12])
        XCTAssertEqual(APDU.readBinary(sfi: 0x04, length: 0x20, cla: 0x94), [0x94, 0xB0, 0x84, 0x00, 0x20])
    }
}

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

import Foundation
import TransitModel
import TransitTransport
import XCTest

/// The key dictionary MIFARE Classic Tool, Proxmark3 (`.dic`) and the Flipper Zero
/// (`mf_classic_dict.nfc`) share: one 12-hex-digit key a line, `#` comments. Every key here is made
/// up for the tests; none is an operator's.
final class ClassicKeyDictionaryTests: XCTestCase {
    private func parse(_ text: String, path: String = "/home/ana/.config/transit/keys/keys.dic") throws -> [ClassicKeyRing.Key] {
        try ClassicKeyDictionary.parse(Array(text.utf8), path: path)
    }

    func testKeysCommentsBlankLinesAndCRLF() throws {
        // Line 1 a comment, 2 a key with a trailing comment, 3 blank (CRLF), 4 lower case with
        // spaces around, 5 only spaces and a tab, 6 a key and CR, then a last line without end.
        let keys = try parse("# made-up keys\r\nA1B2C3D4E5F6 # the office door\r\n\r\n  0f1e2d3c4b5a  \n \t\n9F8E7D6C5B4A\r\n112233445566")
        XCTAssertEqual(keys.map(\.bytes), [[0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6], [0x0F, 0x1E, 0x2D, 0x3C, 0x4B, 0x5A],
                                           [0x9F, 0x8E, 0x7D, 0x6C, 0x5B, 0x4A], [0x11, 0x22, 0x33, 0x44, 0x55, 0x66]])
        // Named by the file's base name and the line, as --verbose may name a key.
        XCTAssertEqual(keys.map(\.source), ["keys.dic line 2", "keys.dic line 4", "keys.dic line 6", "keys.dic line 7"])
    }

    func testAFlipperDictionaryWithItsByteOrderMarkAndDuplicatesKept() throws {
        // A file saved with a UTF-8 BOM (EF BB BF) begins with it; the parser keeps duplicates
        // (the ring drops them, naming the first).
        let keys = try parse("\u{FEFF}A0B1C2D3E4F5\nA0B1C2D3E4F5\n", path: "mf_classic_dict_user.nfc")
        XCTAssertEqual(keys.map(\.source), ["mf_classic_dict_user.nfc line 1", "mf_classic_dict_user.nfc line 2"])
        XCTAssertEqual(ClassicKeyRing(keys).count, 1)
    }

    func testAnEmptyOrCommentOnlyFileHoldsNoKey() throws {
        XCTAssertEqual(try parse("").count, 0)
        XCTAssertEqual(try parse("# nothing yet\n\n#A1B2C3D4E5F6\n").count, 0, "a commented-out key is a comment")
    }

    /// A bad line is named by its file and number; nothing of the line is shown, however it is wrong.
    func testABadLineIsNamedByNumberNeverShown() {
        let bad: [(text: String, line: Int, secret: String)] = [
            ("A1B2C3D4E5F6\nC0FFEE12345\n", 2, "C0FFEE12345"),          // 11 digits
            ("A1B2C3D4E5F6\n\nC0FFEE1234567\n", 3, "C0FFEE1234567"),    // 13 digits
            ("C0FFEE12345G\n", 1, "C0FFEE12345G"),                      // not hex
            ("C0FFEE 123456\n", 1, "C0FFEE"),                           // two words
            ("A1B2C3D4E5F6 C0FFEE123456\n", 1, "C0FFEE123456"),         // two keys on a line
            ("key=C0FFEE123456\n", 1, "C0FFEE123456"),                  // another format's line
            ("# ok\r\nC0FFEE12345\u{E9}\r\n", 2, "C0FFEE12345"),        // a non-ASCII letter
            ("C0FFEE123456; door\n", 1, "C0FFEE123456"),                // ; is no comment here
        ]
        for (text, line, secret) in bad {
            XCTAssertThrowsError(try parse(text, path: "cards/keys.dic"), text) { error in
                let e = error as? TransitError
                XCTAssertEqual(e?.kind, .config, text)
                let message = e?.message ?? ""
                XCTAssertTrue(message.hasPrefix("cards/keys.dic line \(line) is not a key"), message)
                XCTAssertFalse(message.uppercased().contains(secret.uppercased()), "the line must not be shown: \(message)")
                XCTAssertFalse(message.contains("C0FFEE"), message)
            }
        }
    }

    func testTheSizeAndKeyBounds() throws {
        // 1 MiB is the bound: one byte more is refused before a line is read.
        let tooLarge = [UInt8](repeating: UInt8(ascii: "#"), count: (1 << 20) + 1)
        XCTAssertThrowsError(try ClassicKeyDictionary.parse(tooLarge, path: "big.dic")) {
            XCTAssertEqual(($0 as? TransitError)?.kind, .config)
            XCTAssertTrue(($0 as? TransitError)?.message.contains("big.dic is larger than 1 MiB") == true, "\($0)")
        }
        XCTAssertEqual(try ClassicKeyDictionary.parse(Array(tooLarge.dropLast()), path: "big.dic").count, 0, "exactly 1 MiB is read")
        // The largest file that fits, 80,659 keys of 13 bytes (1,048,567 bytes), is read whole.
        let most = (0 ..< 80_659).map { String(format: "%012llX\n", 0xC0_0000_0000 + $0) }.joined()
        XCTAssertEqual(most.utf8.count, 1_048_567)
        let keys = try ClassicKeyDictionary.parse(Array(most.utf8), path: "most.dic")
        XCTAssertEqual(keys.count, 80_659)
        // The last: 0xC000000000 + 80,658 (0x13B12) = 00 C0 00 01 3B 12, written "00C000013B12".
        XCTAssertEqual(keys.last?.bytes, [0x00, 0xC0, 0x00, 0x01, 0x3B, 0x12])
        XCTAssertEqual(keys.last?.source, "most.dic line 80659")
    }

    /// The ring the worker's pipe carries: its keys in order, nothing else, the same after the trip,
    /// and still without duplicates (a decoded ring refuses a key it holds).
    func testTheRingCrossesThePipeAsItsKeysOnly() throws {
        let keys = try parse("A1B2C3D4E5F6\n0F1E2D3C4B5A\na1b2c3d4e5f6\n")
        let ring = ClassicKeyRing(keys)
        XCTAssertEqual(ring.keys.map(\.source), ["keys.dic line 1", "keys.dic line 2"])
        let data = try JSONEncoder().encode(ring)
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        XCTAssertEqual(object.map { Array($0.keys) }, ["keys"])
        var back = try JSONDecoder().decode(ClassicKeyRing.self, from: data)
        XCTAssertEqual(back, ring)
        back.append(ClassicKeyRing.Key([0x0F, 0x1E, 0x2D, 0x3C, 0x4B, 0x5A], source: "again line 9"))
        XCTAssertEqual(back.count, 2)
    }
}

@testable import CardSimulation
import Foundation
import TestSupport
import XCTest

/// MIFARE Ultralight and NTAG dumps (Flipper .nfc, Proxmark3 `mfu` JSON) read into the card image.
/// The card is made up: UID 04 A1 B2 C3 D4 E5 F6, so page 0 is 04 A1 B2 and BCC0 = 88⊕04⊕A1⊕B2 =
/// 9F, page 1 C3 D4 E5 F6 (BCC1 = C3⊕D4⊕E5⊕F6 = 04, page 2's first byte); page 4 "TRNS".
final class UltralightDumpFormatTests: XCTestCase {
    static let pages = ["04A1B29F", "C3D4E5F6", "04480000", "00000000", "54524E53", "00002A00"] + Array(repeating: "00000000", count: 10)

    func testFlipperFixtureStopsAtThePagesRead() throws {
        // ultralight-11.nfc: an Ultralight EV1 of 20 pages, 16 read; pages 16–19 (its
        // configuration, which needs a password) are written as zeros and are not data.
        let path = ClassicDumpFormatTests.fixtures.appendingPathComponent("ultralight-11.nfc").path
        let file = try CardFile.load(path)
        let u = try XCTUnwrap(try file.card(index: nil).mifareUltralight)
        XCTAssertEqual(u.uid, "04A1B2C3D4E5F6")
        XCTAssertEqual(u.type, "Ultralight 11")
        XCTAssertEqual(u.pages, Self.pages)
        XCTAssertEqual(file.summary, "1 MIFARE Ultralight 11 04A1B2C3D4E5F6")
    }

    func testFlipperDataFormat1NamesTheChipInDeviceTypeAndReadsEveryPage() throws {
        // Older files: `Device type: NTAG213`, no `Pages read`: every page of `Pages total` is data.
        var text = "Filetype: Flipper NFC device\nVersion: 2\nDevice type: NTAG213\nUID: 04 A1 B2 C3 D4 E5 F6\nATQA: 44 00\nSAK: 00\n"
        text += "Data format version: 0\nPages total: 16\n"
        text += Self.pages.enumerated().map { i, p in "Page \(i): " + stride(from: 0, to: 8, by: 2).map { String(Array(p)[$0 ..< $0 + 2]) }.joined(separator: " ") }.joined(separator: "\n")
        let u = try XCTUnwrap(try CardImage.parse(Data(text.utf8)).mifareUltralight)
        XCTAssertEqual(u.type, "NTAG213")
        XCTAssertEqual(u.pages.count, 16)
        XCTAssertEqual(u.pages[4], "54524E53")
    }

    func testProxmarkMFUDumpReadsItsPages() throws {
        var blocks = [String: String]()
        for (i, p) in Self.pages.enumerated() { blocks[String(i)] = p }
        let object: [String: Any] = ["Created": "proxmark3", "FileType": "mfu",
                                     "Card": ["UID": "04A1B2C3D4E5F6", "Version": "0004030101000B03"], "blocks": blocks]
        let u = try XCTUnwrap(try CardImage.parse(try JSONSerialization.data(withJSONObject: object)).mifareUltralight)
        XCTAssertEqual(u.uid, "04A1B2C3D4E5F6")
        XCTAssertEqual(u.pages, Self.pages)
    }
}

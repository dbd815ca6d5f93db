@testable import CardSimulation
import Foundation
import TestSupport
import XCTest

/// MIFARE Classic dumps in each format users hold (Flipper .nfc, Proxmark3 JSON, MIFARE Classic
/// Tool text, raw images), read into the card image. Every card here is made up: UID 1A2B3C4D,
/// keys A1B2C3D4E5·ss and B6C5D4E3F2·ss (ss the sector number), data of our own.
final class ClassicDumpFormatTests: XCTestCase {
    static let fixtures = BuildProducts.packageRoot.appendingPathComponent("Tests/Fixtures/dumps")

    /// The made-up 1K, every byte known. Block 0: UID 1A 2B 3C 4D, BCC 1A⊕2B⊕3C⊕4D = 40, SAK 08,
    /// ATQA 04 00, then 62…69 (bytes 8–9 are 62 63, not 04 00 or 44 00: a 4-byte UID). Block 4:
    /// 01…10. Block 5: a value block of 1000 (E8 03 00 00, its inverse 17 FC FF FF, again, address
    /// 04 FB 04 FB). Each trailer: key A A1B2C3D4E5·ss, access bits FF 07 80 69, key B B6C5D4E3F2·ss.
    static func fullCard() -> [[UInt8]] {
        var blocks = Array(repeating: [UInt8](repeating: 0, count: 16), count: 64)
        blocks[0] = [0x1A, 0x2B, 0x3C, 0x4D, 0x40, 0x08, 0x04, 0x00, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69]
        blocks[4] = Array(1 ... 16)
        blocks[5] = [0xE8, 0x03, 0x00, 0x00, 0x17, 0xFC, 0xFF, 0xFF, 0xE8, 0x03, 0x00, 0x00, 0x04, 0xFB, 0x04, 0xFB]
        for s in 0 ..< 16 {
            blocks[s * 4 + 3] = [0xA1, 0xB2, 0xC3, 0xD4, 0xE5, UInt8(s), 0xFF, 0x07, 0x80, 0x69, 0xB6, 0xC5, 0xD4, 0xE3, 0xF2, UInt8(s)]
        }
        return blocks
    }

    static func hex(_ bytes: [UInt8], separator: String = "") -> String { bytes.map { String(format: "%02X", $0) }.joined(separator: separator) }

    // MARK: - the four writers, each from its format's facts

    /// Flipper: header, then `Block N: ` and spaced bytes (NfcFileFormats.md, "Mifare Classic").
    static func flipper(_ blocks: [[UInt8]], version: Int = 4, atqa: String = "00 04") -> String {
        var lines = ["Filetype: Flipper NFC device", "Version: \(version)", "Device type: Mifare Classic", "UID: 1A 2B 3C 4D",
                     "ATQA: \(atqa)", "SAK: 08", "Mifare Classic type: 1K", "Data format version: 2"]
        lines += blocks.enumerated().map { "Block \($0.offset): " + hex($0.element, separator: " ") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Proxmark3 `mfc v2`: Card.UID/ATQA/SAK and blocks by number, hex without spaces.
    static func proxmark(_ blocks: [[UInt8]], fileType: String = "mfc v2") throws -> Data {
        var numbered = [String: String]()
        for (i, b) in blocks.enumerated() { numbered[String(i)] = hex(b) }
        let object: [String: Any] = ["Created": "proxmark3", "FileType": fileType,
                                     "Card": ["UID": "1A2B3C4D", "ATQA": "0400", "SAK": "08"], "blocks": numbered]
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }

    /// MCT: `+Sector: N` and the sector's blocks as 32 hex digits.
    static func mct(_ blocks: [[UInt8]]) -> String {
        var lines = [String]()
        for s in 0 ..< blocks.count / 4 {
            lines.append("+Sector: \(s)")
            lines += blocks[s * 4 ..< s * 4 + 4].map { hex($0) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func raw(_ blocks: [[UInt8]]) -> Data { Data(blocks.joined()) }

    // MARK: - one card, four files, one image

    func testTheSameCardInAllFourFormatsGivesTheSameImage() throws {
        let blocks = Self.fullCard()
        let fromFlipper = try CardImage.parse(Data(Self.flipper(blocks).utf8))
        let fromProxmark = try CardImage.parse(try Self.proxmark(blocks))
        let fromMCT = try CardImage.parse(Data(Self.mct(blocks).utf8))
        let raw = try CardFile.parse(Self.raw(blocks), name: "card.mfd")
        XCTAssertEqual(raw.format, "a raw MIFARE Classic dump")
        guard case .card(let fromRaw) = try XCTUnwrap(raw.entries.first) else { return XCTFail("\(raw.entries)") }

        // ATQA and SAK are only in the Flipper and Proxmark files: compared apart.
        func bare(_ image: CardImage) throws -> CardImage.ClassicImage {
            var c = try XCTUnwrap(image.mifareClassic); c.atqa = nil; c.sak = nil; return c
        }
        let expected = try bare(fromRaw)
        XCTAssertEqual(try bare(fromFlipper), expected)
        XCTAssertEqual(try bare(fromProxmark), expected)
        XCTAssertEqual(try bare(fromMCT), expected)

        XCTAssertEqual(expected.uid, "1A2B3C4D")
        XCTAssertEqual(expected.type, "1K")
        XCTAssertEqual(expected.blocks.count, 64)
        XCTAssertEqual(expected.blocks[0], "1A2B3C4D400804006263646566676869")
        XCTAssertEqual(expected.blocks[4], "0102030405060708090A0B0C0D0E0F10")
        XCTAssertEqual(expected.blocks[5], "E803000017FCFFFFE803000004FB04FB")
        XCTAssertEqual(expected.blocks[63], "A1B2C3D4E50FFF078069B6C5D4E3F20F") // sector 15's trailer
        XCTAssertEqual(fromFlipper.mifareClassic?.atqa, "0004")
        XCTAssertEqual(fromFlipper.mifareClassic?.sak, "08")
        XCTAssertEqual(fromProxmark.mifareClassic?.atqa, "0400") // as Proxmark writes it
    }

    // MARK: - Flipper

    func testFlipperFixtureKeepsUnreadBytesAndTheKeysThatOpenEachSector() throws {
        // classic-1k.nfc: the card above, except block 9 unread, sector 2's key B unknown, and
        // sector 15 (blocks 60–63) not read at all.
        let file = try CardFile.load(Self.fixtures.appendingPathComponent("classic-1k.nfc").path)
        XCTAssertEqual(file.format, "a Flipper Zero NFC file")
        let image = try file.card(index: nil)
        let c = try XCTUnwrap(image.mifareClassic)
        XCTAssertEqual(c.uid, "1A2B3C4D")
        XCTAssertEqual(c.type, "1K")
        XCTAssertEqual(c.atqa, "0004")
        XCTAssertEqual(c.sak, "08")
        XCTAssertEqual(c.blocks[4], "0102030405060708090A0B0C0D0E0F10")
        XCTAssertEqual(c.blocks[7], "A1B2C3D4E501FF078069B6C5D4E3F201")
        XCTAssertEqual(c.blocks[9], String(repeating: "??", count: 16))
        XCTAssertEqual(c.blocks[11], "A1B2C3D4E502FF078069" + String(repeating: "??", count: 6))
        XCTAssertEqual(Array(c.blocks[60 ... 63]), Array(repeating: String(repeating: "??", count: 16), count: 4))
        XCTAssertEqual(file.summary, "1 MIFARE Classic 1K 1A2B3C4D")
    }

    func testFlipperVersion2ATQAIsTurnedMostSignificantByteFirst() throws {
        // File version 2 wrote the ATQA least significant byte first ("04 00" for 00 04).
        let image = try CardImage.parse(Data(Self.flipper(Self.fullCard(), version: 2, atqa: "04 00").utf8))
        XCTAssertEqual(image.mifareClassic?.atqa, "0004")
    }

    func testFlipperBlocksTheFileLacksAreUnreadAndOtherTypesHaveTheirSizes() throws {
        // A Mini (MINI: 5 sectors, 20 blocks) listing block 0 only; "Plus 2K" and 4K with none.
        func file(_ type: String, _ blocks: String) -> Data {
            Data("Filetype: Flipper NFC device\nVersion: 3\nDevice type: Mifare Classic\nUID: 04 11 22 33 44 55 66\nMifare Classic type: \(type)\nData format version: 2\n\(blocks)".utf8)
        }
        let mini = try XCTUnwrap(try CardImage.parse(file("MINI", "Block 0: 04 11 22 33 44 55 66 77 44 00 00 00 00 00 00 00\n")).mifareClassic)
        XCTAssertEqual(mini.type, "Mini")
        XCTAssertEqual(mini.blocks.count, 20)
        XCTAssertEqual(mini.uid, "04112233445566")
        XCTAssertEqual(mini.blocks[1], String(repeating: "??", count: 16))
        XCTAssertEqual(try CardImage.parse(file("Plus 2K", "")).mifareClassic?.blocks.count, 128)
        XCTAssertEqual(try CardImage.parse(file("Plus 2K", "")).mifareClassic?.type, "2K")
        XCTAssertEqual(try CardImage.parse(file("4K", "Block 255: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00\n")).mifareClassic?.blocks.count, 256)
    }

    // MARK: - Proxmark3

    func testProxmarkFileTypesOfEveryVersionRead() throws {
        for type in ["mfcard", "mfc v2", "mfc v3"] {
            let image = try CardImage.parse(try Self.proxmark(Self.fullCard(), fileType: type))
            XCTAssertEqual(image.mifareClassic?.blocks[7], "A1B2C3D4E501FF078069B6C5D4E3F201", type)
            XCTAssertEqual(image.mifareClassic?.uid, "1A2B3C4D", type)
        }
    }

    func testProxmark4KDumpIsA4KAndItsLastTrailerHoldsItsKeys() throws {
        // 256 blocks: sectors 32–39 have 16 blocks, so sector 39's trailer is block 255.
        var blocks = Array(repeating: [UInt8](repeating: 0, count: 16), count: 256)
        blocks[0] = Self.fullCard()[0]
        blocks[255] = [0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0x27, 0xFF, 0x07, 0x80, 0x69, 0xB6, 0xC5, 0xD4, 0xE3, 0xF2, 0x27]
        let c = try XCTUnwrap(try CardImage.parse(try Self.proxmark(blocks, fileType: "mfc v3")).mifareClassic)
        XCTAssertEqual(c.type, "4K")
        XCTAssertEqual(c.blocks[255], "A1B2C3D4E527FF078069B6C5D4E3F227")
    }

    // MARK: - MIFARE Classic Tool

    func testMCTDashesAreUnreadBytesAndMissingSectorsAreUnread() throws {
        // Sector 0 whole; sector 1: block 5 unread (32 dashes), block 6 with its 3rd byte half
        // unknown ("0-"), trailer with key B unknown (12 dashes at the end).
        let text = """
        +Sector: 0
        1A2B3C4D400804006263646566676869
        00000000000000000000000000000000
        00000000000000000000000000000000
        A1B2C3D4E500FF078069B6C5D4E3F200
        +Sector: 1
        0102030405060708090A0B0C0D0E0F10
        --------------------------------
        00110-33445566778899AABBCCDDEEFF
        A1B2C3D4E501FF078069------------

        """
        let c = try XCTUnwrap(try CardImage.parse(Data(text.utf8)).mifareClassic)
        XCTAssertEqual(c.uid, "1A2B3C4D")
        XCTAssertEqual(c.type, "1K")
        XCTAssertEqual(c.blocks[4], "0102030405060708090A0B0C0D0E0F10")
        XCTAssertEqual(c.blocks[5], String(repeating: "??", count: 16))
        XCTAssertEqual(c.blocks[6], "0011??33445566778899AABBCCDDEEFF")
        XCTAssertEqual(c.blocks[7], "A1B2C3D4E501FF078069" + String(repeating: "??", count: 6))
        XCTAssertEqual(c.blocks[8], String(repeating: "??", count: 16)) // sector 2: not in the file
    }

    func testMCTSectorPast15MakesA2KAndPast31A4K() throws {
        func card(lastSector s: Int) -> Data {
            let lines = s < 32 ? 4 : 16
            let text = Self.mct(Array(Self.fullCard().prefix(4))) + "+Sector: \(s)\n" + String(repeating: String(repeating: "0", count: 32) + "\n", count: lines)
            return Data(text.utf8)
        }
        XCTAssertEqual(try CardImage.parse(card(lastSector: 31)).mifareClassic?.type, "2K")
        XCTAssertEqual(try CardImage.parse(card(lastSector: 39)).mifareClassic?.type, "4K")
        XCTAssertEqual(try CardImage.parse(card(lastSector: 39)).mifareClassic?.blocks[255], String(repeating: "0", count: 32))
    }

    // MARK: - raw

    func testRawImagesOfEachSizeAndTheSevenByteUID() throws {
        // Block 0 of an NXP 7-byte UID card: 04 then six bytes, then at bytes 8–9 the ATQA 44 00.
        var block0: [UInt8] = [0x04, 0x51, 0x62, 0x73, 0x84, 0x95, 0xA6, 0x08, 0x44, 0x00, 0, 0, 0, 0, 0, 0]
        for (size, type) in [(320, "Mini"), (1024, "1K"), (2048, "2K"), (4096, "4K")] {
            var data = Data(count: size)
            data.replaceSubrange(0 ..< 16, with: block0)
            let file = try CardFile.parse(data, name: "Dump.MFD")
            guard case .card(let image) = file.entries.first else { return XCTFail("\(size): \(file.entries)") }
            XCTAssertEqual(image.mifareClassic?.type, type)
            XCTAssertEqual(image.mifareClassic?.uid, "045162738495A6")
        }
        // Bytes 8–9 of 04 00 also mark a 7-byte UID; anything else, 4 bytes.
        block0[8] = 0x04
        XCTAssertEqual(try rawUID(block0), "045162738495A6")
        block0[8] = 0x08
        XCTAssertEqual(try rawUID(block0), "04516273")
    }

    private func rawUID(_ block0: [UInt8]) throws -> String? {
        var data = Data(count: 1024)
        data.replaceSubrange(0 ..< 16, with: block0)
        guard case .card(let image) = try CardFile.parse(data, name: "x.bin").entries.first else { return nil }
        return image.mifareClassic?.uid
    }

    func testARawImageIsReadFromItsFileAndAZipMember() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("card.dump").path
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Self.raw(Self.fullCard())))
        XCTAssertEqual(try CardImage.load(path).mifareClassic?.blocks[4], "0102030405060708090A0B0C0D0E0F10")

        // Metrodroid's zip export keeps Classic cards as .mfc members.
        let zip = dir.appendingPathComponent("export.zip").path
        try ExportTexts.zip([("Metrodroid-1a2b3c4d-20261101-000000.mfc", Self.raw(Self.fullCard()))], to: zip)
        let file = try CardFile.load(zip)
        XCTAssertEqual(file.summary, "1 MIFARE Classic 1K 1A2B3C4D")
    }

    func testTheSameBytesWithoutARawNameAreNoCard() {
        // Without the extension nothing says these bytes are a dump.
        XCTAssertThrowsError(try CardImage.parse(Self.raw(Self.fullCard()))) { XCTAssertTrue($0 is CardImageError, "\($0)") }
        XCTAssertThrowsError(try CardFile.parse(Self.raw(Self.fullCard()), name: "card.txt")) { XCTAssertTrue($0 is CardImageError, "\($0)") }
    }
}

@testable import CardSimulation
import Foundation
import TestSupport
import XCTest

/// Malformed and hostile MIFARE dumps: each ends as a `CardImageError` that names what is wrong,
/// never a trap, and a huge file costs one linear pass.
final class HostileMifareDumpTests: XCTestCase {
    let flipperHeader = "Filetype: Flipper NFC device\nVersion: 4\nDevice type: Mifare Classic\nUID: 1A 2B 3C 4D\nMifare Classic type: 1K\nData format version: 2\n"
    let zeros = String(repeating: " 00", count: 16).dropFirst()

    func assertRefused(_ data: Data, _ fragment: String, name: String? = nil, file: StaticString = #filePath, line: UInt = #line) {
        do {
            let parsed = try CardFile.parse(data, name: name)
            let why: String
            switch parsed.entries.first {
            case .unusable(let w): why = w.english
            case .otherTechnology(let w): why = w
            default: return XCTFail("read as \(parsed.entries)", file: file, line: line)
            }
            XCTAssertTrue(why.contains(fragment), why, file: file, line: line)
        } catch let e as CardImageError {
            XCTAssertTrue(e.description.contains(fragment), e.description, file: file, line: line)
        } catch {
            XCTFail("\(error)", file: file, line: line)
        }
    }

    func assertRefused(_ text: String, _ fragment: String, file: StaticString = #filePath, line: UInt = #line) {
        assertRefused(Data(text.utf8), fragment, file: file, line: line)
    }

    func testFlipperClassicLinesThatAreNotBlocks() {
        assertRefused(flipperHeader + "Block 4: 01 02 03\n", "block 4 is not 16 bytes")
        assertRefused(flipperHeader + "Block 4: 0G" + String(zeros.dropFirst(2)) + "\n", "block 4 is not 16 bytes of hex")
        assertRefused(flipperHeader + "Block 4: 010" + String(zeros.dropFirst(2)) + "\n", "block 4 is not 16 bytes")
        assertRefused(flipperHeader + "Block 64: \(zeros)\n", "block 64 is past the card's end (64 blocks)")
        assertRefused(flipperHeader + "Block 99999999999999999999: \(zeros)\n", "unreadable block number")
        assertRefused(flipperHeader + "Block -1: \(zeros)\n", "unreadable block number")
        assertRefused(flipperHeader + "Block 3: \(zeros)\nBlock 3: \(zeros)\n", "block 3 is listed twice")
        assertRefused(flipperHeader + "just words\n", "no `key: value`")
        assertRefused(flipperHeader.replacingOccurrences(of: "1K", with: "8K"), "Mifare Classic type` (MINI, 1K, Plus 2K or 4K)")
        assertRefused(flipperHeader.replacingOccurrences(of: "UID: 1A 2B 3C 4D", with: "UID: 1A 2B 3C 4D 5E"), "no UID of 4 or 7 bytes")
        assertRefused(flipperHeader.replacingOccurrences(of: "Data format version: 2", with: "Data format version: 1"), "data format version 1")
        assertRefused(flipperHeader.replacingOccurrences(of: "Version: 4", with: "Version: 1"), "file version 1")
    }

    func testFlipperUltralightPagesOutOfPlace() {
        let header = "Filetype: Flipper NFC device\nVersion: 4\nDevice type: NTAG/Ultralight\nUID: 04 A1 B2 C3 D4 E5 F6\nNTAG/Ultralight type: NTAG213\n"
        assertRefused(header + "Pages total: 4\nPages read: 4\nPage 0: 00 00 00 00\nPage 2: 00 00 00 00\n", "page 2 where page 1 was due")
        assertRefused(header + "Pages total: 4\nPages read: 4\nPage 4: 00 00 00 00\n", "page 4 is past the card's end")
        assertRefused(header + "Pages total: 4\nPages read: 5\n", "5 pages read of 4")
        assertRefused(header + "Pages total: 4\nPages read: 4\nPage 0: 00 00 00 00\n", "4 pages read, 1 listed")
        assertRefused(header + "Pages total: 4\nPages read: 1\nPage 0: 00 00 00\n", "page 0 is not 4 bytes")
        assertRefused(header + "Pages total: 99999\n", "`Pages total` is not a page count")
        assertRefused(header + "Page 0: 00 00 00 00\n", "pages before the `Pages total` line")
        assertRefused(header.replacingOccurrences(of: " F6", with: "") + "Pages total: 1\nPage 0: 00 00 00 00\n", "no UID of 7 bytes")
    }

    func testProxmarkValuesOfTheWrongShape() throws {
        func json(_ object: [String: Any]) throws -> Data { try JSONSerialization.data(withJSONObject: object) }
        let card: [String: Any] = ["UID": "1A2B3C4D"]
        assertRefused(try json(["Created": "proxmark3", "FileType": "mfc v2", "Card": card, "blocks": ["0": "0102030"]]), "block 0 is not hex")
        assertRefused(try json(["Created": "proxmark3", "FileType": "mfc v2", "Card": card, "blocks": ["0": "0102"]]), "block 0 is 2 bytes, not 16")
        assertRefused(try json(["Created": "proxmark3", "FileType": "mfc v2", "Card": card, "blocks": ["256": String(repeating: "0", count: 32)]]), "block 256 is past the card's end")
        assertRefused(try json(["Created": "proxmark3", "FileType": "mfc v2", "Card": card, "blocks": ["x": String(repeating: "0", count: 32)]]), "block number")
        assertRefused(try json(["Created": "proxmark3", "FileType": "mfc v2", "Card": card, "blocks": ["0": 12]]), "block 0 is not hex")
        assertRefused(try json(["Created": "proxmark3", "FileType": "mfc v2", "Card": card, "blocks": [:] as [String: Any]]), "without blocks")
        assertRefused(try json(["Created": "proxmark3", "FileType": "mfc v2", "Card": card]), "without a \"blocks\" object")
        assertRefused(try json(["Created": "proxmark3", "FileType": "mfc v2", "Card": ["UID": "1A2B3C"], "blocks": ["0": String(repeating: "0", count: 32)]]), "a UID of 3 bytes")
        assertRefused(try json(["Created": "proxmark3", "FileType": "mfu", "Card": ["UID": "04A1B2C3D4E5F6"], "blocks": ["0": "00000000", "2": "00000000"]]), "page 1 is missing")
        assertRefused(try json(["Created": "proxmark3", "FileType": "hitag2", "blocks": [:] as [String: Any]]), "file type hitag2")
        var many = [String: String]()
        for i in 0 ..< 100_000 { many[String(i)] = String(repeating: "0", count: 32) }
        assertRefused(try json(["Created": "proxmark3", "FileType": "mfc v2", "Card": card, "blocks": many]), "dump of 100000 blocks (at most 256)")
    }

    func testMCTLinesOfTheWrongShape() {
        let block = String(repeating: "0", count: 32)
        func sector(_ n: Int, _ lines: [String]) -> String { "+Sector: \(n)\n" + lines.joined(separator: "\n") + "\n" }
        let sector0 = ["1A2B3C4D400804006263646566676869", block, block, block]
        assertRefused(sector(0, [block, block, block, String(block.dropLast())]), "31 characters, not 32")
        assertRefused(sector(0, [block, block, block, block + "0"]), "33 characters, not 32")
        assertRefused(sector(0, [block, block, "0G" + block.dropFirst(2), block]), "bad hex in sector 0")
        assertRefused(sector(0, [block, block, block]), "sector 0 has 3 blocks, not 4")
        assertRefused(sector(0, [block, block, block, block, block]), "sector 0 has more than 4 blocks")
        assertRefused(sector(0, sector0) + sector(40, [block]), "names no sector 0–39")
        assertRefused(sector(0, sector0) + sector(0, sector0), "sector 0 is listed twice")
        assertRefused(sector(1, [block, block, block, block]), "block 0 is not read")
        assertRefused(sector(0, sector0) + "+Sector: x\n", "names no sector")
    }

    func testRawImagesOfOtherSizesAreNoCard() {
        assertRefused(Data(count: 1000), "neither a card image", name: "card.mfd")
        assertRefused(Data(count: 1025), "neither a card image", name: "card.mfd")
        assertRefused(Data(count: 0), "neither a card image", name: "card.mfd")
    }

    func testHundredThousandLineFilesEndInOnePass() throws {
        // A Flipper file padded with 100,000 comment lines still reads, in bounded time; an MCT file
        // of 100,000 block lines stops at its sector's fifth, and a Flipper Ultralight file of
        // 100,000 pages at the first past `Pages total`.
        let started = Date()
        var padded = flipperHeader + String(repeating: "# padding\n", count: 100_000)
        padded += "Block 0: 1A 2B 3C 4D 40 08 04 00 62 63 64 65 66 67 68 69\n"
        XCTAssertEqual(try CardImage.parse(Data(padded.utf8)).mifareClassic?.blocks[0], "1A2B3C4D400804006263646566676869")
        assertRefused("+Sector: 0\n" + String(repeating: String(repeating: "0", count: 32) + "\n", count: 100_000), "sector 0 has more than 4 blocks")
        let ul = "Filetype: Flipper NFC device\nVersion: 4\nDevice type: NTAG/Ultralight\nUID: 04 A1 B2 C3 D4 E5 F6\nPages total: 1024\n"
            + (0 ..< 100_000).map { "Page \($0): 00 00 00 00" }.joined(separator: "\n")
        assertRefused(ul, "page 1024 is past the card's end")
        // A sanity bound only (a debug build on a shared machine): well under a second of work each.
        XCTAssertLessThan(Date().timeIntervalSince(started), 30)
    }
}

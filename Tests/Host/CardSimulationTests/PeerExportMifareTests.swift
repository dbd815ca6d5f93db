@testable import CardSimulation
import Foundation
import TestSupport
import XCTest

/// MIFARE Classic and Ultralight cards in the peers' exports (issue 42): Metrodroid's JSON
/// (ClassicSectorRaw: `blocks` in hex, `keyA`, `keyB`, `isUnauthorized`, `error`; UltralightPage:
/// `data`, `isUnauthorized`), FareBot's JSON (`sectors[{type, index, blocks[{index, data}]}]`,
/// base64, no keys; `pages[{index, data}]`) and the old XML (`<sector index key keytype>`,
/// `unauthorized`, `<block index><data>`, `<page index><data>`), each written here from those
/// facts with ClassicDumpFormatTests' made-up 1K (UID 1A2B3C4D, keys A1B2C3D4E5·ss and
/// B6C5D4E3F2·ss) and UltralightDumpFormatTests' made-up Ultralight: each reads to the image the
/// Flipper dump of the same card reads to.
final class PeerExportMifareTests: XCTestCase {
    typealias Classic = ClassicDumpFormatTests

    /// The card as a phone reads it: key A in each trailer reads as zeros (MF1S50YYX datasheet,
    /// "Sector trailer": key A is never readable).
    static func asRead(_ blocks: [[UInt8]]) -> [[UInt8]] {
        blocks.enumerated().map { n, b in MifareLayout.isTrailer(n) ? [UInt8](repeating: 0, count: 6) + b.dropFirst(6) : b }
    }

    static func sectors(_ blocks: [[UInt8]]) -> [[[UInt8]]] {
        var out = [[[UInt8]]](), n = 0
        while n < blocks.count {
            let size = MifareLayout.blocksInSector(out.count)
            out.append(Array(blocks[n ..< min(n + size, blocks.count)]))
            n += size
        }
        return out
    }

    static func hex(_ b: [UInt8]) -> String { Classic.hex(b).lowercased() }
    static func base64(_ b: [UInt8]) -> String { Data(b).base64EncodedString() }

    /// Metrodroid's export of `blocks`: `locked` sectors unauthorized, each other one with the key A
    /// that opened it (bytes 0–5 of its trailer in `blocks`).
    static func metrodroid(_ blocks: [[UInt8]], locked: Set<Int> = [], tagId: String? = "1a2b3c4d") -> [String: Any] {
        let sectors = zip(sectors(asRead(blocks)), sectors(blocks)).enumerated().map { i, pair -> [String: Any] in
            if locked.contains(i) { return ["blocks": [] as [Any], "isUnauthorized": true] }
            return ["blocks": pair.0.map(hex), "keyA": hex(Array((pair.1.last ?? []).prefix(6))), "isUnauthorized": false]
        }
        var card: [String: Any] = ["scannedAt": ["timeInMillis": 1_764_000_000_000, "tz": "Europe/Moscow"],
                                   "mifareClassic": ["sectors": sectors, "subType": "CLASSIC", "isPartialRead": false]]
        card["tagId"] = tagId
        return card
    }

    static func fareBot(_ blocks: [[UInt8]], locked: Set<Int> = []) -> [String: Any] {
        let sectors = sectors(asRead(blocks)).enumerated().map { i, s -> [String: Any] in
            locked.contains(i) ? ["type": "unauthorized", "index": i]
                : ["type": "data", "index": i, "blocks": s.enumerated().map { ["index": $0.offset, "data": base64($0.element)] }]
        }
        return ["cardType": "MifareClassic", "tagId": base64([0x1A, 0x2B, 0x3C, 0x4D]), "scannedAt": 1_500_000_000_000, "sectors": sectors]
    }

    /// The XML: key A opened even sectors, key B odd ones.
    static func xml(_ blocks: [[UInt8]], locked: Set<Int> = []) -> String {
        let read = sectors(asRead(blocks)), full = sectors(blocks)
        var out = "<card type=\"0\" id=\"1a2b3c4d\" scanned_at=\"1764000000000\"><sectors>"
        for (i, s) in read.enumerated() {
            if locked.contains(i) { out += "<sector index=\"\(i)\" unauthorized=\"true\"/>"; continue }
            let trailer = full[i].last ?? []
            let (key, type) = i % 2 == 0 ? (Array(trailer.prefix(6)), "KeyA") : (Array(trailer.suffix(6)), "KeyB")
            out += "<sector index=\"\(i)\" key=\"\(base64(key))\" keytype=\"\(type)\"><blocks>"
                + s.enumerated().map { "<block index=\"\($0.offset)\" type=\"data\"><data>\(base64($0.element))</data></block>" }.joined()
                + "</blocks></sector>"
        }
        return out + "</sectors></card>"
    }

    func image(_ data: Data, file: StaticString = #filePath, line: UInt = #line) throws -> CardImage {
        let parsed = try CardFile.parse(data)
        guard case .card(let image)? = parsed.entries.first else {
            XCTFail("not a card: \(parsed.entries)", file: file, line: line)
            throw CardImageError("not a card")
        }
        return image
    }

    func json(_ object: Any) throws -> Data { try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) }

    /// The Flipper dump's image of the card, `locked` sectors unread and each trailer's key A and B
    /// as `keys` says (the Flipper writes "??" for a key it did not find).
    func flipperImage(_ blocks: [[UInt8]], locked: Set<Int> = [], keyA: (Int) -> Bool = { _ in true }, keyB: (Int) -> Bool = { _ in true }) throws -> CardImage.ClassicImage {
        var lines = Classic.flipper(blocks).split(separator: "\n").map(String.init)
        for (n, _) in blocks.enumerated() {
            let sector = n / 4
            guard let i = lines.firstIndex(where: { $0.hasPrefix("Block \(n): ") }) else { continue }
            var bytes = lines[i].dropFirst("Block \(n): ".count).split(separator: " ").map(String.init)
            if locked.contains(sector) { bytes = Array(repeating: "??", count: 16) }
            if MifareLayout.isTrailer(n), !keyA(sector) { bytes.replaceSubrange(0 ..< 6, with: Array(repeating: "??", count: 6)) }
            if MifareLayout.isTrailer(n), !keyB(sector) { bytes.replaceSubrange(10 ..< 16, with: Array(repeating: "??", count: 6)) }
            lines[i] = "Block \(n): " + bytes.joined(separator: " ")
        }
        return try XCTUnwrap(try image(Data((lines.joined(separator: "\n") + "\n").utf8)).mifareClassic)
    }

    // MARK: - Classic: the same image as the Flipper dump's

    /// The same card: UID, type and every block (ATQA and SAK, which the exports do not keep, aside).
    func assertSameCard(_ c: CardImage.ClassicImage, _ expected: CardImage.ClassicImage, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(c.uid, expected.uid, file: file, line: line)
        XCTAssertEqual(c.type, expected.type, file: file, line: line)
        XCTAssertEqual(c.blocks.count, expected.blocks.count, file: file, line: line)
        for (n, (a, b)) in zip(c.blocks, expected.blocks).enumerated() { XCTAssertEqual(a, b, "block \(n)", file: file, line: line) }
    }

    func testAMetrodroidClassicExportKeepsItsKeysInTheTrailersAndItsLockedSectorUnread() throws {
        let card = Classic.fullCard()
        let image = try image(try json(Self.metrodroid(card, locked: [2])))
        let c = try XCTUnwrap(image.mifareClassic)
        // Key A from `keyA`; key B as the card answered it (access bits FF 07 80 let key A read key B:
        // MF1S50YYX datasheet, "Access conditions for the sector trailer"); sector 2 all unread: what
        // a Flipper that found every key but sector 2's writes.
        try assertSameCard(c, try flipperImage(card, locked: [2]))
        XCTAssertEqual(c.uid, "1A2B3C4D")
        XCTAssertEqual(c.type, "1K")
        XCTAssertEqual(c.blocks[11], MifareLayout.unreadBlock, "sector 2's trailer is unread")
        XCTAssertEqual(c.blocks[7], "A1B2C3D4E501FF078069B6C5D4E3F201", "sector 1's trailer: key A from the export")
        XCTAssertEqual(image.description, "Metrodroid MIFARE Classic export")
    }

    func testAFareBotClassicExportKeepsTheTrailersAsReadForItHoldsNoKey() throws {
        let card = Classic.fullCard()
        let export: [String: Any] = ["versionCode": 31, "cards": [Self.fareBot(card, locked: [5])]]
        let c = try XCTUnwrap(try image(try json(export)).mifareClassic)
        // Key A as the phone read it (zeros): the emulator opens the sector with what the dump holds.
        var expected = try flipperImage(card, locked: [5])
        for s in 0 ..< 16 where s != 5 { expected.blocks[s * 4 + 3] = "000000000000" + expected.blocks[s * 4 + 3].dropFirst(12) }
        try assertSameCard(c, expected)
        XCTAssertEqual(c.blocks[20], MifareLayout.unreadBlock)
    }

    func testAnXMLClassicExportPutsKeyAOrKeyBWhereItsKeytypeSays() throws {
        let card = Classic.fullCard()
        let c = try XCTUnwrap(try image(Data(Self.xml(card, locked: [15]).utf8)).mifareClassic)
        var expected = try flipperImage(card, locked: [15])
        // Odd sectors were opened with key B: their key A is the zeros the card answered.
        for s in stride(from: 1, to: 15, by: 2) { expected.blocks[s * 4 + 3] = "000000000000" + expected.blocks[s * 4 + 3].dropFirst(12) }
        try assertSameCard(c, expected)
        XCTAssertEqual(c.blocks[63], MifareLayout.unreadBlock)
    }

    func testAClassicExportWithoutATagIDTakesItsUIDFromBlock0AndFortySectorsAreA4K() throws {
        var blocks = Classic.fullCard()
        // A 4K: sectors 16–31 of 4 blocks, 32–39 of 16 (MF1S70YYX datasheet), 256 blocks.
        for n in 64 ..< 256 { blocks.append(MifareLayout.isTrailer(n) ? blocks[3] : [UInt8](repeating: UInt8(n % 256), count: 16)) }
        let object = Self.metrodroid(blocks, tagId: nil)
        XCTAssertEqual(((object["mifareClassic"] as? [String: Any])?["sectors"] as? [Any])?.count, 40)
        let c = try XCTUnwrap(try image(try json(object)).mifareClassic)
        XCTAssertEqual(c.type, "4K")
        XCTAssertEqual(c.blocks.count, 256)
        XCTAssertEqual(c.uid, "1A2B3C4D", "from block 0 (4 bytes: bytes 8–9 are not 04 00 or 44 00)")
        XCTAssertEqual(c.blocks[200], String(repeating: "C8", count: 16))
    }

    func testAMetrodroidPlusCardStaysAnotherTechnology() throws {
        var object = Self.metrodroid(Classic.fullCard())
        object["mifareClassic"] = ["sectors": [] as [Any], "subType": "PLUS"]
        XCTAssertEqual(try CardFile.parse(try json(object)).entries, [.otherTechnology("MIFARE Plus card")])
    }

    // MARK: - Ultralight

    static let pages = UltralightDumpFormatTests.pages

    func testEachUltralightExportReadsToTheFlipperDumpsPages() throws {
        let bytes = Self.pages.map { p in stride(from: 0, to: 8, by: 2).map { UInt8(String(Array(p)[$0 ..< $0 + 2]), radix: 16) ?? 0 } }
        let metrodroid: [String: Any] = ["tagId": "04a1b2c3d4e5f6", "mifareUltralight": ["cardModel": "EV1_MF0UL11",
                                         "pages": bytes.map { ["data": Self.hex($0), "isUnauthorized": false] }]]
        let fareBot: [String: Any] = ["cardType": "MifareUltralight", "tagId": Self.base64([0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6]),
                                      "scannedAt": 1, "ultralightType": 1,
                                      "pages": bytes.enumerated().reversed().map { ["index": $0.offset, "data": Self.base64($0.element)] }]
        let xml = "<card type=\"1\" id=\"04a1b2c3d4e5f6\" scanned_at=\"1\"><pages>"
            + bytes.enumerated().map { "<page index=\"\($0.offset)\"><data>\(Self.base64($0.element))</data></page>" }.joined() + "</pages></card>"
        for (name, data) in [("Metrodroid", try json(metrodroid)), ("FareBot", try json(fareBot)), ("XML", Data(xml.utf8))] {
            let u = try XCTUnwrap(try image(data).mifareUltralight, name)
            XCTAssertEqual(u.uid, "04A1B2C3D4E5F6", name)
            XCTAssertEqual(u.pages, Self.pages, name)
        }
        XCTAssertEqual(try image(try json(metrodroid)).mifareUltralight?.type, "Ultralight 11")
        XCTAssertEqual(try image(try json(fareBot)).mifareUltralight?.type, "Ultralight")
    }

    func testUnauthorizedUltralightPagesAreUnreadAndTheImageEndsAtTheLastPageRead() throws {
        var pages: [[String: Any]] = Self.pages.map { ["data": $0.lowercased(), "isUnauthorized": false] }
        pages[5] = ["data": "", "isUnauthorized": true]
        pages += Array(repeating: ["data": "", "isUnauthorized": true], count: 4)
        // No tag ID: the UID is UID0–2 of page 0 and UID3–6 of page 1 (MF0ICU1 datasheet).
        let u = try XCTUnwrap(try image(try json(["mifareUltralight": ["pages": pages]])).mifareUltralight)
        XCTAssertEqual(u.uid, "04A1B2C3D4E5F6")
        XCTAssertEqual(u.pages.count, Self.pages.count)
        XCTAssertEqual(u.pages[5], "????????")
        XCTAssertEqual(u.pages[4], "54524E53")
    }

    // MARK: - Hostile exports end as a file's problem, never a trap, never a key in a message

    func assertRefused(_ data: Data, _ fragment: String, file: StaticString = #filePath, line: UInt = #line) {
        do {
            let parsed = try CardFile.parse(data)
            guard case .unusable(let words)? = parsed.entries.first else { return XCTFail("read as \(parsed.entries)", file: file, line: line) }
            let why = words.english
            XCTAssertTrue(why.contains(fragment), why, file: file, line: line)
            for secret in ["a1b2c3d4e5", "b6c5d4e3f2", "o!bl s1", "tsxu8"] {
                XCTAssertFalse(why.lowercased().contains(secret), "a key in the message: \(why)", file: file, line: line)
            }
        } catch {
            XCTAssertTrue("\(error)".contains(fragment), "\(error)", file: file, line: line)
        }
    }

    func testHostileMetrodroidClassicExports() throws {
        let card = Classic.fullCard()
        func with(_ change: (inout [[String: Any]]) -> Void) throws -> Data {
            var object = Self.metrodroid(card)
            var sectors = (object["mifareClassic"] as? [String: Any])?["sectors"] as? [[String: Any]] ?? []
            change(&sectors)
            object["mifareClassic"] = ["sectors": sectors]
            return try json(object)
        }
        assertRefused(try with { $0[1]["blocks"] = ["000102"] + Array((($0[1]["blocks"] as? [String]) ?? []).dropFirst()) }, "sector 1, block 0: 3 bytes, not 16")
        assertRefused(try with { $0[1]["blocks"] = Array((($0[1]["blocks"] as? [String]) ?? []).dropLast()) + ["a1b2c3d4e5f"] }, "sector 1, block 3 is an odd number of hex digits")
        assertRefused(try with { $0[1]["blocks"] = Array((($0[1]["blocks"] as? [String]) ?? []).dropLast()) + ["a1b2c3d4e5zz" + String(repeating: "0", count: 20)] }, "sector 1, block 3 is not hex")
        assertRefused(try with { $0[1]["blocks"] = (($0[1]["blocks"] as? [String]) ?? []) + [String(repeating: "00", count: 16)] }, "block 4 is past the sector's 4 blocks")
        assertRefused(try with { $0[3]["keyA"] = "a1b2c3d4e5" }, "sector 3: key A of 5 bytes, not 6")
        assertRefused(try with { $0[3]["keyB"] = "b6c5d4e3f2f" }, "sector 3: keyB is an odd number of hex digits")
        assertRefused(try with { $0[3]["keyA"] = 42 }, "sector 3: keyA is not hex text")
        assertRefused(try with { $0[4] = ["blocks": "nope"] as [String: Any] }, "MIFARE Classic sector 4: blocks is not a list")
        assertRefused(try with { $0 += Array(repeating: ["isUnauthorized": true], count: 25) }, "of 41 sectors (a 4K, the largest, has 40)")
        assertRefused(try with { $0 = [] }, "without sectors")
        var notAList = Self.metrodroid(card)
        notAList["mifareClassic"] = ["sectors": ["0": "x"]]
        assertRefused(try json(notAList), "without a sectors list")
        notAList["mifareClassic"] = "CLASSIC"
        assertRefused(try json(notAList), "without a sectors list")
        // All locked and no tag ID: no UID.
        var noTag = Self.metrodroid(card, tagId: nil)
        noTag["mifareClassic"] = ["sectors": [["isUnauthorized": true]]]
        assertRefused(try json(noTag), "neither a tag ID")
    }

    func testHostileFareBotAndXMLClassicExports() throws {
        let card = Classic.fullCard()
        func fareBot(_ change: (inout [[String: Any]]) -> Void) throws -> Data {
            var object = Self.fareBot(card)
            var sectors = object["sectors"] as? [[String: Any]] ?? []
            change(&sectors)
            object["sectors"] = sectors
            return try json(object)
        }
        assertRefused(try fareBot { $0[2]["index"] = 40 }, "sector 40 is past a 4K's last sector")
        assertRefused(try fareBot { $0[2]["index"] = -1 }, "sector -1 is past a 4K's last sector")
        assertRefused(try fareBot { $0[2]["index"] = 1 }, "sector 1 is listed twice")
        assertRefused(try fareBot { $0[2]["type"] = "weird" }, "sector 2 of type")
        assertRefused(try fareBot { $0[2]["blocks"] = [["index": 0, "data": "AAEC"]] }, "sector 2, block 0: 3 bytes, not 16")
        assertRefused(try fareBot { $0[2]["blocks"] = [["index": 9, "data": Self.base64([UInt8](repeating: 0, count: 16))]] }, "block 9 is past the sector's 4 blocks")
        assertRefused(try fareBot { $0[2]["blocks"] = [["index": 3, "data": "o!bl s1=="]] }, "sector 2, block 3 is not base64")
        assertRefused(try fareBot { $0[2]["blocks"] = Array(repeating: ["index": 0, "data": ""], count: 5) }, "lists 5 blocks, more than its 4")
        assertRefused(try fareBot { $0[2]["index"] = nil }, "sector entry 2 has no index")
        assertRefused(try fareBot { $0[2]["blocks"] = "AAEC" }, "sector 2: blocks is not a list")

        let xml = Self.xml(card)
        assertRefused(Data(xml.replacingOccurrences(of: "<sector index=\"15\"", with: "<sector index=\"99\"").utf8), "sector 99 is past a 4K's last sector")
        assertRefused(Data(xml.replacingOccurrences(of: "<sector index=\"15\"", with: "<sector index=\"x\"").utf8), "<sector> without an index")
        assertRefused(Data(xml.replacingOccurrences(of: "<sector index=\"15\"", with: "<sector index=\"14\"").utf8), "sector 14 is listed twice")
        let key3 = Self.base64([0xB6, 0xC5, 0xD4, 0xE3, 0xF2, 0x03])
        assertRefused(Data(xml.replacingOccurrences(of: "key=\"\(key3)\"", with: "key=\"tsxU8w\"").utf8), "sector 3: key B of 4 bytes, not 6")
        assertRefused(Data(xml.replacingOccurrences(of: "key=\"\(key3)\"", with: "key=\"tsxu8!\"").utf8), "sector 3: its key is not base64")
        let many = "<card type=\"0\" id=\"1a2b3c4d\"><sectors>" + (0 ... 40).map { "<sector index=\"\($0)\" unauthorized=\"true\"/>" }.joined() + "</sectors></card>"
        assertRefused(Data(many.utf8), "of 41 sectors")
    }

    func testHostileUltralightExports() throws {
        let ok = Self.base64([0, 0, 0, 0])
        func fareBot(_ pages: [[String: Any]]) throws -> Data {
            try json(["cardType": "MifareUltralight", "tagId": Self.base64([4, 1, 2, 3, 4, 5, 6]), "scannedAt": 1, "pages": pages])
        }
        assertRefused(try fareBot([["index": 0, "data": ok], ["index": 1024, "data": ok]]), "page 1024 is past the largest card's end")
        assertRefused(try fareBot([["index": 0, "data": ok], ["index": 0, "data": ok]]), "page 0 is listed twice")
        assertRefused(try fareBot([["index": 0, "data": Self.base64([0, 0, 0])]]), "page 0: 3 bytes, not 4")
        assertRefused(try fareBot([["index": 0]]), "page entry 0 has no data")
        assertRefused(try fareBot(Array(repeating: ["data": ok], count: 1025)), "of 1025 pages")
        assertRefused(try fareBot([]), "no page was read")
        let metrodroid: [String: Any] = ["tagId": "04010203040506", "mifareUltralight": ["pages": [["data": "0000000"]]]]
        assertRefused(try json(metrodroid), "page 0 is an odd number of hex digits")
        assertRefused(try json(["tagId": "04010203040506", "mifareUltralight": ["pages": "0000"]]), "without a pages list")
        assertRefused(try json(["tagId": "0401", "mifareUltralight": ["pages": [["data": "00000000"]]]]), "neither a tag ID of 7 bytes")
        assertRefused(Data("<card type=\"1\" id=\"04010203040506\"><pages><page index=\"0\"/></pages></card>".utf8), "page 0 has no <data>")
    }
}

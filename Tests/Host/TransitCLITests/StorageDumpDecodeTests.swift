import CardSimulation
import Foundation
import TestSupport
import XCTest

/// Each MIFARE Classic and Ultralight sample written as the dumps users hold — a Flipper Zero
/// `.nfc` (NfcFileFormats.md, version 4), a Proxmark3 JSON (`mfc v2`, `mfu`: fileutils.c
/// prepareJSON), an MCT text dump and a raw `.mfd` image — read with `transit decode`: the same
/// values as the sample's own card image (issue 42, item 6). The files are written here from each
/// format's facts with the samples' own made-up card data and keys. And `transit dump` of a Classic
/// card writes an image that reads back to the same values.
final class StorageDumpDecodeTests: XCTestCase {
    static let classic = ["easycard.json", "charliecard.json", "troika-e3.json", "troika-e5.json", "podorozhnik.json", "podorozhnik-4k.json", "bilhete-unico.json"]
    static let ultralight = ["troika-ul.json", "troika-ul-a.json", "compass.json", "ventra.json", "hsl-ul.json"]
    var dir: URL!

    override func setUpWithError() throws {
        dir = temporaryDirectory()
        XCTAssertEqual(chmod(dir.path, 0o700), 0)
    }

    override func tearDown() { if let dir { try? FileManager.default.removeItem(at: dir) } }

    /// plugins.conf with key-digests for the families a made-up key cannot otherwise name (their
    /// digests by hashlib, as scripts/benchmark.py's STORAGE_DIGESTS gives them).
    private func conf() throws -> String {
        let digests = ["podorozhnik": "eb1db438b3662f3e4adede4120952d0a",
                       "charliecard": "58de1cd9312430aadce82eb222b534c9,9c502304a43d0a7bd258394288b37286"]
        let shipped = try String(contentsOf: BuildProducts.packageRoot.appendingPathComponent("plugins.conf"), encoding: .utf8)
        let text = shipped.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let name = line.split(separator: " ").first.map(String.init) ?? ""
            return digests[name].map { "\(line) key-digests=\($0)" } ?? String(line)
        }.joined(separator: "\n")
        let path = dir.appendingPathComponent("plugins.conf").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// What a user compares between two reads of one card.
    private func summary(_ card: Any?) -> String {
        guard let json = card as? [String: Any] else { return "nothing" }
        let keys = ["family", "cardName", "serialNumber", "balance", "currency", "transactions", "passes"]
        let picked = Dictionary(uniqueKeysWithValues: keys.compactMap { k in json[k].map { (k, $0) } })
        return String(decoding: (try? JSONSerialization.data(withJSONObject: picked, options: [.sortedKeys])) ?? Data(), as: UTF8.self)
    }

    private func decode(_ paths: [String], config: String) throws -> [String] {
        let run = try CommandRun.transit(["decode", "--config", config] + paths)
        XCTAssertEqual(run.status, 0, "\(run.stderr) \(run.stdout) \(paths)")
        return run.stdout.split(separator: "\n").map { line in
            summary((try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["card"])
        }
    }

    /// Bytes written as Flipper writes them: upper-case hex pairs separated by spaces.
    private func spaced(_ hex: String) -> String {
        let digits = Array(hex.replacingOccurrences(of: " ", with: ""))
        return stride(from: 0, to: digits.count, by: 2).map { String(digits[$0 ..< min($0 + 2, digits.count)]) }.joined(separator: " ")
    }

    private func flipper(_ c: CardImage.ClassicImage) -> String {
        var text = """
        Filetype: Flipper NFC device
        Version: 4
        # Device type can be ISO14443-3A, ISO14443-3B, ISO14443-4A, ISO14443-4B, ISO15693-3, FeliCa, NTAG/Ultralight, Mifare Classic, Mifare DESFire, SLIX, ST25TB
        Device type: Mifare Classic
        # UID is common for all formats
        UID: \(spaced(c.uid))
        # ISO14443-3A specific data
        ATQA: 00 04
        SAK: 08
        # Mifare Classic specific data
        Mifare Classic type: \(c.type)
        Data format version: 2
        # Mifare Classic blocks, '??' means unknown data

        """
        for (n, block) in c.blocks.enumerated() { text += "Block \(n): \(spaced(block))\n" }
        return text
    }

    private func flipper(_ u: CardImage.UltralightImage) -> String {
        var text = """
        Filetype: Flipper NFC device
        Version: 4
        Device type: NTAG/Ultralight
        UID: \(spaced(u.uid))
        ATQA: 00 44
        SAK: 00
        # Mifare Ultralight specific data
        Data format version: 2
        NTAG/Ultralight type: Mifare Ultralight
        Signature: \(spaced(String(repeating: "00", count: 32)))
        Mifare version: 00 00 00 00 00 00 00 00
        Counter 0: 0
        Tearing 0: 00
        Counter 1: 0
        Tearing 1: 00
        Counter 2: 0
        Tearing 2: 00
        Pages total: \(u.pages.count)
        Pages read: \(u.pages.count)

        """
        for (n, page) in u.pages.enumerated() { text += "Page \(n): \(spaced(page))\n" }
        return text
    }

    private func proxmark(_ c: CardImage.ClassicImage) throws -> Data {
        var blocks = [String: String]()
        for (n, b) in c.blocks.enumerated() { blocks[String(n)] = b.replacingOccurrences(of: " ", with: "") }
        return try JSONSerialization.data(withJSONObject: ["Created": "proxmark3", "FileType": "mfc v2",
                                                           "Card": ["UID": c.uid, "ATQA": "0400", "SAK": "08"], "blocks": blocks])
    }

    private func proxmark(_ u: CardImage.UltralightImage) throws -> Data {
        var blocks = [String: String]()
        for (n, p) in u.pages.enumerated() { blocks[String(n)] = p }
        return try JSONSerialization.data(withJSONObject: ["Created": "proxmark3", "FileType": "mfu",
                                                           "Card": ["UID": u.uid, "Version": "0004030101000B03", "TBO_0": "0000", "TBO_1": "00",
                                                                    "Signature": String(repeating: "00", count: 32), "Counter0": "000000",
                                                                    "Tearing0": "00", "Counter1": "000000", "Tearing1": "00",
                                                                    "Counter2": "000000", "Tearing2": "00"],
                                                           "blocks": blocks])
    }

    /// MCT: `+Sector: N` then the sector's blocks, 32 hex digits each (Metrodroid MctCardImporter).
    private func mct(_ c: CardImage.ClassicImage) -> String {
        var text = "", block = 0, sector = 0
        while block < c.blocks.count {
            let size = sector < 32 ? 4 : 16
            text += "+Sector: \(sector)\n"
            for b in c.blocks[block ..< min(block + size, c.blocks.count)] { text += b.replacingOccurrences(of: " ", with: "").uppercased() + "\n" }
            block += size
            sector += 1
        }
        return text
    }

    func testEachClassicSampleReadsTheSameFromItsFlipperProxmarkMCTAndRawDumps() throws {
        let config = try conf()
        for name in Self.classic {
            let image = try CardImages.sample(name)
            let c = try XCTUnwrap(image.mifareClassic, name)
            let base = dir.appendingPathComponent(String(name.dropLast(5)))
            let nfc = base.appendingPathExtension("nfc").path, json = base.path + ".proxmark.json"
            let mctPath = base.path + ".mct.txt", raw = base.appendingPathExtension("mfd").path
            try flipper(c).write(toFile: nfc, atomically: true, encoding: .utf8)
            try proxmark(c).write(to: URL(fileURLWithPath: json))
            try mct(c).write(toFile: mctPath, atomically: true, encoding: .utf8)
            let bytes = c.blocks.flatMap { HexBytes.parse($0) }
            XCTAssertEqual(bytes.count, 16 * c.blocks.count, "\(name): every byte known")
            try Data(bytes).write(to: URL(fileURLWithPath: raw))
            let readings = try decode([BuildProducts.sample(name), nfc, json, mctPath, raw], config: config)
            XCTAssertEqual(readings.count, 5, name)
            XCTAssertNotEqual(readings.first, "nothing", "\(name) reads")
            for (format, reading) in zip(["Flipper", "Proxmark3", "MCT", "raw"], readings.dropFirst()) {
                XCTAssertEqual(reading, readings.first, "\(name) from its \(format) dump")
            }
        }
    }

    /// A Flipper dump of a card whose keys B it never found (the commonest Flipper dump: "'??' means
    /// unknown data", NfcFileFormats.md): each trailer's key B written `??`. The keys A open the
    /// same sectors, so the values are the image's.
    func testEachClassicSampleReadsTheSameFromAFlipperDumpWithItsKeysBUnknown() throws {
        let config = try conf()
        for name in Self.classic {
            var c = try XCTUnwrap(try CardImages.sample(name).mifareClassic, name)
            var block = 0, sector = 0
            while block < c.blocks.count {
                let trailer = block + (sector < 32 ? 4 : 16) - 1
                if trailer < c.blocks.count {
                    let hex = c.blocks[trailer].replacingOccurrences(of: " ", with: "")
                    c.blocks[trailer] = String(hex.prefix(20)) + String(repeating: "?", count: 12)
                }
                block = trailer + 1
                sector += 1
            }
            let nfc = dir.appendingPathComponent(String(name.dropLast(5)) + "-no-key-b.nfc").path
            let text = flipper(c)
            XCTAssertTrue(text.contains("?? ?? ?? ?? ?? ??\n"), "\(name): a key B written unknown")
            try text.write(toFile: nfc, atomically: true, encoding: .utf8)
            let readings = try decode([BuildProducts.sample(name), nfc], config: config)
            XCTAssertEqual(readings.count, 2, name)
            XCTAssertNotEqual(readings.first, "nothing", "\(name) reads")
            XCTAssertEqual(readings.last, readings.first, "\(name) from a Flipper dump without its keys B")
        }
    }

    func testEachUltralightSampleReadsTheSameFromItsFlipperAndProxmarkDumps() throws {
        let config = try conf()
        for name in Self.ultralight {
            let u = try XCTUnwrap(try CardImages.sample(name).mifareUltralight, name)
            let base = dir.appendingPathComponent(String(name.dropLast(5)))
            let nfc = base.appendingPathExtension("nfc").path, json = base.path + ".proxmark.json"
            try flipper(u).write(toFile: nfc, atomically: true, encoding: .utf8)
            try proxmark(u).write(to: URL(fileURLWithPath: json))
            let readings = try decode([BuildProducts.sample(name), nfc, json], config: config)
            XCTAssertEqual(readings.count, 3, name)
            XCTAssertNotEqual(readings.first, "nothing", "\(name) reads")
            XCTAssertEqual(readings[1], readings[0], "\(name) from its Flipper dump")
            XCTAssertEqual(readings[2], readings[0], "\(name) from its Proxmark3 dump")
        }
    }

    /// The same samples as Metrodroid, FareBot and the old XML export them (ExportTexts, from each
    /// format's facts): trailers as the phone read them (key A hidden, zeros), and the key that opened
    /// each sector where the format keeps one (Metrodroid's `keyA`; the XML's `key`, B in odd
    /// sectors). FareBot keeps no key, so a family named only by its key's digest (podorozhnik,
    /// charliecard) cannot be told from its export, as FareBot itself cannot.
    func testEachSampleReadsTheSameFromItsMetrodroidFareBotAndXMLExports() throws {
        let config = try conf()
        let byKeyDigest: Set = ["podorozhnik.json", "podorozhnik-4k.json", "charliecard.json"]
        for name in Self.classic + Self.ultralight {
            let image = try CardImages.sample(name)
            let base = dir.appendingPathComponent(String(name.dropLast(5))).path
            var forms = [("Metrodroid", base + ".metrodroid.json", try ExportTexts.metrodroid(image)),
                         ("XML", base + ".xml", Data(ExportTexts.xml([image]).utf8))]
            if !byKeyDigest.contains(name) { forms.append(("FareBot", base + ".farebot.json", try ExportTexts.fareBot([image]))) }
            for (_, path, data) in forms { try data.write(to: URL(fileURLWithPath: path)) }
            let readings = try decode([BuildProducts.sample(name)] + forms.map(\.1), config: config)
            XCTAssertEqual(readings.count, forms.count + 1, name)
            XCTAssertNotEqual(readings.first, "nothing", "\(name) reads")
            for (form, reading) in zip(forms, readings.dropFirst()) {
                XCTAssertEqual(reading, readings.first, "\(name) from its \(form.0) export")
            }
        }
    }

    /// The keys a Metrodroid or XML export keeps open its sectors, and are shown nowhere.
    func testTheKeysOfAnExportAreNeitherPrintedNorLogged() throws {
        let config = try conf()
        let name = "troika-e5.json"
        let image = try CardImages.sample(name)
        let path = dir.appendingPathComponent("troika.metrodroid.json").path
        try ExportTexts.metrodroid(image).write(to: URL(fileURLWithPath: path))
        let runs = [try CommandRun.transit(["decode", "--config", config, path]),
                    try CommandRun.transit(["scan", "--json", "--no-save", "--verbose", "--config", config, "--card", path])]
        for run in runs {
            XCTAssertEqual(run.status, 0, run.stderr)
            let shown = (run.stdout + run.stderr).uppercased()
            for s in ExportTexts.classicSectors(try XCTUnwrap(image.mifareClassic)) {
                for key in [s.keyA, s.keyB] where key != "FFFFFFFFFFFF" && key != "000000000000" {
                    XCTAssertFalse(shown.contains(key), "sector \(s.index)'s key shown")
                }
            }
        }
    }

    func testADumpOfAClassicCardReadsBackToTheSameValuesAndShowsNoKeyOnStandardOutput() throws {
        let config = try conf()
        let name = "troika-e5.json"
        let out = dir.appendingPathComponent("dumped.json").path
        let dump = try CommandRun.transit(["dump", "--card", BuildProducts.sample(name), "--out", out, "--config", config])
        XCTAssertEqual(dump.status, 0, dump.stderr)
        let readings = try decode([BuildProducts.sample(name), out], config: config)
        XCTAssertEqual(readings.count, 2)
        XCTAssertEqual(readings[1], readings[0], "the dump reads as the card")
        // On standard output the trailers carry no key.
        let stdout = try CommandRun.transit(["dump", "--card", BuildProducts.sample(name), "--out", "-", "--config", config])
        XCTAssertEqual(stdout.status, 0, stdout.stderr)
        let image = try CardImage.load(BuildProducts.sample(name))
        for (n, block) in (image.mifareClassic?.blocks ?? []).enumerated() where n % 4 == 3 {
            let t = block.replacingOccurrences(of: " ", with: "").uppercased()
            for key in [String(t.prefix(12)), String(t.suffix(12))] where !key.contains("?") && key != "FFFFFFFFFFFF" && key != "000000000000" {
                XCTAssertFalse(stdout.stdout.uppercased().contains(key), "sector \(n / 4)'s key on standard output")
            }
        }
    }
}

/// Hex of a sample's block, "??" refused (a sample knows every byte).
private enum HexBytes {
    static func parse(_ hex: String) -> [UInt8] {
        let digits = Array(hex.replacingOccurrences(of: " ", with: "").utf8)
        guard digits.count % 2 == 0 else { return [] }
        return stride(from: 0, to: digits.count, by: 2).compactMap { UInt8(String(decoding: digits[$0 ..< $0 + 2], as: UTF8.self), radix: 16) }
    }
}

/// A MIFARE Classic or Ultralight reading goes where every other card's goes (issue 42, item 8):
/// the archive keeps it, `cards` and `history` show it, `export` writes it; and no key of the card
/// is stored in the archive.
final class StorageArchiveTests: XCTestCase {
    var fixture: ArchiveFixture!

    override func setUpWithError() throws {
        fixture = ArchiveFixture()
        try FileManager.default.createDirectory(at: fixture.directory, withIntermediateDirectories: true)
    }

    override func tearDown() { fixture.remove() }

    func testAClassicAndAnUltralightReadingAreKeptShownAndExportedWithoutAKey() throws {
        for name in ["troika-e5.json", "compass.json"] {
            let scan = try fixture.scan(BuildProducts.sample(name), ["--json"])
            XCTAssertEqual(scan.status, 0, "\(name): \(scan.stderr)")
        }
        let cards = try fixture.transit(["cards", "--json"])
        XCTAssertEqual(cards.status, 0, cards.stderr)
        let listed = (try? JSONSerialization.jsonObject(with: Data(cards.stdout.utf8))) as? [[String: Any]] ?? []
        XCTAssertEqual(Set(listed.compactMap { $0["family"] as? String }), ["troika", "compass"], cards.stdout)
        XCTAssertFalse(try fixture.history().isEmpty, "the records are in the history")
        let export = try fixture.transit(["export", "--format", "csv"])
        XCTAssertEqual(export.status, 0, export.stderr)
        XCTAssertTrue(export.stdout.contains("RUB"), export.stdout)
        // The month's report: troika-e5.json's three trips of 2026-11-20 and its top-up of 11-18, in
        // Moscow time as the card keeps it (scripts/make_troika_samples.py), and Compass's tap on.
        let report = try fixture.transit(["report", "--month", "2026-11", "--format", "json"])
        XCTAssertEqual(report.status, 0, report.stderr)
        let months = (try? JSONSerialization.jsonObject(with: Data(report.stdout.utf8))) as? [[String: Any]] ?? []
        let byFamily = Dictionary(months.compactMap { m in ((m["card"] as? [String: Any])?["family"] as? String).map { ($0, m) } }) { a, _ in a }
        let troika = byFamily["troika"]?["rows"] as? [[String: Any]] ?? []
        XCTAssertEqual(troika.map { "\($0["date"] ?? "") \($0["time"] ?? "") \($0["type"] ?? "")" },
                       ["2026-11-18 19:05:00 topup", "2026-11-20 18:30:00 trip", "2026-11-20 18:42:00 trip", "2026-11-20 19:10:00 trip"], report.stdout)
        XCTAssertEqual((byFamily["troika"]?["totals"] as? [String: Any])?["trips"] as? Int, 3)
        XCTAssertEqual((byFamily["compass"]?["totals"] as? [String: Any])?["trips"] as? Int, 1, report.stdout)
        // The sample's trailer keys (made up) are nowhere in the archive's file.
        let archive = try Data(contentsOf: URL(fileURLWithPath: fixture.database))
        let image = try CardImages.sample("troika-e5.json")
        for (n, block) in (image.mifareClassic?.blocks ?? []).enumerated() where n % 4 == 3 {
            let t = block.replacingOccurrences(of: " ", with: "").uppercased()
            for key in [String(t.prefix(12)), String(t.suffix(12))] where !key.contains("?") {
                let bytes = stride(from: 0, to: 12, by: 2).compactMap { UInt8(key.dropFirst($0).prefix(2), radix: 16) }
                XCTAssertNil(archive.range(of: Data(bytes)), "sector \(n / 4)'s key bytes in the archive")
                XCTAssertNil(archive.range(of: Data(key.utf8)), "sector \(n / 4)'s key in hex in the archive")
            }
        }
    }
}

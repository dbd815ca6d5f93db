import CardSimulation
import Foundation
import TestSupport
import XCTest

/// Every card file users hold, written from the formats' facts with the project's sample cards:
/// each form reads, through the built `transit`, to byte for byte what the sample itself reads to.
final class CardFileFormatTests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    func write(_ data: Data, _ name: String) throws -> String {
        let url = dir.appendingPathComponent(name)
        try data.write(to: url)
        return url.path
    }

    func scan(_ path: String, _ extra: [String] = []) throws -> CommandRun {
        try CommandRun.transit(["scan", "--json", "--no-save", "--card", path] + extra)
    }

    func testEveryFormOfAFeliCaCardReadsAsTheCardItself() throws {
        for sample in ["suica.json", "octopus.json", "edy.json", "nanaco.json"] {
            let image = try CardImages.sample(sample)
            let expected = try scan(BuildProducts.sample(sample))
            XCTAssertEqual(expected.status, 0, expected.stderr)
            let forms: [(String, Data)] = [
                ("metrodroid-blocksMap.json", try ExportTexts.metrodroid(image)),
                ("metrodroid-blocks.json", try ExportTexts.metrodroid(image, blocksMap: false)),
                ("export.xml", Data(ExportTexts.xml([image]).utf8)),
                ("farebot.json", try ExportTexts.fareBot([image])),
                ("farebot-gson.json", try ExportTexts.fareBot([image], gson: true)),
                ("flipper-key-versions.nfc", Data(DumpTexts.flipper(image, keyVersions: true).utf8)),
            ]
            for (name, data) in forms {
                let run = try scan(try write(data, "\(sample)-\(name)"))
                XCTAssertEqual(run.status, 0, "\(sample) as \(name): \(run.stdout) \(run.stderr)")
                if name == "export.xml" {
                    // The old XML keeps no locked services, so the issuer's marker is lost: the card
                    // is "Japan IC", and the rest is the same.
                    XCTAssertEqual(try unnamed(run.stdout), try unnamed(expected.stdout), "\(sample) as \(name)")
                } else {
                    XCTAssertEqual(run.stdout, expected.stdout, "\(sample) as \(name)")
                }
            }
        }
    }

    /// A reading's JSON without what the issuer's name adds (cardName and its metadata).
    func unnamed(_ json: String) throws -> NSDictionary {
        var object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        if object["family"] as? String == "japan-ic" {
            object["cardName"] = nil
            var metadata = object["metadata"] as? [String: Any] ?? [:]
            metadata["issuerMarkers"] = nil
            metadata["medium"] = nil
            object["metadata"] = metadata
        }
        return object as NSDictionary
    }

    func testEveryFormOfAnISOCardReadsAsTheCardItself() throws {
        let forms: [(sample: String, xml: Bool, fareBot: Bool)] = [("ezlink.json", true, true), ("tmoney.json", true, false), ("tunion.json", true, false)]
        for (sample, xml, fareBot) in forms {
            let image = try CardImages.sample(sample)
            let expected = try scan(BuildProducts.sample(sample))
            XCTAssertEqual(expected.status, 0, expected.stderr)
            var files = [("metrodroid.json", try ExportTexts.metrodroid(image))]
            if xml { files.append(("export.xml", Data(ExportTexts.xml([image]).utf8))) }
            if fareBot { files.append(("farebot.json", try ExportTexts.fareBot([image]))) }
            for (name, data) in files {
                let run = try scan(try write(data, "\(sample)-\(name)"))
                XCTAssertEqual(run.status, 0, "\(sample) as \(name): \(run.stdout) \(run.stderr)")
                XCTAssertEqual(run.stdout, expected.stdout, "\(sample) as \(name)")
            }
        }
    }

    /// A zip of three card files and a README, as Metrodroid's "export all" writes it.
    func threeCardZip() throws -> String {
        let path = dir.appendingPathComponent("Metrodroid-Export.zip").path
        try ExportTexts.zip([
            ("Metrodroid-012e4cd8a1b2c3d4-20261101-000000.json", try ExportTexts.metrodroid(try CardImages.sample("suica.json"))),
            ("Metrodroid-deadbeef-20261102-000000.json", try JSONSerialization.data(withJSONObject: ExportTexts.metrodroidClassic)),
            ("Metrodroid-04c1c2c3c4c5c6-20261103-000000.xml", Data(ExportTexts.xml([try CardImages.sample("tmoney.json")]).utf8)),
            ("README.txt", Data("Exported by Metrodroid\n".utf8)),
        ], to: path)
        return path
    }

    func lines(_ run: CommandRun) -> [[String: Any]] {
        run.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    func testAZipOfThreeCardsDecodesOneLineACard() throws {
        let zip = try threeCardZip()
        let run = try CommandRun.transit(["decode", zip])
        let out = lines(run)
        XCTAssertEqual(out.count, 3, run.stdout)
        XCTAssertEqual(out.map { $0["index"] as? Int }, [1, 2, 3])
        XCTAssertEqual(out.map { $0["file"] as? String }, [zip, zip, zip])
        XCTAssertEqual((out[0]["card"] as? [String: Any])?["balance"] as? Int, 2010)
        let classic = out[1]["error"] as? [String: Any]
        XCTAssertEqual(classic?["kind"] as? String, "tagNotSupported")
        // The Classic card is read (issue 42), but no key opens its locked sectors, so no family is named.
        XCTAssertTrue((classic?["message"] as? String)?.contains("sectors are locked") == true, "\(String(describing: classic))")
        XCTAssertEqual((out[2]["card"] as? [String: Any])?["balance"] as? Int, 10000)
        XCTAssertEqual(run.status, 4, "the first failure's exit code")
    }

    func testScanOfAFileOfSeveralCardsAsksForOne() throws {
        let zip = try threeCardZip()
        let none = try scan(zip)
        XCTAssertEqual(none.status, 2, none.stdout)
        let message = (none.json?["error"] as? [String: Any])?["message"] as? String ?? ""
        XCTAssertTrue(message.contains("holds 3 cards") && message.contains("--index N"), message)
        XCTAssertTrue(message.contains("1 FeliCa 012E4CD8A1B2C3D4") && message.contains("2 MIFARE Classic Mini DEADBEEF"), message)
        XCTAssertEqual(try scan(zip, ["--index", "3"]).json?["balance"] as? Int, 10000)
        let classic = try scan(zip, ["--index", "2"])
        XCTAssertEqual(classic.status, 4, classic.stdout)
        XCTAssertEqual(try scan(zip, ["--index", "9"]).status, 2)
        XCTAssertEqual(try CommandRun.transit(["scan", "--json", "--index", "1"]).status, 2, "--index without --card")
    }

    func testAFareBotExportOfAFeliCaAndAnISOCardDecodesBoth() throws {
        for gson in [false, true] {
            let export = try write(try ExportTexts.fareBot([try CardImages.sample("suica.json"), try CardImages.sample("ezlink.json")],
                                                           classic: true, gson: gson), "farebot-\(gson).json")
            let out = lines(try CommandRun.transit(["decode", export]))
            XCTAssertEqual(out.count, 3, "gson \(gson)")
            XCTAssertEqual((out.first?["card"] as? [String: Any])?["family"] as? String, "japan-ic")
            XCTAssertEqual((out[1]["error"] as? [String: Any])?["kind"] as? String, "tagNotSupported")
            XCTAssertEqual((out.last?["card"] as? [String: Any])?["family"] as? String, "cepas")
            XCTAssertEqual((out.last?["card"] as? [String: Any])?["balance"] as? Int, 897)
        }
    }

    func testAFileProblemIsNeverACardFault() throws {
        // A Metrodroid export whose balance service holds no block: the file's problem, named.
        var suica = ExportTexts.metrodroidObject(try CardImages.sample("suica.json"))
        var felica = suica["felica"] as? [String: Any] ?? [:]
        var systems = felica["systems"] as? [String: Any] ?? [:]
        var system = systems["3"] as? [String: Any] ?? [:]
        var services = system["services"] as? [String: Any] ?? [:]
        services["139"] = ["blocksMap": [:] as [String: Any]] // 008B
        system["services"] = services; systems["3"] = system; felica["systems"] = systems; suica["felica"] = felica
        let empty = try write(try JSONSerialization.data(withJSONObject: suica), "empty-balance.json")
        let run = try scan(empty)
        XCTAssertEqual(run.status, 2, run.stdout)
        let error = run.json?["error"] as? [String: Any]
        XCTAssertEqual(error?["kind"] as? String, "config")
        XCTAssertTrue((error?["message"] as? String)?.hasPrefix(empty) == true, "\(String(describing: error))")
        // What a file that is an export of nothing transit reads says.
        let nothing = try write(Data(#"{"tagId": "01020304", "scannedAt": {"timeInMillis": 1, "tz": "LOCAL"}, "cepasCompat": {}}"#.utf8), "old.json")
        let old = try scan(nothing)
        XCTAssertEqual(old.status, 2)
        XCTAssertTrue(((old.json?["error"] as? [String: Any])?["message"] as? String)?.contains("values read from the card, not its answers") == true, old.stdout)
    }

    func testXMLThatWouldTrapFoundationsParserIsRefusedBeforeIt() {
        // FoundationXML traps on an element or namespace name that is not UTF-8: such a file, and one
        // in another declared encoding or with a document type, never reaches it.
        for bytes: [UInt8] in [Array("<card xmlns:".utf8) + [0xFF] + Array("=\"x\"/>".utf8), Array("<c".utf8) + [0xFF] + Array("d/>".utf8),
                               Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><card type=\"4\"/>".utf8),
                               Array("<!DOCTYPE card [<!ENTITY a \"aaaa\">]><card/>".utf8), Array("<card>\u{0}</card>".utf8)] {
            XCTAssertThrowsError(try CardImage.parse(Data(bytes)), String(decoding: bytes, as: UTF8.self)) {
                XCTAssertTrue($0 is CardImageError, "\($0)")
            }
        }
    }

    func testHostileZipsAreRefusedQuicklyNamingTheFile() throws {
        let bomb = dir.appendingPathComponent("bomb.zip").path
        try ExportTexts.zipBomb(megabytes: 64, to: bomb)
        let many = dir.appendingPathComponent("many.zip").path
        try ExportTexts.zip((0 ..< 150).map { ("card-\($0).json", Data("{}".utf8)) }, to: many)
        let nested = dir.appendingPathComponent("nested.zip").path
        try ExportTexts.zip([("inner.zip", try Data(contentsOf: URL(fileURLWithPath: many)))], to: nested)
        var damaged = try Data(contentsOf: URL(fileURLWithPath: try threeCardZip()))
        damaged.replaceSubrange(100 ..< 400, with: Data(repeating: 0x55, count: 300))
        let broken = try write(damaged, "broken.zip")
        for (path, said) in [(bomb, "past the"), (many, "150 members"), (nested, "archives inside archives"), (broken, "damaged")] {
            let started = Date()
            let run = try scan(path)
            XCTAssertLessThan(Date().timeIntervalSince(started), 5, path)
            XCTAssertEqual(run.status, 2, "\(path): \(run.stdout)")
            let message = (run.json?["error"] as? [String: Any])?["message"] as? String ?? ""
            XCTAssertTrue(message.hasPrefix(path) && message.contains(said), "\(path): \(message)")
        }
    }

    /// Central directory headers (APPNOTE.TXT 4.3.12: signature 50 4B 01 02, the compressed size
    /// at +20, the local header's offset at +42) that point at one member's bytes would have those
    /// bytes read, checked and inflated once a header; sizes that add up to more than the file
    /// cannot be the members'. Either zip is refused before any member is inflated.
    func testZipMembersSharingTheirBytesAreRefused() throws {
        let card = try Data(contentsOf: URL(fileURLWithPath: BuildProducts.sample("suica.json")))
        /// A zip of `members` written by Python's zipfile, then its central directory headers patched.
        func patched(_ name: String, _ members: [(String, Data)], _ patch: (_ header: Int, _ index: Int, inout [UInt8]) -> Void) throws -> String {
            let path = dir.appendingPathComponent(name).path
            try ExportTexts.zip(members.map { (name: $0.0, data: $0.1) }, to: path)
            XCTAssertEqual(try scan(path, ["--index", "1"]).status, 0, "as written, \(name) reads")
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let headers = (0 ..< bytes.count - 4).filter { bytes[$0 ..< $0 + 4].elementsEqual([0x50, 0x4B, 0x01, 0x02]) }
            XCTAssertEqual(headers.count, members.count)
            for (i, h) in headers.enumerated() { patch(h, i, &bytes) }
            return try write(Data(bytes), "patched-" + name)
        }
        let atTheFirst: (Int, Int, inout [UInt8]) -> Void = { h, _, b in b.replaceSubrange(h + 42 ..< h + 46, with: [0, 0, 0, 0]) }
        let cases = [
            (try patched("two.zip", [("a.json", card), ("b.json", card)], atTheFirst), "members a.json and b.json share their bytes"),
            (try patched("hundred.zip", (0 ..< 100).map { ("card-\($0).json", card) }, atTheFirst), "share their bytes"),
            // A member transit does not read, said to be 2 GB compressed.
            (try patched("sizes.zip", [("card.json", card), ("notes.txt", Data("notes".utf8))]) { h, i, b in
                if i == 1 { b.replaceSubrange(h + 20 ..< h + 24, with: [0, 0, 0xFF, 0x7F]) }
            }, "compressed sizes add up to more than the file"),
        ]
        for (path, said) in cases {
            let started = Date()
            let run = try scan(path, ["--index", "1"])
            XCTAssertLessThan(Date().timeIntervalSince(started), 5, path)
            XCTAssertEqual(run.status, 2, "\(path): \(run.stdout)")
            let message = (run.json?["error"] as? [String: Any])?["message"] as? String ?? ""
            XCTAssertTrue(message.hasPrefix(path) && message.contains("a damaged zip") && message.contains(said), "\(path): \(message)")
        }
    }
}

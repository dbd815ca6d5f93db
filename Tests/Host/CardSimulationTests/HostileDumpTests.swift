import CardSimulation
import Foundation
import TestSupport
import XCTest

/// Card files built to stop `transit`: no card at all, cards past the limit, XML nested or
/// attributed past reason, entities and encodings that walk around a byte search, values made to
/// be echoed whole. Each is generated here, run through the built `transit` (and `transit-sim`)
/// under GNU time, and must end with the stated message: no trap, at most 10 s of CPU (30 s on
/// the clock: nothing waits) and 512 MB.
final class HostileDumpTests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    func write(_ name: String, _ text: String) -> String {
        XCTAssertTrue(FileManager.default.createFile(atPath: path(name), contents: Data(text.utf8)))
        return path(name)
    }

    /// A run and what it cost: wall seconds (GNU time's %e), CPU seconds, user and system (%U + %S: a
    /// machine busy with other work stretches the wall time, not these), and peak resident memory (%M).
    struct Measured {
        let run: CommandRun
        var wall: Double = .infinity
        let seconds: Double
        let megabytes: Double
    }

    func measured(_ executable: String, _ arguments: [String]) throws -> Measured {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else { throw XCTSkip("GNU time is not installed") }
        let costs = path("time-\(UUID().uuidString)")
        let run = try CommandRun.run("/usr/bin/time", ["-f", "%e %U %S %M", "-o", costs, executable] + arguments,
                                     currentDirectory: BuildProducts.packageRoot, timeout: 60)
        let figures = ((try? String(contentsOfFile: costs, encoding: .utf8)) ?? "").split(whereSeparator: \.isNewline).last?
            .split(separator: " ").compactMap { Double($0) } ?? []
        guard figures.count == 4 else { return Measured(run: run, seconds: .infinity, megabytes: .infinity) }
        return Measured(run: run, wall: figures[0], seconds: figures[1] + figures[2], megabytes: figures[3] / 1024)
    }

    /// `transit ARGUMENTS`, checked to have ended by itself within the limits.
    @discardableResult
    func transit(_ arguments: [String], line: UInt = #line) throws -> CommandRun {
        let m = try measured(BuildProducts.transit, arguments)
        XCTAssertFalse(m.run.crashed || m.run.stderr.contains("Fatal error"), "transit trapped: \(m.run.stderr.prefix(600))", line: line)
        XCTAssertLessThanOrEqual(m.seconds, 10, "transit \(arguments.prefix(3)) took \(m.seconds) s of CPU", line: line)
        XCTAssertLessThanOrEqual(m.wall, 30, "transit \(arguments.prefix(3)) ran \(m.wall) s", line: line)
        XCTAssertLessThanOrEqual(m.megabytes, 512, "transit \(arguments.prefix(3)) used \(m.megabytes) MB", line: line)
        return m.run
    }

    /// decode's one line for the file: exit 2, `config`, a message that names the file and says `words`.
    func assertRefused(_ file: String, _ words: String, line: UInt = #line) throws {
        let run = try transit(["decode", file], line: line)
        XCTAssertEqual(run.status, 2, run.stdout, line: line)
        let error = run.json?["error"] as? [String: Any]
        XCTAssertEqual(error?["kind"] as? String, "config", run.stdout.prefix(400) + "", line: line)
        let message = error?["message"] as? String ?? ""
        XCTAssertTrue(message.contains(file) && message.contains(words), "\(message.prefix(400)) lacks \(words)", line: line)
        XCTAssertLessThan(run.stdout.utf8.count + run.stderr.utf8.count, 2_000, "the error echoes the file", line: line)
    }

    func testFilesThatHoldNoCardSaySoAndNoCommandTraps() throws {
        let files = [write("empty-list.json", "[]"), write("empty-export.json", #"{"cards":[],"versionCode":31}"#),
                     write("empty.xml", "<cards/>"), write("empty-declared.xml", #"<?xml version="1.0"?><cards></cards>"#)]
        for file in files {
            try assertRefused(file, "holds no card")
            for args in [["scan", "--card", file, "--index", "1", "--json", "--no-save"],
                         ["dump", "--card", file, "--index", "1", "--out", path("out.json")]] {
                let run = try transit(args)
                XCTAssertEqual(run.status, 2, "\(args): \(run.stderr)")
                XCTAssertTrue(run.stderr.contains("holds no card"), run.stderr)
            }
            let sim = try measured(BuildProducts.simulator, ["--card", file, "--index", "1", "--port", "1"])
            XCTAssertFalse(sim.run.crashed, "transit-sim trapped on \(file): \(sim.run.stderr.prefix(400))")
            XCTAssertEqual(sim.run.status, 2, sim.run.stderr)
            XCTAssertTrue(sim.run.stderr.contains("holds no card"), sim.run.stderr)
        }
    }

    func testAnIndexPastTheCardsSaysHowManyTheFileHolds() throws {
        let two = write("two.json", #"[{"cardType":"MifareClassic"},{"cardType":"MifareUltralight"}]"#)
        for index in ["3", "99"] {
            let run = try transit(["scan", "--card", two, "--index", index, "--json", "--no-save"])
            XCTAssertEqual(run.status, 2, run.stderr)
            XCTAssertTrue(run.stderr.contains("holds 2 cards: there is no card \(index)"), run.stderr)
        }
    }

    func testAFileOfMoreCardsThanALimitIsRefusedBeforeAnyIsParsed() throws {
        // 63,548 cards in under 4 MiB, as the attack that took 80 s.
        let list = write("many.json", "[" + Array(repeating: #"{"cardType":"FeliCa","idm":"AQIDBAUGBwg="}"#, count: 63_548).joined(separator: ",") + "]")
        try assertRefused(list, "a file of 63548 cards: transit reads files of at most \(CardFile.maxCards)")
        let xml = write("many.xml", "<cards>" + String(repeating: #"<card type="0"/>"#, count: 101) + "</cards>")
        try assertRefused(xml, "a file of 101 cards")
    }

    func testXMLNestedPastItsDepthIsRefusedWithoutOverflowingTheStack() throws {
        for depth in [20_000, 100_000] {
            let deep = write("deep-\(depth).xml", #"<card type="4" id="0102030405060708">"# + String(repeating: "<a>", count: depth)
                             + String(repeating: "</a>", count: depth) + "</card>")
            try assertRefused(deep, "elements nested more than 64 deep")
        }
        // The same in an 1-KB zip.
        let member = Data((#"<card type="4" id="0102030405060708">"# + String(repeating: "<a>", count: 20_000)
                           + String(repeating: "</a>", count: 20_000) + "</card>").utf8)
        let zip = path("deep.zip")
        try ExportTexts.zip([("Metrodroid-deep.xml", member)], to: zip)
        let run = try transit(["decode", zip])
        XCTAssertEqual(run.status, 2, run.stdout)
        XCTAssertTrue(run.stdout.contains("elements nested more than 64 deep"), run.stdout)
    }

    func testNestedExportElementsAreReadInTimeLinearInTheFile() throws {
        // Systems and services nested as deep as allowed, over and over, to 4 MiB: a reader that walks
        // every subtree at every level would take minutes.
        let one = String(repeating: #"<system code="3"><service code="139">"#, count: 30) + #"<block address="0">AAAAAAAAAAAAAAAAAAAAAA==</block>"#
            + String(repeating: "</service></system>", count: 30)
        let body = String(repeating: one, count: (4 << 20) / one.utf8.count - 1)
        let file = write("nested.xml", #"<card type="4" id="0102030405060708">"# + body + "</card>")
        let run = try transit(["decode", file])
        XCTAssertNotEqual(run.status, 0, "no family reads this card")
        XCTAssertFalse(run.stdout.isEmpty)
    }

    func testAnElementOfAHundredThousandsAttributesIsRefusedAtOnce() throws {
        let attributes = (0 ..< 426_000).map { "a\($0)=\"\"" }.joined(separator: " ")
        let file = write("attributes.xml", "<card " + String(attributes.prefix((4 << 20) - 100)) + "/>")
        try assertRefused(file, "with more than 32 attributes")
        let twice = write("twice.xml", #"<card type="4" type="5"/>"#)
        try assertRefused(twice, "names attribute type twice")
    }

    func testNoDocumentTypeEntityOrOtherEncodingGetsPastTheParser() throws {
        let cases: [(String, String, String)] = [
            ("doctype.xml", #"<?xml version="1.0"?><!DOCTYPE card [<!ENTITY a "aaaa">]><card a="&a;"/>"#, "document type declaration"),
            ("doctype-late.xml", "<!-- " + String(repeating: "x", count: 500) + #" --><!DOCTYPE card SYSTEM "file:///etc/passwd"><card/>"#,
             "document type declaration"),
            ("entity.xml", #"<card type="4" id="&lol9;"/>"#, "the file declares no entities"),
            ("spaced-encoding.xml", #"<?xml version = "1.0" encoding = 'UTF-7' ?><card/>"#, "an encoding other than UTF-8 (UTF-7)"),
            ("pushed-encoding.xml", #"<?xml version="1.0""# + String(repeating: " ", count: 400) + #"encoding="Shift_JIS"?><card/>"#,
             "an encoding other than UTF-8 (Shift_JIS)"),
            ("latin1.xml", #"<?xml version="1.0" encoding="ISO-8859-1"?><card/>"#, "an encoding other than UTF-8"),
            ("utf7-body.xml", #"<?xml version="1.0" encoding="UTF-7"?>+ADw-!DOCTYPE card+AD4-<card/>"#, "an encoding other than UTF-8"),
            ("declaration-late.xml", #"<card><?xml version="1.0" encoding="UTF-16"?></card>"#, "an XML declaration that is not at the start"),
            ("markup.xml", #"<card><!ELEMENT card ANY></card>"#, "a markup declaration"),
        ]
        for (name, text, words) in cases { try assertRefused(write(name, text), words) }
        var latin1 = Data(#"<?xml version="1.0"?><card type="4" id=""#.utf8)
        latin1.append(contentsOf: [0xE9, 0x22, 0x2F, 0x3E]) // é in Latin-1: not UTF-8
        XCTAssertTrue(FileManager.default.createFile(atPath: path("bytes.xml"), contents: latin1))
        try assertRefused(path("bytes.xml"), "not UTF-8 text")
    }

    func testPredefinedEntitiesAndCharacterReferencesAreRead() throws {
        // The five predefined entities and a character reference are XML itself: an export may use them.
        let image = try CardImages.sample("suica.json")
        let xml = ExportTexts.xml([image]).replacingOccurrences(of: #"scanned_at="1764000000000""#,
                                                                 with: #"scanned_at="1764000000000" note="&lt;&amp;&#x41;&#66;&quot;&apos;&gt;""#)
        let run = try transit(["decode", write("entities.xml", xml)])
        XCTAssertEqual(run.status, 0, run.stdout)
        XCTAssertEqual((run.json?["card"] as? [String: Any])?["balance"] as? Int, 2010, "the sample Suica's balance")
    }

    func testValuesFromTheFileAreQuotedInBriefNeverEchoedWhole() throws {
        let huge = String(repeating: "Z", count: 3 << 20)
        try assertRefused(write("type.json", #"[{"cardType":"\#(huge)"}]"#), "a card of type ZZZZ")
        let flipper = write("line.nfc", "Filetype: Flipper NFC device\nVersion: 4\nDevice type: FeliCa\nUID: 01 02 03 04 05 06 07 08\nSystem 00: "
                            + String(repeating: "\u{7F}\u{1B}", count: 1 << 20) + "\n")
        try assertRefused(flipper, "unreadable Flipper system line")
        let image = write("image.json", #"{"format": "transit-card-image/1", "felica": {"idm": ""# + huge + #"", "systems": []}}"#)
        try assertRefused(image, image)
    }

    func testADumpOfAHugeFlipperFileEndsByTheReadTimeout() throws {
        var lines = ["Filetype: Flipper NFC device", "Version: 4", "Device type: FeliCa", "UID: 01 02 03 04 05 06 07 08", "System 00: 0003",
                     "Service 000: | Code 090F | Attrib. 0F | Public |"]
        var size = lines.reduce(0) { $0 + $1.utf8.count + 1 }
        var block = 0
        while size < (4 << 20) - 200 {
            let line = "Block \(String(format: "%04X", block)): | Service code 090F | Block index \(String(block, radix: 16)) | Data: 00 11 22 33 44 55 66 77 88 99 AA BB CC DD EE FF |"
            lines.append(line)
            size += line.utf8.count + 1
            block += 1
        }
        let file = write("huge.nfc", lines.joined(separator: "\n") + "\n")
        let whole = try transit(["dump", "--card", file, "--out", path("whole.json")])
        XCTAssertEqual(whole.status, 0, whole.stderr)
        let dumped = try JSONDecoder().decode(CardImage.self, from: Data(contentsOf: URL(fileURLWithPath: path("whole.json"))))
        XCTAssertEqual(dumped.felica?.systems.first?.services["090F"]?.count, block, "every block of the file")
        let cut = try transit(["dump", "--card", file, "--out", path("cut.json"), "--read-timeout", "0.05"])
        XCTAssertEqual(cut.status, 5, cut.stderr)
        XCTAssertTrue(cut.stderr.contains("did not finish within its deadline"), cut.stderr)
    }
}

import Foundation
import TestSupport
import XCTest

/// No human-read line escapes the catalog (issue 44): transit run in a pseudo-language whose every
/// translated word is marked (`⟦no⟧ ⟦card⟧ ⟦on⟧ %1$s`, `PseudoLocale`), and every line a person
/// reads must carry a marker — scan of every sample, each command's help, an error of each kind,
/// the archive's listings and reports, plugins, readers and doctor. A line without one is English
/// that did not go through gettext, unless it is data: the narrow exceptions below, each a line
/// that holds only what a card, a file or the command line gave.
final class PseudoLocaleTests: XCTestCase {
    private var archive = ArchiveFixture()
    override func tearDown() { archive.remove() }

    private func pseudo() throws -> [String: String] {
        do { return try PseudoLocale.environment() } catch { throw XCTSkip("\(error)") }
    }

    private func run(_ arguments: [String], _ env: [String: String]) throws -> CommandRun {
        try archive.transit(arguments, env)
    }

    /// A line of data alone: once the names a card or the command gave (`names`) and "IDm" are taken
    /// out, only numbers are left — amounts (¥2,010, -S$1.28), dates and times (2026-11-05 13:45),
    /// hex codes and card numbers (E33B, 012E4CD8A1B2C3D4, 1000 7515 1234 5678), ids (#1) — with the
    /// arrows and brackets between them.
    static func isData(_ line: String, names: [String]) -> Bool {
        var rest = line
        for name in names.filter({ !$0.isEmpty }).sorted(by: { $0.count > $1.count }) { rest = rest.replacingOccurrences(of: name, with: " ") }
        rest = rest.replacingOccurrences(of: "IDm", with: " ")
        let number = try! NSRegularExpression(pattern: #"[#+-]?(?:[A-Z]{0,3}[$¥€£₩])?[0-9][0-9A-F,.:/-]*|\b[0-9A-F]{4,}\b"#)
        rest = number.stringByReplacingMatches(in: rest, range: NSRange(rest.startIndex..., in: rest), withTemplate: " ")
        return rest.unicodeScalars.allSatisfy { CharacterSet.whitespaces.contains($0) || "()/→·—-?".unicodeScalars.contains($0) }
    }

    /// The lines of `text` a person reads that carry no marker, blank lines and `exempt` ones left out.
    private func unmarked(_ text: String, exempt: (String) -> Bool = { _ in false }) -> [String] {
        text.split(separator: "\n").map(String.init).filter {
            !$0.trimmingCharacters(in: .whitespaces).isEmpty && !$0.contains(PseudoLocale.open) && !exempt($0)
        }
    }

    private func assertMarked(_ run: CommandRun, _ what: String, names: [String] = [], exempt: (String) -> Bool = { _ in false },
                              file: StaticString = #filePath, line: UInt = #line) {
        let left = unmarked(run.stdout + "\n" + run.stderr) { exempt($0) || Self.isData($0, names: names) }
        XCTAssertEqual(left, [], "transit \(what): lines that escaped the catalog", file: file, line: line)
    }

    func testTheMarkerTestTellsDataFromWords() {
        XCTAssertTrue(Self.isData("2026-11-05 13:45  -¥160  ¥2,010  E33B → E621", names: []))
        XCTAssertTrue(Self.isData("Shenzhen Tong  295176543(8)", names: ["Shenzhen Tong"]))
        XCTAssertTrue(Self.isData("#1  Suica (japan-ic)  IDm 012E4CD8A1B2C3D4  ¥2,010  2026/12/07 07:55  5", names: ["Suica", "japan-ic"]))
        XCTAssertFalse(Self.isData("Balance: ¥2,010", names: []))
        XCTAssertFalse(Self.isData("2026-11-05  trip  -¥160", names: []))
        XCTAssertFalse(Self.isData("Suica  IDm 012E4CD8A1B2C3D4 (the card's chip ID)", names: ["Suica"]))
        XCTAssertEqual(unmarked("⟦Balance:⟧ ¥2,010\n\nBalance: ¥2,010\n  "), ["Balance: ¥2,010"])
    }

    /// Every sample scanned: each line is marked, but the card's name and number (data) and the
    /// metadata lines a plugin wrote (`Points: 150`: a plugin's own words, translated in its domain).
    func testScanOfEverySample() throws {
        let env = try pseudo()
        let samples = try FileManager.default.contentsOfDirectory(atPath: BuildProducts.packageRoot.appendingPathComponent("samples").path)
            .filter { $0.hasSuffix(".json") || $0.hasSuffix(".nfc") }.sorted()
        XCTAssertGreaterThan(samples.count, 30)
        for sample in samples {
            let path = BuildProducts.sample(sample)
            let text = try run(["scan", "--card", path, "--no-save"], env)
            let json = try JSONSerialization.jsonObject(with: Data(try run(["scan", "--card", path, "--no-save", "--json"], env).stdout.utf8)) as? [String: Any]
            let card = json ?? [:]
            let metadata = card["metadata"] as? [String: String] ?? [:]
            let names = [card["cardName"] as? String, card["family"] as? String].compactMap { $0 }
            assertMarked(text, "scan --card \(sample)", names: names) { line in
                // `Key: value`, the card's metadata as the plugin gave it (its key in words).
                metadata.contains { key, value in
                    line.hasSuffix(": " + value) && line.dropLast(value.count + 2).lowercased().replacingOccurrences(of: " ", with: "") == key.lowercased()
                }
            }
        }
    }

    /// `--help` and each command's: all words marked, but the usage lines and the options' labels
    /// (the command line's own syntax, which no language changes).
    func testEveryHelp() throws {
        let env = try pseudo()
        let main = try run(["--help"], env)
        XCTAssertEqual(main.status, 0, main.stderr)
        let lines = main.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try XCTUnwrap(lines.firstIndex { $0.contains("⟦Usage:⟧") }, main.stdout)
        let usage = lines[(start + 1)...].prefix { !$0.isEmpty }
        XCTAssertGreaterThan(usage.count, 15)
        // The options' labels as the usage lines write them: `--reader NAME` of `[--reader NAME]...`.
        let labels = Set(usage.flatMap { line in
            line.components(separatedBy: "[").dropFirst().compactMap { $0.components(separatedBy: "]").first }
                + line.components(separatedBy: " --").dropFirst().map { "--" + $0.components(separatedBy: " [").first! }
        })
        assertMarked(main, "--help") { usage.contains($0) }
        let commands = usage.compactMap { line -> String? in
            let words = line.split(separator: " ")
            return words.first == "transit" && words.count > 1 && words[1].first?.isLowercase == true ? String(words[1]) : nil
        }
        XCTAssertEqual(commands.count, 15, "\(usage)")
        for command in commands {
            let help = try run([command, "--help"], env)
            XCTAssertEqual(help.status, 0, help.stderr)
            assertMarked(help, "\(command) --help") { line in
                let option = line.trimmingCharacters(in: .whitespaces)
                // A label alone on its line (wider than its column), or the options "as for scan" before that phrase.
                return labels.contains(option) || option.split(separator: " ").allSatisfy { $0.hasPrefix("--") && ($0.hasSuffix(",") || !$0.contains(",")) }
            }
        }
    }

    /// An error of each kind a person can meet without a reader: said on stderr, every line marked
    /// (the paths and words the command line gave are data inside them).
    func testAnErrorOfEachKind() throws {
        let env = try pseudo()
        let conf = archive.directory.appendingPathComponent("cepas.conf")
        try "cepas \(BuildProducts.plugin("TransitCEPAS"))\n".write(to: conf, atomically: true, encoding: .utf8)
        let badConf = archive.directory.appendingPathComponent("bad.conf")
        try "only-a-name\n".write(to: badConf, atomically: true, encoding: .utf8)
        let cases: [(arguments: [String], status: Int32)] = [
            (["scna"], 2), (["scan", "--bogus"], 2), (["scan", "--wait", "soon"], 2), (["report", "--month", "2026-13"], 2),
            (["history", "nosuch"], 2), (["forget", "nosuch"], 2), (["replay"], 2),
            (["scan", "--card", "/nonexistent/card.json"], 2), (["scan", "--card", BuildProducts.sample("suica.json"), "--config", badConf.path], 2),
            (["replay", BuildProducts.sample("suica.json")], 2),
            (["scan", "--card", BuildProducts.sample("suica.json"), "--config", conf.path, "--no-save"], 4),
        ]
        for c in cases {
            let failed = try run(c.arguments, env)
            XCTAssertEqual(failed.status, c.status, "\(c.arguments): \(failed.stderr)")
            XCTAssertTrue(failed.stderr.hasPrefix("transit: "), "\(c.arguments): \(failed.stderr)")
            assertMarked(failed, c.arguments.joined(separator: " "))
        }
        // No reader of that name, whatever this machine has: noReader (or noCard), said in words.
        let none = try run(["scan", "--reader", "no reader is called this", "--no-save"], env)
        XCTAssertEqual(none.status, 3, none.stderr)
        assertMarked(none, "scan --reader …")
    }

    /// The archive's commands on a small archive in a private XDG_DATA_HOME: cards, history, the
    /// report as text and as a page, export, dump, decode, verify and forget.
    func testTheArchiveCommandsAndReports() throws {
        let env = try pseudo()
        for sample in ["suica.json", "navigo.json"] { XCTAssertEqual(try run(["scan", "--card", BuildProducts.sample(sample)], env).status, 0) }
        let names = ["Suica", "japan-ic", "Navigo", "calypso"]
        for arguments in [["cards"], ["history"], ["report", "--month", "2026-11"], ["report", "#1", "--from", "2026-11-01", "--to", "2026-11-30"]] {
            let listed = try run(arguments, env)
            XCTAssertEqual(listed.status, 0, "\(arguments): \(listed.stderr)")
            assertMarked(listed, arguments.joined(separator: " "), names: names)
        }
        // The page: every text between its tags (its style and its chart's numbers aside).
        let page = archive.directory.appendingPathComponent("report.html")
        let html = try run(["report", "#1", "--month", "2026-11", "--format", "html", "--out", page.path], env)
        XCTAssertEqual(html.status, 0, html.stderr)
        assertMarked(html, "report --format html (stderr)")
        var body = try String(contentsOf: page, encoding: .utf8)
        body = body.components(separatedBy: "</style>").last ?? ""
        body = body.replacingOccurrences(of: #"<svg[\s\S]*?</svg>"#, with: "", options: .regularExpression)
        let texts = body.components(separatedBy: "<").compactMap { $0.components(separatedBy: ">").dropFirst().first }
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        XCTAssertGreaterThan(texts.count, 20)
        XCTAssertEqual(texts.filter { !$0.contains(PseudoLocale.open) && !Self.isData($0, names: names) }, [], "the report page's texts")

        let out = archive.directory.appendingPathComponent("out")
        let reference = archive.directory.appendingPathComponent("ref.json")
        try #"{"balance": 2010, "journeys": [{"date": "2026-11-05", "amount": 170}]}"#.write(to: reference, atomically: true, encoding: .utf8)
        let commands: [(arguments: [String], status: Int32)] = [
            (["export", "--out", out.path + ".csv"], 0),
            (["dump", "--card", BuildProducts.sample("suica.json"), "--out", out.path + ".json"], 0),
            (["decode", "/nonexistent/card.json"], 2),
            (["verify", "--reference", reference.path, "--card", BuildProducts.sample("suica.json"), "--no-save"], 1),
            (["forget", "#2"], 0),
        ]
        for c in commands {
            let done = try run(c.arguments, env)
            XCTAssertEqual(done.status, c.status, "\(c.arguments): \(done.stderr)")
            if c.arguments[0] == "decode" {
                XCTAssertFalse(done.stderr.isEmpty)
                XCTAssertEqual(unmarked(done.stderr), [], "decode's stderr") // its stdout is JSON lines
            } else {
                XCTAssertFalse((done.stdout + done.stderr).isEmpty, "\(c.arguments)")
                assertMarked(done, c.arguments.joined(separator: " "), names: names + [out.path + ".csv", out.path + ".json", reference.path])
            }
        }
    }

    /// plugins, readers and doctor on this machine, whatever readers it has: every line marked but
    /// a plugin's row (its name, state word and path: the state word is marked) — none exempt.
    func testPluginsReadersAndDoctor() throws {
        let env = try pseudo()
        for command in ["plugins", "readers", "doctor"] {
            let ran = try run([command], env)
            XCTAssertFalse((ran.stdout + ran.stderr).isEmpty, command)
            // A reader's row of `readers`: its name and ATR are data; the card's words are marked.
            assertMarked(ran, command)
        }
    }
}

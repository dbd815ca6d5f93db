import Foundation
import TestSupport
import XCTest

/// The README's commands as a newcomer types them: they work as written, the sample scans keep
/// nothing in the user's history, and the README says what the test run skips and why.
final class ReadmeCommandTests: XCTestCase {
    private var archive = ArchiveFixture()
    override func tearDown() { archive.remove() }

    private static let readme: String = (try? String(contentsOf: BuildProducts.packageRoot.appendingPathComponent("README.md"),
                                                     encoding: .utf8)) ?? ""

    /// The README's text from the heading `title` to the next heading of its level or above.
    private static func section(_ title: String) -> String {
        let lines = readme.components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0.hasPrefix("#") && $0.hasSuffix(" " + title) }) else { return "" }
        let level = lines[start].prefix { $0 == "#" }.count
        let end = lines[(start + 1)...].firstIndex { $0.hasPrefix("#") && $0.prefix { $0 == "#" }.count <= level } ?? lines.count
        return lines[start ..< end].joined(separator: "\n")
    }

    /// A command line's words as sh reads them here: single quotes, a `#` comment.
    private static func words(_ line: String) -> [String] {
        var words = [String](), current = "", quoted = false, inWord = false
        for ch in line {
            if quoted { if ch == "'" { quoted = false } else { current.append(ch) }; continue }
            if ch == "'" { quoted = true; inWord = true; continue }
            if ch == "#", !inWord { break }
            if ch == " " { if inWord { words.append(current); current = ""; inWord = false }; continue }
            current.append(ch)
            inWord = true
        }
        if inWord { words.append(current) }
        return words
    }

    private func cards() throws -> [[String: Any]] {
        let run = try archive.transit(["cards", "--json"])
        return (try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8))) as? [[String: Any]] ?? []
    }

    func testTheREADMEsSampleScansKeepNothingInTheHistory() throws {
        let pattern = try NSRegularExpression(pattern: #"transit scan [^`\n#]*--card samples/[^`\n#]*"#)
        let text = Self.readme as NSString
        let commands = pattern.matches(in: Self.readme, range: NSRange(location: 0, length: text.length)).map { text.substring(with: $0.range) }
        XCTAssertGreaterThanOrEqual(commands.count, 2, "the README's JSON and text examples")
        for command in commands {
            let run = try archive.transit(Array(Self.words(command).dropFirst()))
            XCTAssertEqual(run.status, 0, "\(command): \(run.stderr)")
            XCTAssertEqual(try cards().count, 0, "\(command) kept the sample card in the history")
        }
    }

    func testTheForgetOfScanningARealCardWorksAsWritten() throws {
        // The card the section's scan kept (a copy of the sample, read as a real card would be).
        XCTAssertEqual(try archive.scan(BuildProducts.sample("suica.json")).status, 0)
        let block = Self.section("Scanning a real card")
        let lines = block.components(separatedBy: "\n").filter { $0.hasPrefix(".build/release/transit cards") || $0.hasPrefix(".build/release/transit forget") }
        XCTAssertEqual(lines.count, 2, "the section lists the cards, then forgets one: \(block)")
        for line in lines {
            let run = try archive.transit(Array(Self.words(line).dropFirst()))
            XCTAssertEqual(run.status, 0, "\(line): \(run.stderr)")
        }
        XCTAssertEqual(try cards().count, 0, "the card is forgotten")
    }

    func testTheSimulatorSectionCopesWithARunningPcscdAndSaysToRestartIt() throws {
        let section = Self.section("Writing a plugin")
        let pcscd = section.components(separatedBy: "\n").filter { $0.contains("pcscd --foreground &") }
        XCTAssertFalse(pcscd.isEmpty, section)
        // Run as written where a pcscd already runs, a bare `pcscd --foreground &` is refused.
        for line in pcscd { XCTAssertTrue(line.hasPrefix("pgrep -x pcscd >/dev/null || "), line) }
        XCTAssertTrue(section.contains("restart pcscd after installing vsmartcard-vpcd"), section)
    }

    func testTheREADMEExplainsTheTestsItSkips() throws {
        let fresh = Self.section("Fresh machine: two commands")
        for cause in ["../shared/cards", "zsh", "fish"] { XCTAssertTrue(fresh.contains(cause), "\(cause) is not explained: \(fresh)") }
        XCTAssertTrue(fresh.contains("skipped"), fresh)
        XCTAssertTrue(fresh.contains("expected"), fresh)
        // The folder the README names is the one the tests look for.
        XCTAssertEqual(BuildProducts.packageRoot.appendingPathComponent("../shared/cards").standardized.path,
                       BuildProducts.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/cards").path)
    }

    func testTheREADMEsTimeOfTheReproducibilityCheckIsTheScripts() throws {
        let script = try String(contentsOf: BuildProducts.packageRoot.appendingPathComponent("scripts/check-reproducible.sh"), encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"(\d+ min \d+ s)"#)
        func times(_ text: String) -> [String] {
            let ns = text as NSString
            return pattern.matches(in: text, range: NSRange(location: 0, length: ns.length)).map { ns.substring(with: $0.range) }
        }
        let scriptHead = script.components(separatedBy: "\nset -").first ?? ""
        let install = Self.section("Install")
        let around = install.components(separatedBy: "check-reproducible.sh").dropFirst().first ?? ""
        XCTAssertEqual(times(scriptHead).first, "6 min 44 s", "the measured time in the script's header")
        XCTAssertEqual(times(String(around.prefix(200))).first, times(scriptHead).first, "the README gives the script's time")
    }
}

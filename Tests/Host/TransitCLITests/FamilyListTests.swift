import Foundation
import TestSupport
import XCTest

/// The families are listed once, in plugins.conf (issue 48): where a document must list them too,
/// it lists plugins.conf's, so a family added or moved there fails here until the documents say it.
/// scripts/generate-family-docs.py writes those lists from plugins.conf and each family's FAMILY.md.
final class FamilyListTests: XCTestCase {
    private static func read(_ relative: String) throws -> String {
        try String(contentsOf: BuildProducts.packageRoot.appendingPathComponent(relative), encoding: .utf8)
    }

    /// The words of `text` between backquotes, in order.
    private static func quoted(_ text: Substring) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated().compactMap { $0.offset % 2 == 1 ? String($0.element) : nil }
    }

    func testTheShippedConfListsEveryFamilyOnce() {
        XCTAssertGreaterThan(ShippedPlugins.names.count, 10)
        XCTAssertEqual(Set(ShippedPlugins.names).count, ShippedPlugins.names.count)
    }

    /// README's table of card families: a row a plugin, in probe order.
    func testTheReadmeTableIsThePluginsInProbeOrder() throws {
        let readme = try Self.read("README.md")
        let section = try XCTUnwrap(readme.components(separatedBy: "## Card families\n").dropFirst().first)
        let rows = section.split(separator: "\n").drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }.dropFirst(2)
        XCTAssertEqual(rows.compactMap { Self.quoted($0.split(separator: "|").first ?? "").first }, ShippedPlugins.names)
    }

    /// plugins.conf(5)'s THE DEFAULT ORDER: the reasons name the plugins in probe order, and the
    /// example is the shipped file's lines.
    func testTheManPagesDefaultOrderIsTheShippedFile() throws {
        let page = try Self.read("docs/man/plugins.conf.5").replacingOccurrences(of: "\\-", with: "-")
        let section = try XCTUnwrap(page.components(separatedBy: ".SH THE DEFAULT ORDER\n").dropFirst().first?
            .components(separatedBy: "\n.SH ").first)
        let lines = section.split(separator: "\n", omittingEmptySubsequences: false)
        let reasons = lines.indices.filter { lines[$0] == ".TP" && $0 + 1 < lines.count }.flatMap { i -> [String] in
            // `.B name` or `.BR name ", " name …`: the words outside the quotes.
            let words = lines[i + 1].split(separator: "\"", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 0 }.flatMap { $0.element.split(separator: " ") }
            return words.dropFirst().map(String.init)
        }
        XCTAssertEqual(reasons, ShippedPlugins.names)
        let example = try XCTUnwrap(section.components(separatedBy: ".EX\n").dropFirst().first?.components(separatedBy: "\n.EE").first)
        XCTAssertEqual(example.split(separator: "\n").map { $0.split(separator: " ").map(String.init) },
                       ShippedPlugins.lines.map { [$0.name, $0.library] + $0.options.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } })
    }

    /// docs/scripting-and-watch.md's `family` field names every plugin (and the families a plugin
    /// reads under other names).
    func testTheJSONFamilyFieldNamesEveryPlugin() throws {
        let doc = try Self.read("docs/scripting-and-watch.md")
        let row = try XCTUnwrap(doc.split(separator: "\n").first { $0.hasPrefix("| `family` |") })
        let named = Set(Self.quoted(row))
        XCTAssertEqual(ShippedPlugins.names.filter { !named.contains($0) }, [], String(row))
    }

    /// The three lists above are what scripts/generate-family-docs.py writes (and the Japanese
    /// page's reasons what the FAMILY.md files say), so none is edited by hand.
    func testTheListsAreWhatTheGeneratorWrites() throws {
        let run = try CommandRun.run("/usr/bin/python3", [BuildProducts.packageRoot.appendingPathComponent("scripts/generate-family-docs.py").path,
                                                          "--check"], timeout: 120)
        XCTAssertEqual(run.status, 0, run.stderr)
    }

    /// A family's facts changed without the generator run: the check names the stale document.
    func testTheGeneratorsCheckFailsOnAStaleDocument() throws {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("family-docs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: copy) }
        let root = BuildProducts.packageRoot
        let plugins = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Sources/Plugins").path)
            .filter { FileManager.default.fileExists(atPath: root.appendingPathComponent("Sources/Plugins/\($0)/FAMILY.md").path) }
        XCTAssertGreaterThan(plugins.count, 10)
        let files = ["plugins.conf", "Package.swift", "README.md", "docs/man/plugins.conf.5", "docs/scripting-and-watch.md",
                     "po/man/plugins.conf.5.ja.po", "scripts/generate-family-docs.py"] + plugins.map { "Sources/Plugins/\($0)/FAMILY.md" }
        for file in files {
            let target = copy.appendingPathComponent(file)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: root.appendingPathComponent(file), to: target)
        }
        let facts = copy.appendingPathComponent("Sources/Plugins/Troika/FAMILY.md")
        let text = try String(contentsOf: facts, encoding: .utf8)
        XCTAssertTrue(text.contains("card number, balance (RUB), last trips"))
        try text.replacingOccurrences(of: "card number, balance (RUB), last trips", with: "card number, balance (RUB), the last trips")
            .write(to: facts, atomically: true, encoding: .utf8)
        let script = copy.appendingPathComponent("scripts/generate-family-docs.py").path
        let check = try CommandRun.run("/usr/bin/python3", [script, "--check"], timeout: 120)
        XCTAssertEqual(check.status, 1, check.stderr)
        XCTAssertTrue(check.stderr.contains("README.md is not what scripts/generate-family-docs.py writes"), check.stderr)
        XCTAssertFalse(check.stderr.contains("docs/man/plugins.conf.5 is not"), check.stderr)
        // Written, the row says the new words, and the check passes.
        XCTAssertEqual(try CommandRun.run("/usr/bin/python3", [script]).status, 0)
        let readme = try String(contentsOf: copy.appendingPathComponent("README.md"), encoding: .utf8)
        XCTAssertTrue(readme.contains("| `troika` | Troika (Moscow): MIFARE Classic layouts E/3 and E/5, and the Ultralight ticket | card number, balance (RUB), the last trips;"))
        XCTAssertEqual(try CommandRun.run("/usr/bin/python3", [script, "--check"], timeout: 120).status, 0)
    }
}

import Foundation
import TestSupport
import XCTest

/// The plugin example docs/ABI.md tells authors to start from, copied and built exactly as the
/// guide's commands say (its cc line with the installed pkg-config file, its plugins.conf line),
/// loads under the name the guide registers and reads its card.
final class PluginExampleTests: XCTestCase {
    private var dir = temporaryDirectory()
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    private static let root = BuildProducts.packageRoot

    /// The guide's `sh` block that builds and registers a C plugin.
    private func guideCommands() throws -> (example: String, build: String, register: String) {
        let guide = try String(contentsOf: Self.root.appendingPathComponent("docs/ABI.md"), encoding: .utf8)
        let lines = guide.components(separatedBy: "\n")
        let build = try XCTUnwrap(lines.first { $0.hasPrefix("cc ") }, "the guide's cc line")
        let register = try XCTUnwrap(lines.first { $0.hasPrefix("echo \"myfamily ") }, "the guide's plugins.conf line")
        let pattern = try NSRegularExpression(pattern: #"start from `([^`]+\.c)`"#)
        let ns = guide as NSString
        let match = try XCTUnwrap(pattern.firstMatch(in: guide, range: NSRange(location: 0, length: ns.length)), "the example the guide names")
        return (ns.substring(with: match.range(at: 1)), build, register)
    }

    /// An installed prefix as `make install` lays out the header and the pkg-config file.
    private func installedPrefix() throws -> URL {
        let prefix = dir.appendingPathComponent("prefix")
        let include = prefix.appendingPathComponent("include/transit")
        try FileManager.default.createDirectory(at: include, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.root.appendingPathComponent("Sources/ReaderABI/include/transit_reader.h"),
                                         to: include.appendingPathComponent("transit_reader.h"))
        let template = try String(contentsOf: Self.root.appendingPathComponent("packaging/transit-plugin.pc.in"), encoding: .utf8)
        try template.replacingOccurrences(of: "@PREFIX@", with: prefix.path).replacingOccurrences(of: "@VERSION@", with: "0.1.0")
            .write(to: prefix.appendingPathComponent("transit-plugin.pc"), atomically: true, encoding: .utf8)
        return prefix
    }

    private func sh(_ command: String, in folder: URL, _ environment: [String: String] = [:]) throws -> CommandRun {
        try CommandRun.run("/bin/sh", ["-c", command], currentDirectory: folder,
                           environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
    }

    func testTheGuidesExampleBuildsAndLoadsAsTheGuideSays() throws {
        let (example, build, register) = try guideCommands()
        XCTAssertFalse(example.hasPrefix("Tests/"), "the example is not a test fixture: \(example)")
        let work = dir.appendingPathComponent("myfamily")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.root.appendingPathComponent(example), to: work.appendingPathComponent("myfamily.c"))
        let source = try String(contentsOf: work.appendingPathComponent("myfamily.c"), encoding: .utf8)
        XCTAssertFalse(source.contains("#ifdef"), "the example holds no test variants")

        let prefix = try installedPrefix()
        let built = try sh(build, in: work, ["PKG_CONFIG_PATH": prefix.path])
        XCTAssertEqual(built.status, 0, "\(build): \(built.stderr)")
        let strict = try sh(build.replacingOccurrences(of: "cc -std=c99", with: "cc -std=c99 -Wall -Wextra -Wpedantic -Werror")
                                 .replacingOccurrences(of: "libmyfamily.so", with: "libstrict.so"), in: work, ["PKG_CONFIG_PATH": prefix.path])
        XCTAssertEqual(strict.status, 0, "the example builds without a warning: \(strict.stderr)")

        // The guide's line for plugins.conf.d, written to a conf of the test's own.
        let line = try sh(String(register.prefix { $0 != "|" }), in: work)
        let conf = work.appendingPathComponent("plugins.conf")
        try line.stdout.write(to: conf, atomically: true, encoding: .utf8)
        let plugins = try CommandRun.transit(["plugins", "--config", conf.path])
        XCTAssertEqual(plugins.status, 0, plugins.stderr)
        XCTAssertTrue(plugins.stdout.split(separator: "\n").contains { $0.hasPrefix("myfamily") && $0.contains("loaded") && $0.contains("ABI 1") },
                      plugins.stdout)

        let card = try CardImages.write(CardImages.iso(select: "00A4040008F07472616E73697400", commands: ["805C000004": "000001029000"]), in: dir)
        let scan = try CommandRun.transit(["scan", "--config", conf.path, "--card", card, "--json", "--no-save"])
        XCTAssertEqual(scan.status, 0, scan.stderr)
        XCTAssertEqual(scan.json?["family"] as? String, "myfamily")
        XCTAssertEqual(scan.json?["balance"] as? Int, 258)
    }

    func testTheHostileVariantsLiveInATestFixtureOfTheirOwn() throws {
        let demo = try String(contentsOf: Self.root.appendingPathComponent("Tests/Fixtures/demo_plugin.c"), encoding: .utf8)
        for variant in ["DEMO_WRONG_ABI", "DEMO_ESCAPE", "DEMO_LOOP", "DEMO_CHATTY"] {
            XCTAssertFalse(demo.contains(variant), "\(variant) is in demo_plugin.c")
        }
        // Built from their own file, they still are what the loader tests refuse.
        let lib = try CPluginBuilder.build(into: dir, name: "libwrong.so", defines: ["DEMO_WRONG_ABI"])
        let conf = dir.appendingPathComponent("plugins.conf")
        try "demo \(lib)\n".write(to: conf, atomically: true, encoding: .utf8)
        let plugins = try CommandRun.transit(["plugins", "--config", conf.path])
        XCTAssertTrue(plugins.stdout.contains("refused"), plugins.stdout)
    }
}

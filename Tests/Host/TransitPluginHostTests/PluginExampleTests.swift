import Foundation
import TestSupport
import XCTest

/// docs/ABI.md's "Building a plugin" as a plugin author follows it after `make install`: every line
/// of its C `sh` blocks run as written, in a folder of the author's own, with the installed
/// transit and pkg-config file first on PATH (`sudo` stands in for itself); the example and its
/// card image come from the installed examples, the library goes into the plugins folder, the
/// drop-in into the folder transit reads, and the card reads. The install is a real one into a
/// throwaway prefix (`make install-files`, from the build under test).
final class PluginExampleTests: XCTestCase {
    private var dir = temporaryDirectory()
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    private static let root = BuildProducts.packageRoot

    /// The guide's `sh` lines of the section "Building a plugin outside this repository".
    private func guideLines() throws -> [String] {
        let all = DocCommands.all().filter { $0.file == "docs/ABI.md" }
        let guide = DocCommands.text("docs/ABI.md").components(separatedBy: "\n")
        let start = try XCTUnwrap(guide.firstIndex { $0.hasPrefix("## Building a plugin") }) + 1
        let end = guide[start...].firstIndex { $0.hasPrefix("## ") } ?? guide.count
        return all.filter { $0.line > start && $0.line <= end }.map(\.text)
    }

    /// `make install-files` into `prefix` (no DESTDIR: the pkg-config file names the real folders).
    private func install(_ prefix: URL) throws {
        var env = ProcessInfo.processInfo.environment
        env["BIN"] = BuildProducts.directory.path
        env["UDEVRULESDIR"] = dir.appendingPathComponent("udev").path
        let run = try CommandRun.run("/usr/bin/make", ["-s", "install-files", "PREFIX=\(prefix.path)", "DESTDIR="],
                                     currentDirectory: Self.root, environment: env, timeout: 300)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
    }

    func testTheGuidesCommandsWorkAsWrittenAfterMakeInstall() throws {
        try XCTSkipIf(FileManager.default.fileExists(atPath: "/etc/transit/plugins.conf"),
                      "/etc/transit/plugins.conf is installed here: the throwaway install's own conf would not be the one in use")
        let lines = try guideLines()
        XCTAssertTrue(lines.contains { $0.hasPrefix("cc ") }, "the guide's cc line: \(lines)")
        let prefix = dir.appendingPathComponent("prefix")
        try install(prefix)
        // The installed examples hold the plugin and its card image.
        for example in ["myfamily.c", "myfamily.json"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: prefix.appendingPathComponent("share/doc/transit/examples/\(example)").path), example)
        }
        let stubs = dir.appendingPathComponent("stubs"), work = dir.appendingPathComponent("work")
        for folder in [stubs, work] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        try "#!/bin/sh\nexec \"$@\"\n".write(to: stubs.appendingPathComponent("sudo"), atomically: true, encoding: .utf8)
        chmod(stubs.appendingPathComponent("sudo").path, 0o755)
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = "\(prefix.path)/bin:\(stubs.path):/usr/bin:/bin"
        env["PKG_CONFIG_PATH"] = prefix.appendingPathComponent("share/pkgconfig").path
        env["XDG_CONFIG_HOME"] = dir.appendingPathComponent("config").path
        env["XDG_DATA_HOME"] = dir.appendingPathComponent("data").path
        var outputs = [String: CommandRun]()
        for line in lines {
            let run = try CommandRun.run("/bin/sh", ["-c", line], currentDirectory: work, environment: env, timeout: 120)
            outputs[line] = run
            XCTAssertEqual(run.status, 0, "\(line): \(run.stdout)\n\(run.stderr)")
        }
        let plugins = try XCTUnwrap(outputs.first { $0.key == "transit plugins" }?.value, "the guide runs transit plugins")
        XCTAssertTrue(plugins.stdout.split(separator: "\n").contains { $0.hasPrefix("myfamily") && $0.contains("loaded") && $0.contains("ABI 1") },
                      plugins.stdout)
        XCTAssertTrue(plugins.stdout.contains("\(prefix.path)/lib/transit/plugins/libmyfamily.so"), "loaded from the plugins folder: \(plugins.stdout)")
        XCTAssertTrue(plugins.stdout.contains("drop-ins read from \(prefix.path)/etc/transit/plugins.conf.d: 50-myfamily.conf"), plugins.stdout)
        let scan = try XCTUnwrap(outputs.first { $0.key.hasPrefix("transit scan --card myfamily.json") }?.value, "the guide reads the card")
        XCTAssertTrue(scan.stdout.contains("Balance: 2.58 EUR"), scan.stdout)
    }

    func testPluginsNamesTheDropInFolderItReadsAndOnesItDoesNot() throws {
        // The conf in use (--config) has its plugins.conf.d; the user's own conf folder holds a
        // drop-in that this transit does not read: both said, so a line in the wrong place shows.
        let used = dir.appendingPathComponent("etc/transit"), other = dir.appendingPathComponent("config/transit/plugins.conf.d")
        for folder in [used.appendingPathComponent("plugins.conf.d"), other] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        try "# no plugin\n".write(to: used.appendingPathComponent("plugins.conf.d/20-empty.conf"), atomically: true, encoding: .utf8)
        try "# written where it is not read\n".write(to: other.appendingPathComponent("50-myfamily.conf"), atomically: true, encoding: .utf8)
        let conf = used.appendingPathComponent("plugins.conf")
        try "cepas \(BuildProducts.plugin("TransitCEPAS"))\n".write(to: conf, atomically: true, encoding: .utf8)
        var env = ProcessInfo.processInfo.environment
        env["XDG_CONFIG_HOME"] = dir.appendingPathComponent("config").path
        let run = try CommandRun.transit(["plugins", "--config", conf.path], environment: env)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("drop-ins read from \(used.path)/plugins.conf.d: 20-empty.conf"), run.stdout)
        XCTAssertTrue(run.stdout.contains("not read: \(other.path) (50-myfamily.conf)"), run.stdout)
    }

    func testTheExampleBuildsWithoutAWarningAndHoldsNoTestVariants() throws {
        let source = try String(contentsOf: Self.root.appendingPathComponent("docs/examples/myfamily.c"), encoding: .utf8)
        XCTAssertFalse(source.contains("#ifdef"), "the example holds no test variants")
        let header = Self.root.appendingPathComponent("Sources/ReaderABI/include").path
        let strict = try CommandRun.run("/usr/bin/env", ["cc", "-std=c99", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-shared", "-fPIC", "-I", header,
                                                          Self.root.appendingPathComponent("docs/examples/myfamily.c").path, "-o", dir.appendingPathComponent("libstrict.so").path])
        XCTAssertEqual(strict.status, 0, "the example builds without a warning: \(strict.stderr)")
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

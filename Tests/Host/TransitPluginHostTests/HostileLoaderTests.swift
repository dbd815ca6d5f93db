import Foundation
import TestSupport
import XCTest

/// The loader as an attacker meets it: folders another user controls, swaps while transit runs,
/// FIFOs, truncated libraries, lying descriptors, plugins that keep the host table, misspelt
/// options, a plugins.conf planted in the current folder.
final class HostileLoaderTests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    private func conf(_ text: String, name: String = "plugins.conf") throws -> String {
        let url = dir.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        chmod(url.path, 0o644)
        return url.path
    }

    private func plugins(_ confPath: String) throws -> (run: CommandRun, rows: [[String: Any]]) {
        let run = try CommandRun.transit(["plugins", "--config", confPath, "--json"])
        let rows = (try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8))) as? [[String: Any]] ?? []
        return (run, rows)
    }

    /// Another user (nobody) owns a folder on the library's path and swaps, by renaming, the real
    /// plugin with a library whose constructor leaves a marker. transit runs as root all along:
    /// the folder is refused every time and the marker never appears.
    func testALibraryUnderAnotherUsersFolderIsRefusedWhateverItSwaps() throws {
        try XCTSkipUnless(getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "needs root and setpriv")
        let evil = dir.appendingPathComponent("evil")
        try FileManager.default.createDirectory(at: evil, withIntermediateDirectories: false)
        let marker = dir.appendingPathComponent("MARKER").path
        let bad = try CPluginBuilder.build(into: evil, name: "other.so", defines: ["MARKER=\"\(marker)\""], source: "marker_plugin.c")
        try FileManager.default.copyItem(atPath: BuildProducts.plugin("TransitJapanIC"), toPath: evil.appendingPathComponent("plugin.so").path)
        XCTAssertEqual(chown(evil.path, 65534, 65534), 0)
        XCTAssertEqual(chmod(evil.path, 0o755), 0) // not writable by everyone: only its owner, nobody
        _ = bad
        let attacker = Process()
        attacker.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        attacker.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", "/bin/sh", "-c",
                              "cd '\(evil.path)' && while :; do mv plugin.so t.so; mv other.so plugin.so; mv t.so other.so; done"]
        try attacker.run()
        defer { attacker.terminate(); attacker.waitUntilExit() }
        let path = try conf("japan-ic \(evil.path)/plugin.so\nlink \(dir.path)/link.so\n")
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("link.so").path, withDestinationPath: evil.path + "/plugin.so")
        var folderRefusals = 0
        for _ in 0 ..< 60 {
            let (run, rows) = try plugins(path)
            XCTAssertEqual(run.status, 2, run.stderr)
            XCTAssertEqual(rows.map { $0["state"] as? String }, ["refused", "refused"], run.stdout)
            for row in rows {
                // Caught mid-rename, the name is simply missing; otherwise the folder is refused.
                let reason = row["reason"] as? String ?? ""
                if reason.contains("its folder \(evil.path) is owned by user 65534") { folderRefusals += 1; continue }
                XCTAssertTrue(reason.hasSuffix("No such file or directory"), reason)
            }
        }
        XCTAssertGreaterThan(folderRefusals, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker), "the swapped-in library never ran")
    }

    func testAPluginsConfInTheCurrentFolderIsNeverRead() throws {
        let marker = dir.appendingPathComponent("MARKER").path
        let bad = try CPluginBuilder.build(into: dir, name: "libTransitJapanIC.so", defines: ["MARKER=\"\(marker)\""], source: "marker_plugin.c")
        _ = try conf("japan-ic \(bad)\n")
        let run = try CommandRun.transit(["decode", BuildProducts.sample("suica.json")], currentDirectory: dir)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(run.stdout.contains("\"balance\":2010"), run.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker))
    }

    func testAFIFOAsLibraryOrConfNeverBlocks() throws {
        let fifo = dir.appendingPathComponent("fifo.so").path
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        let (run, rows) = try plugins(try conf("fifo \(fifo)\n"))
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue((rows.first?["reason"] as? String)?.contains("is not a regular file") == true, run.stdout)
        let asConf = try CommandRun.transit(["scan", "--config", fifo, "--card", BuildProducts.sample("suica.json"), "--json"])
        XCTAssertEqual(asConf.status, 2)
        XCTAssertTrue(((asConf.json?["error"] as? [String: Any])?["message"] as? String)?.contains("not a regular file") == true, asConf.stdout)
    }

    func testATruncatedLibraryIsRefusedAndTheOthersStillRead() throws {
        let truncated = dir.appendingPathComponent("truncated.so")
        let whole = try Data(contentsOf: URL(fileURLWithPath: BuildProducts.plugin("TransitJapanIC")))
        try whole.prefix(whole.count * 2 / 5).write(to: truncated)
        let path = try conf("japan-ic \(truncated.path)\ncepas \(BuildProducts.plugin("TransitCEPAS"))\n")
        let (run, rows) = try plugins(path)
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue((rows.first?["reason"] as? String)?.contains("is truncated") == true, run.stdout)
        XCTAssertEqual(rows.last?["state"] as? String, "loaded")
        let scan = try CommandRun.transit(["scan", "--config", path, "--card", BuildProducts.sample("ezlink.json"), "--json"])
        XCTAssertEqual(scan.status, 0, scan.stderr)
        XCTAssertEqual(scan.json?["balance"] as? Int, 897)
        XCTAssertTrue(scan.stderr.contains("plugin japan-ic"), scan.stderr)
    }

    func testADescriptorClaimingHugeCountsIsRefusedUnread() throws {
        let lib = try CPluginBuilder.build(into: dir, name: "libhuge.so", defines: ["DEMO_HUGE_SYSTEM_CODES"])
        let (run, rows) = try plugins(try conf("demo \(lib)\n"))
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertTrue((rows.first?["reason"] as? String)?.contains("claims 18446744073709551615 system codes") == true, run.stdout)
    }

    func testAHostTableKeptPastItsReadOrUsedFromAnotherThreadIsRefused() throws {
        let lib = try CPluginBuilder.build(into: dir, name: "libkeeper.so", source: "table_keeper_plugin.c")
        let card = try CardImages.write(CardImages.iso(select: "00A4040008F07472616E73697400", commands: ["805C000004": "000001029000"]), in: dir)
        let run = try CommandRun.transit(["decode", "--config", try conf("keeper \(lib) note=kept-option\n"), card, card])
        let cards = run.stdout.split(separator: "\n").map { line -> [String: Any] in
            ((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any])?["card"] as? [String: Any] ?? [:]
        }
        XCTAssertEqual(cards.count, 2, run.stdout + run.stderr)
        XCTAssertEqual(cards.first?["serialNumber"] as? String, "FIRST-READ")
        XCTAssertEqual(cards.first?["cardName"] as? String, "THREAD-REFUSED")
        XCTAssertEqual(cards.last?["serialNumber"] as? String, "STALE-REFUSED", "the old table reaches nothing")
        XCTAssertEqual((cards.last?["metadata"] as? [String: String])?["option"], "kept-option", "a kept option string stays readable")
    }

    func testMisspeltOrBadOptionsAreConfigErrorsAtLoad() throws {
        let octopus = BuildProducts.plugin("TransitOctopus")
        let misspelt = try conf("octopus \(octopus) balanceoffset=500\n")
        let scan = try CommandRun.transit(["scan", "--config", misspelt, "--card", BuildProducts.sample("octopus.json"), "--json"])
        XCTAssertEqual(scan.status, 2, scan.stdout)
        XCTAssertEqual((scan.json?["error"] as? [String: Any])?["message"] as? String,
                       "\(misspelt):1: plugin octopus: unknown option balanceoffset (it takes: balance-offset)")
        let (run, rows) = try plugins(misspelt)
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(rows.first?["state"] as? String, "misconfigured")
        let badValue = try conf("octopus \(octopus) balance-offset=lots\n", name: "bad-value.conf")
        let other = try CommandRun.transit(["scan", "--config", badValue, "--card", BuildProducts.sample("suica.json"), "--json"])
        XCTAssertEqual(other.status, 2, "found at load, whatever card is read: \(other.stdout)")
        XCTAssertTrue(((other.json?["error"] as? [String: Any])?["message"] as? String)?.contains("takes a whole number") == true)
    }

    func testEveryPluginRefusedIsAConfigError() throws {
        let path = try conf("japan-ic /nonexistent/libTransitJapanIC.so\n")
        let run = try CommandRun.transit(["scan", "--config", path, "--card", BuildProducts.sample("suica.json"), "--json"])
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual((run.json?["error"] as? [String: Any])?["kind"] as? String, "config")
        XCTAssertTrue(run.stderr.contains("plugin japan-ic"), run.stderr)
    }

    func testStrayOperandsAndOptionsAsValuesAreUsageErrors() throws {
        let stray = try CommandRun.transit(["scan", BuildProducts.sample("suica.json"), "--json"])
        XCTAssertEqual(stray.status, 2)
        XCTAssertTrue(((stray.json?["error"] as? [String: Any])?["message"] as? String)?.contains("--card FILE") == true, stray.stdout)
        let swallowed = try CommandRun.transit(["scan", "--reader", "--json"])
        XCTAssertEqual(swallowed.status, 2)
        XCTAssertTrue(swallowed.stderr.contains("--reader needs a value, not the option --json"), swallowed.stderr)
        XCTAssertEqual(try CommandRun.transit(["replay", "a.json", "b.json"]).status, 2)
    }

    func testCtrlCDuringACardImageReadOrDecodeIsCancelled() throws {
        let lib = try CPluginBuilder.build(into: dir, name: "libbad.so", source: "misbehaving_plugin.c")
        // The plugin warns (a warning reaches stderr without --verbose) just before it sleeps for an hour.
        let path = try conf("bad \(lib) misbehave=sleep announce=sleeping-for-an-hour\n")
        for command in [["scan", "--json", "--card"], ["decode"]] {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: BuildProducts.transit)
            p.arguments = command + [BuildProducts.sample("ezlink.json"), "--config", path]
            let out = Pipe(), err = Pipe()
            p.standardOutput = out
            p.standardError = err
            let said = StreamLines(reading: err)
            try p.run()
            defer { if p.isRunning { p.terminate() } }
            // Ctrl-C once the plugin's read is under way: the warning came over the worker's link.
            XCTAssertTrue(said.wait(forLineContaining: "transit: bad: warning: sleeping-for-an-hour"), "\(command): \(said.all)")
            p.interrupt()
            let output = out.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            XCTAssertEqual(p.terminationStatus, 130, "\(command)")
            let json = try JSONSerialization.jsonObject(with: output) as? [String: Any]
            XCTAssertEqual((json?["error"] as? [String: Any])?["kind"] as? String, "cancelled", "\(command)")
        }
    }
}

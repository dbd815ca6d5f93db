import Foundation
import TestSupport
import XCTest

/// Plugins that misbehave end the read as a plugin fault naming them; untrusted files are refused.
final class PluginFaultTests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    let card = CardImages.iso(select: "00A4040008F07472616E73697400", commands: ["805C000004": "000001029000"])

    func testPluginPastItsExchangeBudgetIsAFaultAndNoPluginRunsAfterIt() throws {
        let loop = try CPluginBuilder.build(into: dir, name: "libloop.so", defines: ["DEMO_LOOP", "DEMO_NAME=\"loop\""])
        let demo = try CPluginBuilder.build(into: dir)
        let outcome = try PluginRead.read(card, plugins: [.init("loop", loop), .init("demo", demo)])
        XCTAssertEqual(outcome.error?.kind, .plugin)
        XCTAssertEqual(outcome.error?.plugin, "loop")
        XCTAssertEqual(outcome.error?.message, "plugin loop went past its budget of 1000 exchanges; its read was ended")
        XCTAssertEqual(outcome.exchanges, 1 + 1000, "the host's FF CA, then no exchange reaches the card past the budget")
        XCTAssertNil(outcome.reading, "the plugin's \"not this card\" does not let the next plugin run")
    }

    func testPluginPastItsTimeBudgetIsAFault() throws {
        let loop = try CPluginBuilder.build(into: dir, name: "libloop.so", defines: ["DEMO_LOOP", "DEMO_NAME=\"loop\""])
        // The plugin's own budget (PluginInvocation), in process: a worker would first meet the read's
        // deadline, which the worker tests check.
        let outcome = try PluginRead.read(card, plugins: [.init("loop", loop)], budget: (exchanges: Int.max, seconds: 0.05), runner: .inProcess)
        XCTAssertEqual(outcome.error?.kind, .plugin)
        XCTAssertTrue(outcome.error?.message.contains("went past its budget of 0.05 seconds") == true, outcome.error?.message ?? "")
    }

    func testWritablePluginsConfIsRefused() throws {
        let conf = dir.appendingPathComponent("plugins.conf")
        try "japan-ic \(BuildProducts.plugin("TransitJapanIC"))\n".write(to: conf, atomically: true, encoding: .utf8)
        // Group-writable, and the group (users) is not the owner's private group.
        XCTAssertEqual(chown(conf.path, getuid(), 100), 0)
        XCTAssertEqual(chmod(conf.path, 0o664), 0)
        let run = try CommandRun.transit(["scan", "--config", conf.path, "--card", BuildProducts.sample("suica.json"), "--json"])
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual((run.json?["error"] as? [String: Any])?["message"] as? String,
                       "\(conf.path) is not trusted: \(conf.path) is writable by its group")
    }

    func testWorldWritablePluginIsRefusedWithTheReason() throws {
        let lib = try CPluginBuilder.build(into: dir)
        XCTAssertEqual(chmod(lib, 0o757), 0)
        let conf = dir.appendingPathComponent("plugins.conf")
        try "demo \(lib)\n".write(to: conf, atomically: true, encoding: .utf8)
        let run = try CommandRun.transit(["plugins", "--config", conf.path])
        XCTAssertTrue(run.stdout.contains("demo\trefused"), run.stdout)
        XCTAssertTrue(run.stdout.contains("is not trusted: \(lib) is writable by everyone"), run.stdout)
    }
}

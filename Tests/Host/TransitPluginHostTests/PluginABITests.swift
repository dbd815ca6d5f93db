import CardSimulation
import TestSupport
import XCTest
import CardProtocol
import TransitModel
import TransitFiles
import TransitPluginHost
import TransitStations
import TransitArchive
import TransitOutput

/// The ABI proven with a plugin in plain C, built from the header alone.
final class PluginABITests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    /// A card answering the demo plugin's AID with a balance of 0x0102 = 258.
    let demoCard = CardImages.iso(select: "00A4040008F07472616E73697400", commands: ["805C000004": "000001029000"])

    private func entry(_ name: String, _ path: String) -> PluginConfig.Entry {
        PluginConfig.Entry(name: name, library: path, options: [:], line: 1)
    }

    func testPlainCPluginLoadsAndReads() throws {
        let lib = try CPluginBuilder.build(into: dir)
        let outcome = try PluginRead.read(demoCard, plugins: [.init("demo", lib, options: ["currency": "NZD"])])
        let r = try XCTUnwrap(outcome.reading, "\(String(describing: outcome.error))")
        XCTAssertEqual(r.family, "demo")
        XCTAssertEqual(r.serialNumber, "DEMO-0001")
        XCTAssertEqual(r.balance, 258)
        XCTAssertEqual(r.currency, "NZD") // from the plugins.conf option
        XCTAssertEqual(r.transactions.first?.type, .topup)
        XCTAssertEqual(r.transactions.first?.amount, 258)
        XCTAssertEqual(r.transactions.first?.date?.description, "2026-01-02T03:04:05+01:00")
        XCTAssertEqual(r.transactions.first?.metadata, ["source": "c"])
    }

    func testWrongABIVersionIsRefusedNamingFileAndOffer() throws {
        let lib = try CPluginBuilder.build(into: dir, name: "libwrong.so", defines: ["DEMO_WRONG_ABI"])
        let p = PluginLoader.load(entry("demo", lib), path: lib)
        XCTAssertEqual(p.state, .refused(.init("offers ABI 2; this host speaks ABI 1")))
        // `transit plugins` shows the path and the reason.
        let conf = dir.appendingPathComponent("plugins.conf")
        try "demo libwrong.so\n".write(to: conf, atomically: true, encoding: .utf8)
        let run = try CommandRun.transit(["plugins", "--config", conf.path])
        XCTAssertEqual(run.status, 2, "a refused plugin is a configuration to fix")
        XCTAssertTrue(run.stdout.contains("demo\trefused\tABI 2\t\(lib)\t(offers ABI 2; this host speaks ABI 1)"), run.stdout)
    }

    func testEntryAnsweringNullAndMissingSymbolAreRefused() throws {
        let lib = try CPluginBuilder.build(into: dir, name: "libnull.so", defines: ["DEMO_REFUSE_ABI"])
        XCTAssertEqual(PluginLoader.load(entry("demo", lib), path: lib).state,
                       .refused(.init("does not speak ABI 1 (its entry point answered NULL)")))
        let notPlugin = "/lib/x86_64-linux-gnu/libc.so.6"
        guard case .refused(let why) = PluginLoader.load(entry("libc", notPlugin), path: notPlugin).state else { return XCTFail() }
        XCTAssertTrue(why.english.contains("exports no transit_plugin_entry_v1"), why.english)
        guard case .refused(let missing) = PluginLoader.load(entry("x", "/nonexistent.so"), path: "/nonexistent.so").state else { return XCTFail() }
        XCTAssertTrue(missing.english.hasPrefix("cannot be loaded"), missing.english)
    }

    func testNameMustMatchTheConf() throws {
        let lib = try CPluginBuilder.build(into: dir, name: "libother.so", defines: ["DEMO_NAME=\"other\""])
        XCTAssertEqual(PluginLoader.load(entry("demo", lib), path: lib).state, .refused(.init("calls itself other, but plugins.conf names it demo")))
    }

    func testUnknownStatusIsAPluginFaultNamingThePlugin() throws {
        let lib = try CPluginBuilder.build(into: dir, name: "libbad.so", defines: ["DEMO_UNKNOWN_STATUS"])
        let outcome = try PluginRead.read(demoCard, plugins: [.init("demo", lib)])
        XCTAssertEqual(outcome.error?.kind, .plugin)
        XCTAssertEqual(outcome.error?.plugin, "demo")
        XCTAssertEqual(outcome.error?.message, "plugin demo returned unknown status 42 (a plugin fault)")
        XCTAssertEqual(outcome.error?.kind.exitCode, 5)
    }

    func testUnloadableLibraryIsSkippedAndTheRestStillRead() throws {
        let lib = try CPluginBuilder.build(into: dir)
        let conf = dir.appendingPathComponent("plugins.conf")
        try "missing libnothere.so\ndemo \(lib)\n".write(to: conf, atomically: true, encoding: .utf8)
        let card = try CardImages.write(demoCard, in: dir)
        let run = try CommandRun.transit(["scan", "--config", conf.path, "--card", card, "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.json?["balance"] as? Int, 258)
        XCTAssertTrue(run.stderr.contains("plugin missing"), run.stderr)
    }
}

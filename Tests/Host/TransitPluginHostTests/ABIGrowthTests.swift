import Foundation
import TestSupport
import XCTest

/// The ABI grows without breaking: its layout is pinned, a plugin built before a field was
/// appended loads on this host, a plugin of a later release loads here too, and plugins run on a
/// host of the first release (a plain-C host whose table ends where the first release's did).
final class ABIGrowthTests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    let demoCard = CardImages.iso(select: "00A4040008F07472616E73697400", commands: ["805C000004": "000001029000"])
    private var include: String { BuildProducts.packageRoot.appendingPathComponent("Sources/ReaderABI/include").path }
    private func fixture(_ name: String) -> String { BuildProducts.packageRoot.appendingPathComponent("Tests/Fixtures/\(name)").path }

    private func scan(_ lib: String, options: String = "") throws -> CommandRun {
        let conf = dir.appendingPathComponent("plugins.conf")
        try "demo \(lib) \(options)\n".write(to: conf, atomically: true, encoding: .utf8)
        return try CommandRun.transit(["scan", "--config", conf.path, "--card", try CardImages.write(demoCard, in: dir), "--json"])
    }

    func testTheLayoutOfEveryReleasedFieldIsPinned() throws {
        let run = try CommandRun.run("/usr/bin/env", ["cc", "-std=c11", "-fsyntax-only", "-I", include, fixture("abi_layout.c")])
        XCTAssertEqual(run.status, 0, run.stderr)
    }

    func testAPluginBuiltBeforeTheOptionsFieldsLoadsOnThisHost() throws {
        let lib = try CPluginBuilder.build(into: dir, name: "libold.so", defines: ["DEMO_OLD_DESCRIPTOR"])
        let run = try scan(lib)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.json?["balance"] as? Int, 258)
        XCTAssertEqual(run.json?["currency"] as? String, "EUR")
        // It declares no options (its descriptor ends before them): an option on its line is refused.
        XCTAssertEqual(try scan(lib, options: "currency=NZD").status, 2)
    }

    func testAPluginOfALaterReleaseLoadsAndFindsTheAppendedFields() throws {
        let lib = try CPluginBuilder.build(into: dir, name: "libnewer.so", defines: ["DEMO_NEWER"])
        let run = try scan(lib, options: "currency=NZD")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.json?["currency"] as? String, "NZD")
        // The card image's ATR carries the five default historical bytes 80 73 C8 21 10.
        XCTAssertEqual(run.json?["cardName"] as? String, "historical bytes: 5")
    }

    func testPluginsRunOnAHostOfTheFirstRelease() throws {
        let host = dir.appendingPathComponent("old_host").path
        let built = try CommandRun.run("/usr/bin/env", ["cc", "-std=c99", "-I", include, fixture("old_host.c"), "-o", host, "-ldl"])
        XCTAssertEqual(built.status, 0, built.stderr)
        // A C plugin that checks TRANSIT_HOST_HAS does without the appended fields.
        let newer = try CPluginBuilder.build(into: dir, name: "libnewer.so", defines: ["DEMO_NEWER"])
        let c = try CommandRun.run(host, [newer, "demo", "00A4040008F07472616E73697400=9000", "805C000004=000001029000"])
        XCTAssertEqual(c.status, 0, c.stdout + c.stderr)
        XCTAssertTrue(c.stdout.contains("field cardName=no historical bytes"), c.stdout)
        XCTAssertTrue(c.stdout.contains("balance 258"), c.stdout)
        // A Swift plugin (PluginKit) too: CEPAS reads the EZ-Link sample's recorded answers.
        let cepas = try CommandRun.run(host, [BuildProducts.plugin("TransitCEPAS"), "cepas",
            "00A40000024000=9000",
            "9032030000=02010003810000001009123456789012800000001122334432A4256200000000000000000000000004000000000000000000000000000000000000000000009000",
            "90320300010000=30FFFF803BFA11224247422D5450472031FFFF9D3BF949234255532031373420750007D03BF7A2C0544F502D55502020A0FFFF923BF6271054495432373834209000"])
        XCTAssertEqual(cepas.status, 0, cepas.stdout + cepas.stderr)
        XCTAssertTrue(cepas.stdout.contains("balance 897"), cepas.stdout)
        XCTAssertTrue(cepas.stdout.contains("field serialNumber=1009123456789012"), cepas.stdout)
    }

    // MARK: - Release 4: passes, a reading without a balance, personal data, log levels

    private func scanPasses(_ extra: [String] = []) throws -> CommandRun {
        let lib = try CPluginBuilder.build(into: dir, name: "libpasses.so", defines: ["DEMO_NEWER", "DEMO_PASSES"])
        let conf = dir.appendingPathComponent("plugins.conf")
        try "demo \(lib)\n".write(to: conf, atomically: true, encoding: .utf8)
        return try CommandRun.transit(["scan", "--config", conf.path, "--card", try CardImages.write(demoCard, in: dir), "--no-save"] + extra)
    }

    func testAPluginOfRelease4GivesPassesAndNoBalanceInJSON() throws {
        let run = try scanPasses(["--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let json = try XCTUnwrap(run.json)
        // The card holds no stored value: no balance, not 0.
        XCTAssertNil(json["balance"], run.stdout)
        let passes = try XCTUnwrap(json["passes"] as? [[String: Any]], run.stdout)
        XCTAssertEqual(passes.count, 2)
        XCTAssertEqual(passes[0]["name"] as? String, "Monthly pass")
        XCTAssertEqual(passes[0]["tariff"] as? String, "0001")
        XCTAssertEqual(passes[0]["validFrom"] as? String, "2026-12-01")
        XCTAssertEqual(passes[0]["validUntil"] as? String, "2026-12-31")
        XCTAssertEqual(passes[0]["zones"] as? String, "1-5")
        XCTAssertEqual(passes[0]["status"] as? String, "valid")
        XCTAssertEqual((passes[0]["metadata"] as? [String: String])?["network"], "250901")
        XCTAssertNil(passes[0]["remainingTrips"])
        XCTAssertEqual(passes[1]["tariff"] as? String, "5000")
        // "-1" was refused, so the 7 set before it stands.
        XCTAssertEqual(passes[1]["remainingTrips"] as? Int, 7)
        XCTAssertNil(passes[1]["name"])
        // The holder's name is personal data: left out unless asked.
        XCTAssertNil((json["metadata"] as? [String: String])?["personal.name"], run.stdout)
        // A plugin's warning is said without --verbose, labelled; its debug line is not.
        XCTAssertTrue(run.stderr.contains("demo: warning: two passes written"), run.stderr)
        XCTAssertFalse(run.stderr.contains("a debug line"), run.stderr)
    }

    func testPersonalDataShowsOnlyWithPersonal() throws {
        let asked = try scanPasses(["--json", "--personal"])
        XCTAssertEqual(asked.status, 0, asked.stderr)
        XCTAssertEqual((asked.json?["metadata"] as? [String: String])?["personal.name"], "Jeanne Exemple")
        let text = try scanPasses()
        XCTAssertFalse(text.stdout.contains("Jeanne"), text.stdout)
    }

    func testVerboseLabelsEachLogLineWithItsLevel() throws {
        let run = try scanPasses(["--verbose"])
        XCTAssertTrue(run.stderr.contains("demo: debug: a debug line"), run.stderr)
        XCTAssertTrue(run.stderr.contains("demo: demo card selected"), run.stderr)
    }

    func testTheTextSaysPassesAboveTheRecordsAndNoStoredValue() throws {
        let run = try scanPasses()
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stdout.components(separatedBy: "\n")
        XCTAssertTrue(lines.contains("Balance: none (the card holds no stored value)"), run.stdout)
        let passes = try XCTUnwrap(lines.firstIndex(of: "Passes"), run.stdout)
        let records = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("Date") }, run.stdout)
        XCTAssertLessThan(passes, records)
        XCTAssertTrue(lines[passes + 1].hasPrefix("  Monthly pass  ·  valid 2026-12-01 to 2026-12-31  ·  zones 1-5"), run.stdout)
        // Tariff 5000 ended on 2026-11-30; today (2026-12-02 or later, the machine's zone) it has expired.
        XCTAssertEqual(lines[passes + 2], "  tariff 5000  ·  valid until 2026-11-30  ·  7 trips left  ·  EXPIRED", run.stdout)
    }

    func testAPluginOfRelease4RunsOnAHostOfTheFirstRelease() throws {
        let host = dir.appendingPathComponent("old_host").path
        let built = try CommandRun.run("/usr/bin/env", ["cc", "-std=c99", "-I", include, fixture("old_host.c"), "-o", host, "-ldl"])
        XCTAssertEqual(built.status, 0, built.stderr)
        let lib = try CPluginBuilder.build(into: dir, name: "libpasses.so", defines: ["DEMO_NEWER", "DEMO_PASSES"])
        let c = try CommandRun.run(host, [lib, "demo", "00A4040008F07472616E73697400=9000", "805C000004=000001029000"])
        XCTAssertEqual(c.status, 0, c.stdout + c.stderr)
        // TRANSIT_HOST_HAS said no: no pass call, and the balance the old host requires.
        XCTAssertTrue(c.stdout.contains("field cardName=no passes on this host"), c.stdout)
        XCTAssertTrue(c.stdout.contains("balance 258"), c.stdout)
    }

    func testASwiftPluginWithPassesRunsOnAHostOfTheFirstRelease() throws {
        let host = dir.appendingPathComponent("old_host").path
        let built = try CommandRun.run("/usr/bin/env", ["cc", "-std=c99", "-I", include, fixture("old_host.c"), "-o", host, "-ldl"])
        XCTAssertEqual(built.status, 0, built.stderr)
        // The blank MOBIB sample as transit reads it (its log bundle gives the two answers the
        // calypso plugin asks for): a card without a stored value, which a first-release host
        // cannot hold: PluginKit gives it 0 there and says why in a warning.
        let log = dir.appendingPathComponent("mobib.log.json")
        let scan = try CommandRun.transit(["scan", "--no-save", "--card", BuildProducts.sample("mobib-blank.json"), "--log", log.path])
        XCTAssertEqual(scan.status, 0, scan.stderr)
        let bundle = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: log)) as? [String: Any])
        let pairs = (bundle["exchanges"] as? [[String: Any]] ?? []).compactMap { x -> String? in
            guard let c = x["command"] as? String, let r = x["response"] as? String, !c.hasPrefix("FF") else { return nil }
            return "\(c)=\(r)"
        }
        let c = try CommandRun.run(host, [BuildProducts.plugin("TransitCalypso"), "calypso"] + pairs)
        XCTAssertEqual(c.status, 0, c.stdout + c.stderr)
        XCTAssertTrue(c.stdout.contains("field cardName=MOBIB"), c.stdout)
        XCTAssertTrue(c.stdout.contains("balance 0"), c.stdout)
        XCTAssertTrue(c.stdout.contains("log this host predates cards without a stored value"), c.stdout)
    }
}

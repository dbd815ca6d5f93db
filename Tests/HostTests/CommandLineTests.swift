import CardSimulation
import TestSupport
import XCTest

/// The CLI contract scripts depend on: JSON shapes, error kinds, exit codes.
final class CommandLineTests: XCTestCase {
    func testScansTheBundledSampleCardImage() throws {
        let run = try CommandRun.transit(["scan", "--card", BuildProducts.sample("suica.json"), "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let json = try XCTUnwrap(run.json)
        XCTAssertEqual(json["family"] as? String, "japan-ic")
        XCTAssertEqual(json["balance"] as? Int, 2010)
        XCTAssertEqual(json["currency"] as? String, "JPY")
        XCTAssertEqual((json["transactions"] as? [Any])?.count, 5)
    }

    func testTextOutputShowsBalanceInItsCurrencyAndATable() throws {
        let run = try CommandRun.transit(["scan", "--card", BuildProducts.sample("ezlink.json")])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("Balance: S$8.97"), run.stdout)
        // One date-time column in the card's zone (Singapore, +08:00, named once in the title).
        XCTAssertTrue(run.stdout.contains("Date (UTC+08:00)     Type       Amount  Details"), run.stdout)
        XCTAssertTrue(run.stdout.contains("2026-11-18 12:00:00  top-up   +S$20.00  TOP-UP"), run.stdout)
    }

    func testUnknownFamilyIsTagNotSupportedExit4() throws {
        let run = try CommandRun.transit(["scan", "--card", BuildProducts.sample("unknown-iso.json"), "--json"])
        XCTAssertEqual(run.status, 4)
        let error = try XCTUnwrap(run.json?["error"] as? [String: Any])
        XCTAssertEqual(error["kind"] as? String, "tagNotSupported")
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, "one line on stderr")
    }

    func testUsageAndConfigErrorsExit2() throws {
        let bad = try CommandRun.transit(["scan", "--dialect", "morse", "--json"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertEqual((bad.json?["error"] as? [String: Any])?["kind"] as? String, "config")
        XCTAssertEqual(try CommandRun.transit(["frobnicate"]).status, 2)
        XCTAssertEqual(try CommandRun.transit(["scan", "--bogus"]).status, 2)

        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let conf = dir.appendingPathComponent("plugins.conf")
        try "japan-ic libTransitJapanIC.so\noops\n".write(to: conf, atomically: true, encoding: .utf8)
        let run = try CommandRun.transit(["scan", "--config", conf.path, "--card", BuildProducts.sample("suica.json"), "--json"])
        XCTAssertEqual(run.status, 2)
        let error = try XCTUnwrap(run.json?["error"] as? [String: Any])
        XCTAssertEqual(error["kind"] as? String, "config")
        XCTAssertEqual(error["message"] as? String, "\(conf.path):2: expected `name library [key=value …]`")
    }

    func testHelpAndVersion() throws {
        XCTAssertTrue(try CommandRun.transit(["--version"]).stdout.hasPrefix("transit "))
        for command in ["scan", "readers", "plugins"] {
            let run = try CommandRun.transit([command, "--help"])
            XCTAssertEqual(run.status, 0)
            XCTAssertTrue(run.stdout.hasPrefix("transit \(command)"), run.stdout)
        }
        XCTAssertTrue(try CommandRun.transit(["--help"]).stdout.contains("Exit codes"))
    }

    func testPluginsListsTheDefaultOrderWithPathsAndABI() throws {
        let run = try CommandRun.transit(["plugins", "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let rows = try XCTUnwrap((try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8))) as? [[String: Any]])
        XCTAssertEqual(rows.map { $0["name"] as? String }, ["japan-ic", "edy", "waon", "nanaco", "octopus", "cepas", "ksx6924", "tunion"])
        XCTAssertEqual(Set(rows.map { $0["state"] as? String }), ["loaded"])
        XCTAssertEqual(Set(rows.map { $0["abiVersion"] as? Int }), [1])
        XCTAssertEqual(rows.first?["path"] as? String, BuildProducts.plugin("TransitJapanIC"))
    }
}

import Foundation
import TestSupport
import XCTest

/// The archive keeps each read's passes (schema 6): `cards` shows the current ones, `history --json`
/// and `export --format json` carry them, `report` names those valid in its period; a card with no
/// stored value keeps no balance, and the holder's personal data is never stored.
final class PassArchiveTests: XCTestCase {
    var fixture: ArchiveFixture!
    var card: String!
    var conf: String!

    override func setUpWithError() throws {
        fixture = ArchiveFixture()
        let dir = fixture.directory
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        // The C plugin's release-4 variant: a monthly pass 0001 (2026-12-01 to 2026-12-31, zones 1-5)
        // and a carnet 5000 (until 2026-11-30, 7 trips), no balance, personal.name set.
        let lib = try CPluginBuilder.build(into: dir, name: "libpasses.so", defines: ["DEMO_NEWER", "DEMO_PASSES"])
        conf = dir.appendingPathComponent("plugins.conf").path
        try "demo \(lib)\n".write(toFile: conf, atomically: true, encoding: .utf8)
        card = try CardImages.write(CardImages.iso(select: "00A4040008F07472616E73697400", commands: ["805C000004": "000001029000"]), in: dir)
        let scan = try fixture.transit(["scan", "--config", conf, "--card", card])
        XCTAssertEqual(scan.status, 0, scan.stderr)
    }

    override func tearDown() { fixture.remove() }

    private func json(_ args: [String]) throws -> Any {
        let run = try fixture.transit(args)
        XCTAssertEqual(run.status, 0, run.stderr)
        return try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
    }

    private func tariffs(_ passes: Any?) -> [String] {
        (passes as? [[String: Any]] ?? []).compactMap { $0["tariff"] as? String }
    }

    func testCardsShowTheCurrentPassesAndNoBalance() throws {
        let cards = try XCTUnwrap(try json(["cards", "--json"]) as? [[String: Any]])
        XCTAssertEqual(cards.count, 1)
        XCTAssertNil(cards[0]["balance"], "a card without a stored value has no balance")
        XCTAssertEqual(tariffs(cards[0]["passes"]), ["0001", "5000"])
        let text = try fixture.transit(["cards"])
        XCTAssertTrue(text.stdout.contains("Passes (as last read)"), text.stdout)
        XCTAssertTrue(text.stdout.contains("#1  Monthly pass  ·  valid 2026-12-01 to 2026-12-31  ·  zones 1-5"), text.stdout)
    }

    func testHistoryAndExportCarryThePasses() throws {
        let history = try XCTUnwrap(try json(["history", "--json"]) as? [[String: Any]])
        XCTAssertEqual(tariffs(history.first?["passes"]), ["0001", "5000"])
        let export = try XCTUnwrap(try json(["export", "--format", "json"]) as? [[String: Any]])
        XCTAssertEqual(tariffs(export.first?["passes"]), ["0001", "5000"])
        let carnet = (export.first?["passes"] as? [[String: Any]])?.last
        XCTAssertEqual(carnet?["remainingTrips"] as? Int, 7)
    }

    func testTheReportNamesThePassesValidInItsPeriod() throws {
        let december = try XCTUnwrap(try json(["report", "#1", "--month", "2026-12", "--format", "json"]) as? [String: Any])
        XCTAssertEqual(tariffs(december["passes"]), ["0001"], "the carnet ended on 2026-11-30")
        let november = try XCTUnwrap(try json(["report", "#1", "--month", "2026-11", "--format", "json"]) as? [String: Any])
        XCTAssertEqual(tariffs(november["passes"]), ["5000"], "the monthly pass starts on 2026-12-01")
        let march = try XCTUnwrap(try json(["report", "#1", "--month", "2027-03", "--format", "json"]) as? [String: Any])
        XCTAssertNil(march["passes"])
        let text = try fixture.transit(["report", "--month", "2026-12"])
        XCTAssertTrue(text.stdout.contains("Passes valid in this period:\n  Monthly pass  ·  valid 2026-12-01 to 2026-12-31"), text.stdout)
    }

    func testTheArchiveKeepsNoPersonalDataAndANullBalance() throws {
        // An independent client (python3's sqlite3) reads what was stored.
        XCTAssertEqual(try fixture.sql("SELECT balance IS NULL, instr(reading, 'Jeanne') FROM reads"), "1|0\n")
        XCTAssertEqual(try fixture.sql("SELECT count(*), sum(instr(pass, 'Jeanne')) FROM passes"), "2|0\n")
        XCTAssertEqual(try fixture.sql("PRAGMA user_version"), "6\n")
        // Even when the read showed it.
        let shown = try fixture.transit(["scan", "--config", conf, "--card", card, "--personal", "--json"])
        XCTAssertTrue(shown.stdout.contains("Jeanne Exemple"), shown.stdout)
        XCTAssertEqual(try fixture.sql("SELECT count(*), sum(instr(reading, 'Jeanne')) FROM reads"), "2|0\n")
    }
}

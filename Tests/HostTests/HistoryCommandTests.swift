import Foundation
import TestSupport
import XCTest

/// `transit cards`, `history`, `export` and `forget` as a user sees them.
final class HistoryCommandTests: XCTestCase {
    var archive: ArchiveFixture!
    override func setUp() {
        archive = ArchiveFixture()
        for name in ["suica", "ezlink", "tmoney"] { _ = try? archive.scan(BuildProducts.sample("\(name).json")) }
    }
    override func tearDown() { archive.remove() }

    func testCardsListsEachCardWithItsBalanceAndRecords() throws {
        let run = try archive.transit(["cards"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 4, run.stdout)
        XCTAssertTrue(lines[1].contains("012E4CD8A1B2C3D4") && lines[1].contains("¥2,010") && lines[1].hasSuffix(" 5"), String(lines[1]))
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(archive.transit(["cards", "--json"]).stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(json.map { $0["family"] as? String }, ["japan-ic", "cepas", "ksx6924"])
        XCTAssertEqual(json.first?["records"] as? Int, 5)
    }

    func testACardIsNamedByItsNumberAPrefixOrItsIDm() throws {
        XCTAssertEqual(try archive.history("012E4CD8A1B2C3D4").count, 1)
        XCTAssertEqual(try archive.history("012e4c").first?["family"] as? String, "japan-ic")
        let none = try archive.transit(["history", "99999"])
        XCTAssertEqual(none.status, 2)
        XCTAssertTrue(none.stderr.contains("no card 99999"), none.stderr)
        XCTAssertEqual(try archive.transit(["history", "0"]).status, 0, "only the Suica's number starts with 0")
    }

    func testHistoryPrintsTheTimelineOldestFirstAndSince() throws {
        let run = try archive.transit(["history", "012E4CD8A1B2C3D4"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let rows = run.stdout.split(separator: "\n").filter { $0.hasPrefix("2026-") }
        XCTAssertEqual(rows.count, 5)
        XCTAssertTrue(rows.last?.contains("E33B → E621") ?? false, run.stdout)
        XCTAssertTrue(rows.last?.contains("-¥160") ?? false, run.stdout)
        let since = try archive.transit(["history", "012E4CD8A1B2C3D4", "--since", "2026-11-04"])
        XCTAssertEqual(since.stdout.split(separator: "\n").filter { $0.hasPrefix("2026-") }.count, 2)
        XCTAssertEqual(try archive.transit(["history", "--since", "yesterday"]).status, 2)
    }

    func testCSVReadsBackToTheSameRows() throws {
        let out = archive.directory.appendingPathComponent("history.csv").path
        let run = try archive.transit(["export", "--format", "csv", "--out", out])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual((try FileManager.default.attributesOfItem(atPath: out)[.posixPermissions] as? Int), 0o600)
        // Python's csv module, an independent RFC 4180 reader.
        let script = "import csv,json,sys\nprint(json.dumps(list(csv.reader(open(sys.argv[1], newline='')))))"
        let parsed = try CommandRun.run("/usr/bin/python3", ["-c", script, out])
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(parsed.stdout.utf8)) as? [[String]])
        XCTAssertEqual(rows.first, ["card", "date", "time", "type", "amount", "balance", "entry_station", "entry_station_name",
                                    "exit_station", "exit_station_name", "currency"])
        let history = try archive.history()
        XCTAssertEqual(rows.count - 1, history.reduce(0) { $0 + (($1["transactions"] as? [Any])?.count ?? 0) })
        let suica = rows.filter { $0[0] == "012E4CD8A1B2C3D4" }
        // Balances as the card stored them (bytes 10–11): 2010 after the 160 trip, 2170 before it.
        XCTAssertEqual(suica.last, ["012E4CD8A1B2C3D4", "2026-11-05", "", "trip", "-160", "2010", "E33B", "", "E621", "", "JPY"])
        XCTAssertEqual(suica[3], ["012E4CD8A1B2C3D4", "2026-11-04", "13:45:00", "purchase", "-120", "2170", "", "", "", "", "JPY"])
        XCTAssertEqual(rows.filter { $0[10] == "SGD" }.map { $0[4] }, ["", "20.00", "-0.99", "-1.28"], "S$ in dollars and cents")
        // The same rows on stdout.
        let stdout = try archive.transit(["export"])
        XCTAssertEqual(stdout.stdout, try String(contentsOfFile: out, encoding: .utf8))
    }

    func testExportAsJSONIsWhatHistoryPrints() throws {
        XCTAssertEqual(try archive.transit(["export", "--format", "json"]).stdout, try archive.transit(["history", "--json"]).stdout)
        let json = try archive.transit(["export", "--format", "json"])
        XCTAssertEqual(json.status, 0)
        XCTAssertEqual((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [Any])?.count, 3)
        XCTAssertEqual(try archive.transit(["export", "--format", "xml"]).status, 2)
    }

    func testExportNeverWritesThroughASymlink() throws {
        let target = archive.directory.appendingPathComponent("victim")
        try "victim".write(to: target, atomically: true, encoding: .utf8)
        let link = archive.directory.appendingPathComponent("out.csv").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target.path)
        XCTAssertEqual(try archive.transit(["export", "--out", link]).status, 0)
        XCTAssertEqual(try String(contentsOf: target, encoding: .utf8), "victim")
    }

    func testForgetRemovesTheCardAndItsReads() throws {
        XCTAssertEqual(try archive.scan(BuildProducts.sample("suica.json")).status, 0)
        let run = try archive.transit(["forget", "012E4CD8"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("2 reads and 5 records removed"), run.stdout)
        XCTAssertEqual(try archive.history().map { $0["family"] as? String }, ["cepas", "ksx6924"])
        XCTAssertEqual(try archive.sql("SELECT COUNT(*) FROM reads WHERE reading LIKE '%012E4CD8A1B2C3D4%'"), "0\n")
        let raw = try Data(contentsOf: URL(fileURLWithPath: archive.database))
        XCTAssertNil(raw.range(of: Data("012E4CD8A1B2C3D4".utf8)), "overwritten, not left in free pages")
        XCTAssertEqual(try archive.transit(["forget", "012E4CD8"]).status, 2, "already gone")
        XCTAssertEqual(try archive.transit(["forget"]).status, 2)
    }
}

extension HistoryCommandTests {
    func testExportNamesStationsFromATableLoadedAtExportTime() throws {
        // A table written now names the codes of records read before it existed (area 2 for E33B,
        // area 1 for E621, as the sample's region bits say); the names are made up.
        let table = archive.directory.appendingPathComponent("stations.csv")
        try "area,line,station,operator,line_name,station_name\n2,E3,3B,Op,Line,Alpha\n1,E6,21,Op,Line,Beta\n"
            .write(to: table, atomically: true, encoding: .utf8)
        let run = try archive.transit(["export", "012E4CD8A1B2C3D4", "--stations", table.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        let last = run.stdout.split(separator: "\r\n").last.map(String.init) ?? ""
        XCTAssertEqual(last, "012E4CD8A1B2C3D4,2026-11-05,,trip,-160,2010,E33B,Alpha,E621,Beta,JPY", run.stdout)
    }
}

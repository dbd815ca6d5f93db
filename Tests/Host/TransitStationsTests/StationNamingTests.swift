import Foundation
import TestSupport
import XCTest

/// Station names through the built `transit`, from synthetic tables keyed to the real codes of the
/// shared Suica, PASMO and ICOCA dumps (skipped without `TRANSIT_CARD_DUMPS`'s folder) and of the sample.
final class StationNamingTests: XCTestCase {
    var dir: URL!

    override func setUp() { dir = temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    /// A table file from rows `area,line+station code,name,english` (operator and line made up).
    func table(_ rows: [(area: Int, code: String, name: String, english: String?, from: String?, until: String?)],
               name: String = "stations.csv") throws -> String {
        var text = "area,line,station,operator,line_name,station_name,station_name_en,valid_from,valid_until\n"
        for r in rows {
            let line = r.code.prefix(2), station = r.code.suffix(2)
            text += "\(r.area),\(line),\(station),Operator \(line),Line \(line),\(r.name),\(r.english ?? ""),\(r.from ?? ""),\(r.until ?? "")\n"
        }
        let path = dir.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A generated name for a code, as a user's table would have one: `駅E33B` / `Station E33B`.
    func generated(_ area: Int, _ codes: [String]) -> [(area: Int, code: String, name: String, english: String?, from: String?, until: String?)] {
        codes.map { (area, $0, "駅\($0)", "Station \($0)", nil, nil) }
    }

    func scan(_ card: String, _ args: [String], env: [String: String] = [:]) throws -> CommandRun {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = dir.appendingPathComponent("no-data").path
        environment.removeValue(forKey: "LC_ALL")
        environment.removeValue(forKey: "LC_MESSAGES")
        environment["LANG"] = "C.UTF-8"
        for (k, v) in env { environment[k] = v }
        return try CommandRun.transit(["scan", "--config", "plugins.conf", "--card", card] + args, environment: environment)
    }

    func testSampleCardStationsByNameInJSONAndText() throws {
        let stations = try table(generated(2, ["E33B"]) + generated(1, ["E621"]))
        let json = try scan(BuildProducts.sample("suica.json"), ["--stations", stations, "--json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let t = try XCTUnwrap((json.json?["transactions"] as? [[String: Any]])?.first)
        XCTAssertEqual(t["entryStation"] as? String, "E33B", "codes stay")
        XCTAssertEqual(t["entryStationName"] as? String, "駅E33B")
        XCTAssertEqual(t["exitStationName"] as? String, "駅E621")
        XCTAssertEqual(t["metadata"] as? [String: String], ["entryRegion": "2", "exitRegion": "1", "entryLine": "Line E3",
                                                            "entryOperator": "Operator E3", "exitLine": "Line E6", "exitOperator": "Operator E6",
                                                            "sequence": "6"])
        XCTAssertEqual(t["balance"] as? Int, 2010)
        // 0101 → 0203 of the oldest record is in no table: no name keys at all.
        let oldest = try XCTUnwrap((json.json?["transactions"] as? [[String: Any]])?.last)
        XCTAssertNil(oldest["entryStationName"])
        XCTAssertNil((oldest["metadata"] as? [String: String])?["entryLine"])

        let text = try scan(BuildProducts.sample("suica.json"), ["--stations", stations])
        XCTAssertTrue(text.stdout.contains("2026-11-05        trip        -¥160   ¥2,010  Station E33B (Operator E3 Line E3) → Station E621 (Operator E6 Line E6)"), text.stdout)
        XCTAssertTrue(text.stdout.contains("0101 (region 1: not in your tables) → 0203 (region 0: not in your tables)"),
                      "the code when there is no name, and why: \(text.stdout)")
        // Japanese names when gettext chose Japanese: the locale installed (a private LOCPATH).
        let ja: [String: String]
        do { ja = try JapaneseLocale.environment() } catch { throw XCTSkip("\(error)") }
        let japanese = try scan(BuildProducts.sample("suica.json"), ["--stations", stations], env: ja)
        XCTAssertTrue(japanese.stdout.contains("駅E33B (Operator E3 Line E3) → 駅E621"), japanese.stdout)
        var lcAll = ja
        lcAll["LC_ALL"] = "C.UTF-8"
        XCTAssertTrue(try scan(BuildProducts.sample("suica.json"), ["--stations", stations], env: lcAll).stdout.contains("Station E33B"), "LC_ALL wins over LANG")
        var notInstalled = ja
        notInstalled.removeValue(forKey: "LOCPATH")
        XCTAssertTrue(try scan(BuildProducts.sample("suica.json"), ["--stations", stations], env: notInstalled).stdout.contains("Station E33B"),
                      "LANG=ja_JP.UTF-8 without the locale installed is English, names too")
    }

    func testNoTableNeededForACardWithoutStationsAndABrokenTableNeverCostsTheRead() throws {
        let broken = dir.appendingPathComponent("broken.csv").path
        try "0,E3,3B,Op\n".write(toFile: broken, atomically: true, encoding: .utf8)
        let edy = try scan(BuildProducts.sample("edy.json"), ["--stations", broken])
        XCTAssertEqual(edy.status, 0, "an Edy card has no stations")
        XCTAssertFalse(edy.stderr.contains("broken.csv"), "the table is not even read: \(edy.stderr)")
        // A card with stations is read and printed with its codes; the table's fault is said, naming file and line.
        let run = try scan(BuildProducts.sample("suica.json"), ["--stations", broken, "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.json?["balance"] as? Int, 2010)
        XCTAssertTrue(run.stderr.contains("\(broken):1: 4 columns; at least 6 are due (area,line,station,operator,line_name,station_name)"), run.stderr)
        let decode = try CommandRun.transit(["decode", "--config", "plugins.conf", "--stations", broken,
                                             BuildProducts.sample("suica.json"), BuildProducts.sample("ezlink.json")])
        XCTAssertEqual(decode.stdout.split(separator: "\n").count, 2, "decode goes on: \(decode.stdout)")
    }

    /// One bad line costs only that line; a misspelt --stations file costs only itself: the file's
    /// other lines and the data folder's table still name the Suica's E33B and E621.
    func testABadLineOrAMissingFileCostsOnlyItself() throws {
        let folder = dir.appendingPathComponent("data/transit/stations")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "area,line,station,operator,line_name,station_name\n1,E6,21,Op,Line,Folder駅\n"
            .write(to: folder.appendingPathComponent("mine.csv"), atomically: true, encoding: .utf8)
        let mixed = dir.appendingPathComponent("mixed.csv").path
        try "area,line,station,operator,line_name,station_name\n0,E3,3B,Op\n2,E3,3B,Op,Line,Good駅\n".write(toFile: mixed, atomically: true, encoding: .utf8)
        let misspelt = dir.appendingPathComponent("stationz.csv").path
        let run = try scan(BuildProducts.sample("suica.json"), ["--stations", misspelt, "--stations", mixed, "--json"],
                           env: ["XDG_DATA_HOME": dir.appendingPathComponent("data").path])
        XCTAssertEqual(run.status, 0, run.stderr)
        let last = (run.json?["transactions"] as? [[String: Any]])?.first
        XCTAssertEqual(last?["entryStationName"] as? String, "Good駅", run.stderr)
        XCTAssertEqual(last?["exitStationName"] as? String, "Folder駅", run.stderr)
        XCTAssertTrue(run.stderr.contains("\(mixed):2: 4 columns"), run.stderr)
        XCTAssertTrue(run.stderr.contains(misspelt) && run.stderr.contains("passed over; the other tables still serve"), run.stderr)
    }

    func testTablesInTheDataFolderAreFound() throws {
        let folder = dir.appendingPathComponent("data/transit/stations")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = try table(generated(2, ["E33B"]))
        try FileManager.default.moveItem(atPath: path, toPath: folder.appendingPathComponent("mine.csv").path)
        let run = try scan(BuildProducts.sample("suica.json"), ["--json"], env: ["XDG_DATA_HOME": dir.appendingPathComponent("data").path])
        XCTAssertEqual((run.json?["transactions"] as? [[String: Any]])?.first?["entryStationName"] as? String, "駅E33B", run.stderr)
    }

    /// Every station code of the three Japan IC dumps, with its region (the dumps'
    /// own records), named by a generated table: each comes out by name.
    func testEveryStationOfTheSharedDumpsComesOutByNameAreaAndDateAware() throws {
        guard let cards = BuildProducts.cardDumps else { throw XCTSkip(BuildProducts.cardDumpsMissing) }
        let suica = ["E33B", "E621", "E336", "E338", "E537", "E33D", "E33E", "F101", "F218", "F21A", "1603", "2507", "F038",
                     "F108", "E629", "E52B", "030D", "CE1F", "CE26"]
        let pasmo = ["8205", "030D", "8241", "824C", "EF03", "EF0B", "F20E", "F307", "F21A", "E33E", "E33B", "0000"]
        let icocaWest = ["8BA5", "8AA5", "E701", "E81F", "811F", "8124", "811C", "8123", "8419", "8117", "8BAB", "C550", "C55C"]
        let icocaArea0 = ["5B06", "0C03", "01CC"] // 01CC: the 2011-06-07 charge at a ticket machine (0802)
        // 0312 renumbered on 2010-09-27 (made up): the Suica dump's 2010-09-25 records name the old
        // row, its 2010-09-27 record the new one. 8BA5 also exists in area 0 under another name:
        // the ICOCA record's area 2 must win.
        var rows = generated(0, Array(Set(suica + pasmo + icocaArea0)).sorted()) + generated(2, icocaWest)
        rows += [(0, "0312", "旧0312", "Old 0312", nil, "2010-09-26"), (0, "0312", "新0312", "New 0312", "2010-09-27", nil),
                 (0, "8BA5", "Wrong area", "Wrong area", nil, nil)]
        try XCTSkipIf(!FileManager.default.fileExists(atPath: cards.appendingPathComponent("Suica.nfc").path))
        let stations = try table(rows)
        for name in ["Suica.nfc", "PASMO.nfc", "ICOCA.nfc"] {
            let run = try scan(cards.appendingPathComponent(name).path, ["--stations", stations, "--json"])
            let transactions = try XCTUnwrap(run.json?["transactions"] as? [[String: Any]], run.stderr)
            var named = 0
            for t in transactions {
                for side in ["entry", "exit"] {
                    guard let code = t["\(side)Station"] as? String else { continue }
                    let date = (t["date"] as? String) ?? ""
                    let expected = code == "0312" ? (date < "2010-09-27" ? "旧0312" : "新0312") : "駅\(code)"
                    XCTAssertEqual(t["\(side)StationName"] as? String, expected, "\(name) \(date) \(side) \(code)")
                    named += 1
                }
            }
            XCTAssertGreaterThan(named, 10, name)
        }
        let icoca = try scan(cards.appendingPathComponent("ICOCA.nfc").path, ["--stations", stations])
        XCTAssertTrue(icoca.stdout.contains("Station 8BA5 (Operator 8B Line 8B) → Station 8AA5 (Operator 8A Line 8A)"), icoca.stdout)
        XCTAssertFalse(icoca.stdout.contains("Wrong area"))
        let suicaText = try scan(cards.appendingPathComponent("Suica.nfc").path, ["--stations", stations])
        XCTAssertTrue(suicaText.stdout.contains("2010-09-27        trip        -¥150     ¥110  New 0312 (Operator 03 Line 03) → Station 030D"), suicaText.stdout)
        XCTAssertTrue(suicaText.stdout.contains("Station 030D (Operator 03 Line 03) → Old 0312"), suicaText.stdout)
    }

    func testVerifyTakesStationsByName() throws {
        let stations = try table(generated(2, ["E33B"]) + generated(1, ["E621"]))
        let reference = dir.appendingPathComponent("ref.json")
        try #"{"balance": 2010, "journeys": [{"date": "2026-11-05", "amount": 160, "entryStation": "Station E33B", "exitStation": "駅E621"}, {"date": "2026-11-03", "amount": 210, "busLine": "0A12", "busStop": "3456"}]}"#
            .write(to: reference, atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = dir.appendingPathComponent("no-data").path
        let run = try CommandRun.transit(["verify", "--config", "plugins.conf", "--card", BuildProducts.sample("suica.json"),
                                          "--reference", reference.path, "--stations", stations], environment: environment)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(run.stdout.contains("Verification: fully verified"), run.stdout)
        let without = try CommandRun.transit(["verify", "--config", "plugins.conf", "--card", BuildProducts.sample("suica.json"),
                                              "--reference", reference.path], environment: environment)
        XCTAssertEqual(without.status, 1, "without a table a name matches no code")
    }
}

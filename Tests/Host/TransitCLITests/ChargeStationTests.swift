import Foundation
import TestSupport
import XCTest

/// A Tokyo commuter's charge at a station's machine shows that station in every output, and a code
/// the tables do not name says why. The sample's top-up is `08 02 0000 3562 0101 0000 C409 …`:
/// console 08 (a ticket machine), process 02 (a charge), station 0101 in bytes 6–7, region 0.
final class ChargeStationTests: XCTestCase {
    private var archive = ArchiveFixture()
    override func tearDown() { archive.remove() }

    /// A table naming the charge's station (area 0, line 01, station 01) and E33B for area 0 only.
    private func table() throws -> String {
        let file = archive.directory.appendingPathComponent("stations.csv")
        try """
            area,line,station,operator,line_name,station_name,station_name_en
            0,01,01,JR東日本,東海道線,東京,Tokyo
            0,E3,3B,JR東日本,山手線,新宿,Shinjuku
            """.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    func testTheChargeShowsItsStationInTextJSONCSVAndSFCard() throws {
        let scan = try archive.transit(["scan", "--card", BuildProducts.sample("suica.json"), "--stations", try table()])
        XCTAssertEqual(scan.status, 0, scan.stderr)
        XCTAssertTrue(scan.stdout.contains("top-up    +¥2,000   ¥2,500  at Tokyo (JR東日本 東海道線)"), scan.stdout)

        let json = try archive.transit(["scan", "--card", BuildProducts.sample("suica.json"), "--json", "--no-save"])
        let charge = try XCTUnwrap((json.json?["transactions"] as? [[String: Any]])?.first { $0["type"] as? String == "topup" })
        XCTAssertEqual(charge["entryStation"] as? String, "0101")
        XCTAssertNil(charge["exitStation"])

        let csv = try archive.transit(["export", "--format", "csv", "--stations", try table()]).stdout
        let row = try XCTUnwrap(csv.components(separatedBy: "\r\n").first { $0.contains(",2026-11-02,") }, csv)
        let cells = row.components(separatedBy: ",")
        XCTAssertEqual(Array(cells[3 ... 9]), ["topup", "2000", "2500", "0101", "Tokyo", "", ""], row)

        let out = archive.directory.appendingPathComponent("sfcard.csv").path
        XCTAssertEqual(try archive.transit(["report", "#1", "--month", "2026-11", "--format", "sfcard", "--out", out, "--stations", try table()]).status, 0)
        let script = "import csv,sys\nfor r in csv.reader(open(sys.argv[1], encoding='cp932', newline='')): print('|'.join(r))"
        let rows = try CommandRun.run("/usr/bin/python3", ["-c", script, out]).stdout.split(separator: "\n").map(String.init)
        // 利用年月日, 定期, 鉄道会社名, 入場駅/事業者名, 定期, 鉄道会社名, 出場駅/降車場所, 利用額(円), 残額(円), メモ
        XCTAssertTrue(rows.contains("2026/11/02||JR東日本|東京||||-2000|2500|ﾁｬｰｼﾞ"), rows.joined(separator: "\n"))
    }

    func testACodeTheTablesDoNotNameSaysWhy() throws {
        // E33B is named for area 0; the sample's trip has it in region 2, and E621 (region 1) is in no row.
        let run = try archive.transit(["scan", "--card", BuildProducts.sample("suica.json"), "--no-save", "--stations", try table()])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("trip        -¥160   ¥2,010  E33B (region 2: not in your tables) → E621 (region 1: not in your tables)"),
                      run.stdout)
        // Without any table the codes stay bare, and the line under the table says a table names them.
        let bare = try archive.transit(["scan", "--card", BuildProducts.sample("suica.json"), "--no-save"])
        XCTAssertTrue(bare.stdout.contains("¥2,010  E33B → E621\n"), bare.stdout)
        // JSON keeps the codes and adds no words.
        let json = try archive.transit(["scan", "--card", BuildProducts.sample("suica.json"), "--no-save", "--json", "--stations", try table()])
        XCTAssertFalse(json.stdout.contains("not in your tables"), json.stdout)
    }
}

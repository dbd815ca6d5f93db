import Foundation
import TestSupport
import XCTest

final class DumpAndVerifyTests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    func testDumpReadsBackToTheSameResultForEveryFamily() throws {
        // edy-mobile: a phone whose FE00 answers with its own IDm; the dump keeps that IDm.
        for name in ["suica", "edy", "edy-mobile", "waon", "nanaco", "octopus", "ezlink", "tmoney", "snapper", "tunion"] {
            let original = try CommandRun.transit(["scan", "--card", BuildProducts.sample("\(name).json"), "--json"])
            let out = dir.appendingPathComponent("\(name)-dump.json").path
            let dump = try CommandRun.transit(["dump", "--card", BuildProducts.sample("\(name).json"), "--out", out])
            XCTAssertEqual(dump.status, 0, "\(name): \(dump.stderr)")
            let back = try CommandRun.transit(["scan", "--card", out, "--json"])
            XCTAssertEqual(back.status, 0, "\(name): \(back.stderr)")
            XCTAssertEqual(back.stdout, original.stdout, name)
        }
    }

    func testFeliCaDumpHoldsEverySystemAndLocksKeyedServices() throws {
        let out = dir.appendingPathComponent("suica-dump.json").path
        XCTAssertEqual(try CommandRun.transit(["dump", "--card", BuildProducts.sample("suica.json"), "--out", out]).status, 0)
        let image = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as? [String: Any])
        let systems = try XCTUnwrap((image["felica"] as? [String: Any])?["systems"] as? [[String: Any]])
        XCTAssertEqual(systems.map { $0["code"] as? String }, ["0003", "FE00"])
        XCTAssertEqual((systems[0]["services"] as? [String: [String]])?["090F"]?.count, 20)
        // 0810 and 1808 need keys (even attribute): listed as locked, no blocks.
        XCTAssertEqual(Set(systems[0]["lockedServices"] as? [String] ?? []), ["0810", "1808"])
    }

    func reference(_ text: String) throws -> String {
        let path = dir.appendingPathComponent("ref.json")
        try text.write(to: path, atomically: true, encoding: .utf8)
        return path.path
    }

    func testMatchingReferenceIsFullyVerifiedAndTheLogIsWrittenBesideIt() throws {
        let ref = try reference("""
        {"balance": 2010, "currency": "JPY", "journeys": [
          {"date": "2026-11-05", "amount": 160, "entryStation": "E33B", "exitStation": "E621"},
          {"date": "2026-11-03", "amount": 210, "busLine": "0A12", "busStop": "3456"},
          {"date": "2026-11-04", "time": "13:45", "amount": 120, "type": "purchase"}]}
        """)
        let run = try CommandRun.transit(["verify", "--reference", ref, "--card", BuildProducts.sample("suica.json"), "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.json?["status"] as? String, "fully verified")
        XCTAssertEqual(run.json?["mismatches"] as? [String], [])
        let log = dir.appendingPathComponent("ref.log.json").path
        XCTAssertEqual(run.json?["log"] as? String, log)
        XCTAssertTrue(FileManager.default.fileExists(atPath: log))
    }

    func testWrongReferenceIsOnlyReadAndNamesEachMismatch() throws {
        let ref = try reference("""
        {"balance": 2000, "journeys": [
          {"date": "2026-11-05", "amount": 170, "entryStation": "E33B"},
          {"date": "2026-11-04", "time": "13:45", "amount": 120}]}
        """)
        let run = try CommandRun.transit(["verify", "--reference", ref, "--card", BuildProducts.sample("suica.json")])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.stdout.contains("Verification: not verified"), run.stdout)
        XCTAssertTrue(run.stdout.contains("mismatch: balance: the card holds ¥2,010, the reference ¥2,000"), run.stdout)
        // The card's 2026-11-05 trip from E33B cost 160: the nearest transaction names what differs.
        XCTAssertTrue(run.stdout.contains("mismatch: journey 1 (2026-11-05 amount ¥170 from E33B): amount ¥170 on the reference, ¥160 on the card"),
                      run.stdout)
        XCTAssertFalse(run.stdout.contains("journey 2"), "the second journey matches")
    }

    /// A journey off by one minute names the field and both values (samples/suica.json: a ¥120
    /// journey at 13:45 on 2026-11-04).
    func testAMismatchNamesTheFieldAndBothValues() throws {
        let ref = try reference("""
        {"balance": 2010, "journeys": [
          {"date": "2026-11-04", "time": "13:46", "amount": 120},
          {"date": "2026-11-04", "time": "13:45", "amount": 120},
          {"date": "2026-10-01", "amount": 100}]}
        """)
        let run = try CommandRun.transit(["verify", "--reference", ref, "--card", BuildProducts.sample("suica.json"), "--json", "--no-save"])
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(run.json?["status"] as? String, "not verified")
        XCTAssertEqual(run.json?["mismatches"] as? [String],
                       ["journey 1 (2026-11-04 13:46 amount ¥120): time 13:46 on the reference, 13:45 on the card",
                        "journey 3 (2026-10-01 amount ¥100): no transaction of the card is on 2026-10-01"], run.stdout)
    }
}

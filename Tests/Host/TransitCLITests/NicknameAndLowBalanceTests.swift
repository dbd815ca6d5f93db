import Foundation
import TestSupport
import XCTest

/// `transit cards --name`: a nickname names the card on every command that takes one and shows
/// where the card is shown. `--below` and transit.conf's `below`: a low balance is flagged.
final class NicknameAndLowBalanceTests: XCTestCase {
    var archive: ArchiveFixture!
    override func setUp() {
        archive = ArchiveFixture()
        for name in ["suica", "ezlink"] { _ = try? archive.scan(BuildProducts.sample("\(name).json")) }
    }
    override func tearDown() { archive.remove() }

    func testANicknameNamesTheCardEverywhere() throws {
        let named = try archive.transit(["cards", "--name", "012E4CD8A1B2C3D4", "通勤"])
        XCTAssertEqual(named.status, 0, named.stderr)
        XCTAssertTrue(try archive.transit(["cards"]).stdout.contains("Suica (japan-ic) “通勤”"))
        let cards = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(archive.transit(["cards", "--json"]).stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(cards.first?["nickname"] as? String, "通勤")
        XCTAssertNil(cards.last?["nickname"])
        // history, export and report take it as CARD and say it.
        let history = try archive.transit(["history", "通勤"])
        XCTAssertEqual(history.status, 0, history.stderr)
        XCTAssertTrue(history.stdout.hasPrefix("Suica (japan-ic) “通勤”"), history.stdout)
        XCTAssertEqual(try archive.history("通勤").first?["nickname"] as? String, "通勤")
        let export = try archive.transit(["export", "通勤"])
        XCTAssertEqual(export.stdout.split(separator: "\r\n").count, 6, "the header and the card's 5 records")
        XCTAssertTrue(export.stdout.split(separator: "\r\n").dropFirst().allSatisfy { $0.contains(",JPY,通勤,") }, export.stdout)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(archive.transit(["report", "通勤", "--month", "2026-11", "--format", "json"]).stdout.utf8))
                                   as? [String: Any])
        XCTAssertEqual((report["card"] as? [String: Any])?["nickname"] as? String, "通勤")
        // Another nickname with a space and an apostrophe; one card a nickname; no id-like name.
        XCTAssertEqual(try archive.transit(["cards", "--name", "#2", "Yuki's EZ-Link"]).status, 0)
        XCTAssertEqual(try archive.history("Yuki's EZ-Link").first?["family"] as? String, "cepas")
        let taken = try archive.transit(["cards", "--name", "#2", "通勤"])
        XCTAssertEqual(taken.status, 2)
        XCTAssertTrue(taken.stderr.contains("#1 is already called"), taken.stderr)
        XCTAssertEqual(try archive.transit(["cards", "--name", "#2", "#1"]).status, 2)
        // forget by nickname, and its line says it.
        let forget = try archive.transit(["forget", "通勤"])
        XCTAssertEqual(forget.status, 0, forget.stderr)
        XCTAssertTrue(forget.stdout.contains("Forgot Suica “通勤” card 012E4CD8A1B2C3D4"), forget.stdout)
        XCTAssertEqual(try archive.history().map { $0["family"] as? String }, ["cepas"])
        // "" removes it.
        XCTAssertEqual(try archive.transit(["cards", "--name", "#2", ""]).status, 0)
        XCTAssertEqual(try archive.transit(["history", "Yuki's EZ-Link"]).status, 2)
    }

    func testBelowFlagsALowBalanceInJSONAndText() throws {
        let suica = BuildProducts.sample("suica.json") // balance ¥2,010
        func flag(_ extra: [String]) throws -> Any? {
            let run = try archive.transit(["scan", "--card", suica, "--no-save", "--json"] + extra)
            XCTAssertEqual(run.status, 0, run.stderr)
            return run.json?["lowBalance"]
        }
        XCTAssertEqual(try flag(["--below", "2011"]) as? Bool, true)
        XCTAssertEqual(try flag(["--below", "2010"]) as? Bool, false, "a balance equal to the threshold is not under it")
        XCTAssertNil(try flag([]))
        let text = try archive.transit(["scan", "--card", suica, "--no-save", "--below", "3000"])
        XCTAssertTrue(text.stdout.contains("LOW BALANCE: under ¥3,000"), text.stdout)
        XCTAssertFalse(try archive.transit(["scan", "--card", suica, "--no-save", "--below", "100"]).stdout.contains("LOW BALANCE"))
        try archive.configure("below = 5000\n")
        XCTAssertEqual(try flag([]) as? Bool, true, "transit.conf's below")
        XCTAssertEqual(try flag(["--below", "100"]) as? Bool, false, "--below wins")
        let bad = try archive.transit(["scan", "--card", suica, "--no-save", "--below", "¥1000"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("--below takes an amount"), bad.stderr)
    }
}

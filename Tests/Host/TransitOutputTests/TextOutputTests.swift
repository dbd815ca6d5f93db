import CardSimulation
import Foundation
import TestSupport
import XCTest
import CardProtocol
import TransitModel
import TransitFiles
import TransitStations
import TransitArchive
import TransitOutput

/// The text output people read (issue 12), through the built `transit` on the sample cards.
final class TextOutputTests: XCTestCase {
    func scan(_ sample: String, _ extra: [String] = [], env: [String: String] = [:]) throws -> CommandRun {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = "/nonexistent-transit-data"
        for (k, v) in env { environment[k] = v }
        return try CommandRun.transit(["scan", "--config", "plugins.conf", "--card", BuildProducts.sample(sample)] + extra,
                                      environment: environment)
    }

    func testTheSuicaSampleReadsAsTheREADMEShowsIt() throws {
        // Values from scripts/make_samples.py's layout: balance 2010; records newest first with their
        // stored balances 2010, 2170, 2290, 2500, 500; the purchase at 13:45 JST.
        let run = try scan("suica.json")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, """
        Suica  IDm 012E4CD8A1B2C3D4 (the card's chip ID)
        Balance: ¥2,010

        Date (UTC+09:00)  Type       Amount  Balance  Details
        2026-11-05        trip        -¥160   ¥2,010  E33B → E621
        2026-11-04 13:45  purchase    -¥120   ¥2,170
        2026-11-03        trip        -¥210   ¥2,290  bus line 0A12, stop 3456
        2026-11-02        top-up    +¥2,000   ¥2,500  at 0101
        2026-11-01        trip            ?     ¥500  0101 → 0203

        ? the card keeps the balance after each record, not its amount: the oldest record has no earlier balance to take it from
        Stations are shown by their codes: a station table names them (transit ships none; README, "Station names")

        """)
        XCTAssertFalse(run.stdout.contains("\u{1B}"), "piped text has no colour")
    }

    func testNoCamelCaseKeysAndRawDataOnlyWhenVerbose() throws {
        let nanaco = try scan("nanaco.json").stdout
        XCTAssertTrue(nanaco.hasPrefix("nanaco  7100 0012 3456 7890\nBalance: ¥1,500\nPoints: 150\n"), nanaco)
        XCTAssertFalse(nanaco.contains("idm"), "the IDm only with --verbose")
        let waon = try scan("waon.json").stdout
        XCTAssertFalse(waon.contains("usageAmount") || waon.contains("usage amount"), waon)
        let verbose = try scan("waon.json", ["--verbose"]).stdout
        XCTAssertTrue(verbose.contains("usage amount 100, raw type 04"), verbose)
        XCTAssertTrue(verbose.contains("IDm: 0116B0C1D2E3F405"), verbose)
        let suica = try scan("suica.json").stdout
        for hidden in ["Region", "region", "busLineCode", "raw"] { XCTAssertFalse(suica.contains(hidden), hidden) }
        XCTAssertTrue(try scan("suica.json", ["--verbose"]).stdout.contains("E33B → E621, region 2 → 1, sequence 6, raw type 1601"))
        let edy = try scan("edy.json").stdout
        XCTAssertTrue(edy.hasPrefix("Rakuten Edy  1234 5678 9012 3456\nBalance: ¥1,234\nValid from: 2019-04-01\n"), edy)
        XCTAssertTrue(edy.contains("2026-11-10 12:34:56  purchase    -¥330   ¥1,234"), "Edy records keep their seconds: \(edy)")
    }

    func testColourOnlyWhenAskedAndNeverWithNoColor() {
        let reading = CardReading(family: "waon", cardName: "WAON", serialNumber: "6900123456789012", balance: 239, currency: "JPY",
                                  metadata: [:], transactions: [.init(type: .topup, amount: 500, date: date("2026-11-01T18:30:00+09:00"),
                                                                      metadata: [:], balance: 539)])
        let coloured = TextOutput.render(reading, style: .init(verbose: false, colour: true, englishNames: true))
        XCTAssertTrue(coloured.contains("\u{1B}[1mWAON\u{1B}[0m"))
        XCTAssertTrue(coloured.contains("\u{1B}[32m"), "top-ups in green")
        XCTAssertFalse(TextOutput.render(reading).contains("\u{1B}"))
        XCTAssertFalse(TextOutput.Style.forOutput(verbose: false, environment: ["NO_COLOR": "1"]).colour)
        // The names' language is the one gettext chose (L10n.language), never a sniff of LANG: JapaneseInterfaceTests.
        XCTAssertFalse(TextOutput.Style.forOutput(verbose: false, environment: ["LANG": "C"], language: "ja").englishNames)
        XCTAssertTrue(TextOutput.Style.forOutput(verbose: false, environment: ["LANG": "ja_JP.UTF-8"], language: nil).englishNames)
    }

    func testAFeliCaCardNoPluginKnowsPrintsItsSystemCodes() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let image = CardImage(felica: .init(idm: "0139F1E2D3C4B5A6", pmm: nil, maxBlocksPerRead: nil,
                                            systems: [.init(code: "8C97", services: [:], lockedServices: nil),
                                                      .init(code: "12FC", services: [:], lockedServices: nil)]))
        let card = try CardImages.write(image, in: dir)
        let run = try CommandRun.transit(["scan", "--config", "plugins.conf", "--card", card])
        XCTAssertEqual(run.status, 4)
        XCTAssertTrue(run.stderr.contains("no plugin recognised this FeliCa card (systems 8C97 12FC; no loaded plugin reads these systems)"), run.stderr)
        // Only ISO plugins in the conf: then, and only then, none for the technology is loaded.
        let conf = dir.appendingPathComponent("iso.conf")
        try "cepas \(BuildProducts.plugin("TransitCEPAS"))\n".write(to: conf, atomically: true, encoding: .utf8)
        let iso = try CommandRun.transit(["scan", "--config", conf.path, "--card", card])
        XCTAssertTrue(iso.stderr.contains("(systems 8C97 12FC; no plugin for this technology is loaded)"), iso.stderr)
    }

    /// The HTML page's language for its CJK glyphs comes from the card's currency (what its plugin
    /// said through the ABI), not from a list of family names (issue 48): Han text on a yen card is
    /// Japanese, on a Hong Kong dollar card Chinese; kana is Japanese and Hangul Korean whatever
    /// the card; Latin text is English.
    func testTheHTMLPagesLanguageFollowsTheCardsCurrencyNotItsFamily() {
        XCTAssertEqual(ReportHTML.language(of: "新宿", currencies: ["JPY"]), "ja")
        XCTAssertEqual(ReportHTML.language(of: "新宿", currencies: ["HKD"]), "zh")
        XCTAssertEqual(ReportHTML.language(of: "新宿", currencies: ["HKD", "JPY"]), "ja")
        XCTAssertEqual(ReportHTML.language(of: "しんじゅく", currencies: ["HKD"]), "ja")
        XCTAssertEqual(ReportHTML.language(of: "서울", currencies: ["JPY"]), "ko")
        XCTAssertEqual(ReportHTML.language(of: "Shinjuku", currencies: ["JPY"]), "en")
    }
}

import CardSimulation
import Foundation
import TestSupport
import XCTest

/// `transit export --format ledger` read by Debian's hledger (scripts/test-setup.sh installs it):
/// the journal passes `hledger check` (it parses, every transaction balances, every balance
/// assertion holds) and its balances are the card's, worked out here from the sample's records.
final class LedgerExportTests: XCTestCase {
    private var archive = ArchiveFixture()
    override func tearDown() { archive.remove() }

    private func hledger() throws -> String { try Prerequisite.tool("/usr/bin/hledger") }

    private func journal(_ arguments: [String] = []) throws -> String {
        let file = archive.directory.appendingPathComponent("card.journal").path
        let run = try archive.transit(["export", "--format", "ledger", "--out", file] + arguments)
        XCTAssertEqual(run.status, 0, run.stderr)
        return file
    }

    /// `hledger balance --flat -N`'s lines as account → amount text.
    private func balances(_ file: String) throws -> [String: String] {
        let run = try CommandRun.run(try hledger(), ["-f", file, "balance", "--flat", "-N"])
        XCTAssertEqual(run.status, 0, run.stderr)
        var out = [String: String]()
        for line in run.stdout.split(separator: "\n") {
            let parts = line.trimmingCharacters(in: .whitespaces).components(separatedBy: "  ").filter { !$0.isEmpty }
            if parts.count == 2 { out[parts[1].trimmingCharacters(in: .whitespaces)] = parts[0] }
        }
        return out
    }

    func testTheSuicasJournalPassesHledgersChecksWithTheCardsBalances() throws {
        XCTAssertEqual(try archive.scan(BuildProducts.sample("suica.json")).status, 0)
        let file = try journal()
        let check = try CommandRun.run(try hledger(), ["-f", file, "check"])
        XCTAssertEqual(check.status, 0, "hledger check: \(check.stderr)")
        // The sample (docs/command-line.md): 11-01 trip, amount unknown, ¥500 after it; 11-02 top-up
        // ¥2,000 (¥2,500); 11-03 trip ¥210; 11-04 purchase ¥120; 11-05 trip ¥160 (¥2,010).
        let b = try balances(file)
        XCTAssertEqual(b["Assets:Transit:Suica 012E4CD8A1B2C3D4"], "2010 JPY", "\(b)")
        XCTAssertEqual(b["Equity:Opening Balances"], "-500 JPY", "the balance before the first record with an amount")
        XCTAssertEqual(b["Expenses:Transit:Fares"], "370 JPY", "¥210 + ¥160; the oldest trip's amount is unknown")
        XCTAssertEqual(b["Expenses:Transit:Purchases"], "120 JPY")
        XCTAssertEqual(b["Equity:Transit:Top-ups"], "-2000 JPY")
        // One transaction a record with an amount, the card's stored balance asserted on each.
        let text = try String(contentsOfFile: file, encoding: .utf8)
        for asserted in ["= 2500 JPY", "= 2290 JPY", "= 2170 JPY", "= 2010 JPY"] { XCTAssertTrue(text.contains(asserted), asserted) }
        XCTAssertTrue(text.contains("; 2026-11-01 trip: 0101 → 0203: no amount"), "the record with no amount is said, not posted")
    }

    func testAWrongStoredBalanceFailsHledgersAssertion() throws {
        // The assertions are checked, not decoration: one changed by hand fails hledger check.
        XCTAssertEqual(try archive.scan(BuildProducts.sample("suica.json")).status, 0)
        let file = try journal()
        let text = try String(contentsOfFile: file, encoding: .utf8)
        try text.replacingOccurrences(of: "= 2290 JPY", with: "= 2291 JPY").write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertNotEqual(try CommandRun.run(try hledger(), ["-f", file, "check"]).status, 0)
    }

    func testACardThatStoresNoBalanceAfterItsRecordsEndsAtItsReadBalance() throws {
        // EZ-Link: CEPAS logs keep amounts only; the read's balance (S$8.97) is asserted last.
        XCTAssertEqual(try archive.scan(BuildProducts.sample("ezlink.json")).status, 0)
        let file = try journal()
        XCTAssertEqual(try CommandRun.run(try hledger(), ["-f", file, "check"]).status, 0)
        let b = try balances(file)
        XCTAssertEqual(b["Assets:Transit:EZ-Link 1009123456789012"], "8.97 SGD", "\(b)")
        XCTAssertEqual(b["Expenses:Transit:Fares"], "2.27 SGD", "S$1.28 + S$0.99")
        XCTAssertEqual(b["Equity:Transit:Top-ups"], "-20.00 SGD")
    }

    func testAStationNameCannotBreakTheJournal() throws {
        // A table's name with a comment mark and two spaces (which end an account name) stays one description.
        XCTAssertEqual(try archive.scan(BuildProducts.sample("suica.json")).status, 0)
        let table = archive.directory.appendingPathComponent("stations.csv")
        try "area,line,station,operator,line_name,station_name\n2,E3,3B,JR,Yamanote,Shin;juku  x\n".write(to: table, atomically: true, encoding: .utf8)
        let file = try journal(["--stations", table.path])
        XCTAssertEqual(try CommandRun.run(try hledger(), ["-f", file, "check"]).status, 0)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        XCTAssertTrue(text.contains("2026-11-05 trip: Shin,juku x → E621"), text)
    }

    /// One card's part of the journal: from its `; Name number` comment to the next card's.
    private func section(_ text: String, _ heading: String) -> String {
        guard let start = text.range(of: "\n; " + heading) else { return "" }
        let rest = text[start.upperBound...]
        return String(rest[..<(rest.range(of: "\n\n; ")?.lowerBound ?? rest.endIndex)])
    }

    func testACardWithoutAPurseWritesItsPricedRecordsWithoutABalance() throws {
        // Navigo holds passes, no stored value (its read has no balance); its special event was
        // charged 1.50 (scripts/make_calypso_samples.py; CalypsoTests). No opening balance, no
        // assertion: the card never stated a balance.
        XCTAssertEqual(try archive.scan(BuildProducts.sample("navigo.json")).status, 0)
        let file = try journal()
        XCTAssertEqual(try CommandRun.run(try hledger(), ["-f", file, "check"]).status, 0)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let navigo = section(text, "Navigo 439041101")
        XCTAssertFalse(navigo.isEmpty, text)
        XCTAssertFalse(navigo.contains(" = "), "no balance asserted: \(navigo)")
        XCTAssertFalse(navigo.contains("Opening balance"), navigo)
        XCTAssertTrue(navigo.contains("2026-11-20 trip: 0789"), navigo)
        XCTAssertTrue(navigo.contains("    Assets:Transit:Navigo 439041101  -1.50 EUR\n    Expenses:Transit:Fares"), navigo)
        XCTAssertEqual(try balances(file)["Assets:Transit:Navigo 439041101"], "-1.50 EUR")
    }

    func testEverySampleReadInAnyOrderGivesAJournalHledgerAccepts() throws {
        // Every sample card, read through the plugins by `scan --card` or `decode --save`, some
        // twice, in a seeded shuffle: one journal, every assertion holding in hledger's date order.
        let folder = URL(fileURLWithPath: BuildProducts.sample(""))
        let samples = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        var random = SplitMix64(seed: 45)
        for round in 0 ..< 2 {
            archive.remove()
            archive = ArchiveFixture()
            var order = samples + samples.filter { _ in random.below(3) == 0 }
            for i in order.indices.reversed() { order.swapAt(i, random.below(i + 1)) }
            for sample in order {
                let path = folder.appendingPathComponent(sample).path
                _ = random.below(2) == 0 ? try archive.scan(path) : try archive.transit(["decode", "--save", path])
            }
            let file = try journal()
            let check = try CommandRun.run(try hledger(), ["-f", file, "check"])
            XCTAssertEqual(check.status, 0, "round \(round): hledger check: \(check.stderr)")
            // Two Edy cards of one number (a card and a phone, told apart by their IDm) are two accounts.
            let b = try balances(file)
            XCTAssertEqual(b.keys.filter { $0.hasPrefix("Assets:Transit:Rakuten Edy 1234567890123456 ") }.count, 2, "\(b.keys.sorted())")
        }
    }

    func testTheLastBalanceIsTheNewestStatesNotTheLastSaved() throws {
        // A card read at ring 20…1 (¥4,800: 10 yen a trip from ¥5,000), then at 23…4 (¥4,770), and
        // the older dump saved last: the balance after the newest record is ¥4,770, whichever read
        // was kept last.
        let older = JapanICRecords.card(numbers: Array((1 ... 20).reversed()))
        let newer = JapanICRecords.movedOn(older, by: 3)
        XCTAssertEqual(try archive.scan(CardImages.write(newer, in: archive.directory, name: "newer.json")).status, 0)
        XCTAssertEqual(try archive.scan(CardImages.write(older, in: archive.directory, name: "older.json")).status, 0)
        let file = try journal()
        let check = try CommandRun.run(try hledger(), ["-f", file, "check"])
        XCTAssertEqual(check.status, 0, "hledger check: \(check.stderr)")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        // The fixture's card names no issuer: the family's name, "Japan IC".
        let lastRead = text.components(separatedBy: "Balance at the last read\n").dropFirst().map { $0.prefix { $0 != "\n" } }
        XCTAssertEqual(lastRead, ["    Assets:Transit:Japan IC 0114AABBCCDDEEFF  0 JPY = 4770 JPY"], text)
        XCTAssertEqual(try balances(file)["Assets:Transit:Japan IC 0114AABBCCDDEEFF"], "4770 JPY")
    }
}

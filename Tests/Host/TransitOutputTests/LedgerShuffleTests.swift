import Foundation
import TestSupport
import TransitArchive
import TransitModel
import XCTest

/// Issue 45: `transit export --format ledger` over reads kept in any order. hledger checks balance
/// assertions in date order, whatever order the reads were saved in; the journal must pass
/// `hledger check` (it parses, balances, every assertion holds) and assert only balances a card
/// stated. Each sample is read once by the shipped plugins (`transit decode`); the card is then
/// lived on from that reading, family-blind: its ring moves on (new records, each a copy of an
/// older one with its own bytes, later dates and the balance its amount leaves), sometimes with a
/// gap (a record the card no longer holds), a clock set back, or a balance changed without a
/// record. Every state is read, some twice, and the reads of every card are saved in one seeded
/// shuffle into one archive (through `Archive.store`, what `scan` runs); the journal
/// `transit export` writes of it is checked by hledger itself. `TRANSIT_LEDGER_SEEDS` sets how
/// many shuffles (6 in the suite; `TRANSIT_LEDGER_SEEDS=200` for a long run).
final class LedgerShuffleTests: XCTestCase {
    private var fixture = ArchiveFixture()
    override func tearDown() { fixture.remove() }

    private func hledger() throws -> String { try Prerequisite.tool("/usr/bin/hledger") }

    /// Every sample card image the shipped plugins read, as `transit decode` gives it.
    private static func sampleReadings() throws -> [(file: String, reading: CardReading)] {
        let folder = URL(fileURLWithPath: BuildProducts.sample(""))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = "/nonexistent-transit-data"
        let run = try CommandRun.transit(["decode"] + files.map { folder.appendingPathComponent($0).path }, environment: environment)
        var out = [(file: String, reading: CardReading)]()
        for line in run.stdout.split(separator: "\n") {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], let card = object["card"],
                  let file = object["file"] as? String else { continue }
            let reading = try JSONDecoder().decode(CardReading.self, from: try JSONSerialization.data(withJSONObject: card))
            out.append((URL(fileURLWithPath: file).lastPathComponent, reading))
        }
        return out
    }

    /// The card lived on from `base` (`extra` more records), each state it passes through as a read
    /// would give it (records newest first), with every balance the card stated on the way.
    private static func lives(_ base: CardReading, extra: Int, _ random: inout SplitMix64) -> (states: [CardReading], stated: Set<Int64>) {
        let oldestFirst = Array(base.transactions.reversed())
        let ring = oldestFirst.count
        var stated = Set(oldestFirst.compactMap(\.balance))
        if let b = base.balance { stated.insert(b) }
        guard ring > 0 else { return ([base], stated) }
        var history = oldestFirst
        var purse = base.balance
        var states = [base]
        let numbered = oldestFirst.compactMap { $0.metadata["sequence"].flatMap { Int($0) } }
        for j in 0 ..< extra {
            var r = oldestFirst[j % ring]
            let signed: Int64 = r.amount.map { Int64($0) }.map { r.type.direction == .added ? $0 : r.type.direction == .deducted ? -$0 : 0 } ?? 0
            // Its own bytes, so the archive takes it for a new record; its own number where the card numbers them.
            r.rawPayload = (r.rawPayload ?? "") + String(format: "%04X", j)
            if let top = numbered.max() { r.metadata["sequence"] = String(top + j + 1) }
            // A day or three after the newest record, or (one time in eight) before it: a clock set back.
            if let last = history.last?.date, r.date != nil {
                let step = random.below(8) == 0 ? -(1 + random.below(40)) : 1 + random.below(3)
                r.date = last.day.adding(days: step).map { CardDate(day: $0, clock: last.clock) } ?? last
            }
            // A gap one time in six: what a record the card no longer holds did to the purse.
            let gap: Int64 = random.below(6) == 0 ? Int64(random.below(500)) - 200 : 0
            if let p = purse { purse = p + gap + signed }
            // A record that stores a balance stores the purse after it.
            if r.balance != nil { r.balance = purse ?? ((history.last(where: { $0.balance != nil })?.balance ?? 0) + gap + signed) }
            if let b = r.balance { stated.insert(b) }
            history.append(r)
            var state = base
            state.transactions = Array(history.suffix(ring).reversed())
            // The purse the read states: the newest record's balance, or (one time in eight) one a
            // top-up at a machine that writes no record changed.
            if var p = purse {
                if random.below(8) == 0 { p += Int64(1 + random.below(300)); purse = p }
                state.balance = p
                stated.insert(p)
            }
            states.append(state)
        }
        return (states, stated)
    }

    /// Amount text as the journal writes it (`-18.65 EUR`, `2010 JPY`) in minor units.
    private static func minor(_ text: Substring) -> Int64? {
        Int64(text.split(separator: " ").first.map { $0.replacingOccurrences(of: ".", with: "") } ?? "")
    }

    func testShuffledReadsOfEveryFamilyGiveAJournalHledgerAccepts() throws {
        let hledger = try hledger()
        let samples = try Self.sampleReadings()
        XCTAssertGreaterThan(samples.count, 30, "the samples read")
        let families = Set(samples.map(\.reading.family))
        for family in ["hsl", "clipper", "orca", "opal", "china-city", "calypso", "japan-ic", "cepas", "tunion"] {
            XCTAssertTrue(families.contains(family), "a sample of \(family)")
        }
        let seeds = Int(ProcessInfo.processInfo.environment["TRANSIT_LEDGER_SEEDS"] ?? "") ?? 6
        var checked = 0, reads = 0
        for seed in 0 ..< seeds {
            fixture.remove()
            fixture = ArchiveFixture()
            try fixture.makeFolder()
            var random = SplitMix64(seed: UInt64(seed) &* 0x9E37_79B9 &+ 45)
            var saved = [CardReading]()
            var stated = [String: Set<Int64>]() // by the card's account
            var purseless = Set<String>()
            for (_, base) in samples {
                let life = Self.lives(base, extra: 4 + random.below(6), &random)
                saved += life.states
                // A state read again now and then (a second tap, `decode --save` of the same dump).
                for state in life.states where random.below(4) == 0 { saved.append(state) }
                let account = "Assets:Transit:" + ((base.cardName ?? base.family) + " " + base.serialNumber).split(whereSeparator: \.isWhitespace).joined(separator: " ")
                stated[account, default: []].formUnion(life.stated)
                if life.states.allSatisfy({ $0.balance == nil && $0.transactions.allSatisfy { $0.balance == nil } }) { purseless.insert(account) }
            }
            // The order reads were saved in: a seeded shuffle of every card's states.
            for i in saved.indices.reversed() { saved.swapAt(i, random.below(i + 1)) }
            let settings = ArchiveSettings.load(environment: fixture.environment)
            guard let archive = try Archive.open(settings, create: true) else { return XCTFail("no archive") }
            for reading in saved { _ = try archive.store(reading, command: "decode", reader: "test") }
            reads += saved.count
            let file = fixture.directory.appendingPathComponent("seed\(seed).journal").path
            let export = try fixture.transit(["export", "--format", "ledger", "--out", file])
            XCTAssertEqual(export.status, 0, export.stderr)
            let check = try CommandRun.run(hledger, ["-f", file, "check"])
            XCTAssertEqual(check.status, 0, "seed \(seed): hledger check: \(check.stderr)")
            checked += 1
            // Every assertion is a balance the card stated; a card without a purse asserts none.
            let text = try String(contentsOfFile: file, encoding: .utf8)
            var assertions = 0
            for line in text.split(separator: "\n") where line.hasPrefix("    Assets:Transit:") && line.contains(" = ") {
                let account = line.dropFirst(4).components(separatedBy: "  ").first ?? ""
                // The account is the card's name and number, then its IDm or id where two cards share them.
                let cards = stated.keys.filter { account == $0 || account.hasPrefix($0 + " ") }
                XCTAssertFalse(cards.isEmpty, "an account of a card saved: \(account)")
                XCTAssertFalse(cards.contains(where: purseless.contains), "seed \(seed): a card without a purse asserts no balance: \(line)")
                guard let asserted = line.components(separatedBy: " = ").last.flatMap({ Self.minor(Substring($0)) }) else {
                    XCTFail("an assertion's amount: \(line)"); continue
                }
                XCTAssertTrue(cards.contains { stated[$0]?.contains(asserted) == true }, "seed \(seed): \(line) asserts a balance no read stated")
                assertions += 1
            }
            XCTAssertGreaterThan(assertions, 50, "the journal asserts the cards' balances")
        }
        print("LedgerShuffleTests: hledger checked \(checked) journals of \(reads) shuffled reads (\(samples.count) samples)")
    }
}

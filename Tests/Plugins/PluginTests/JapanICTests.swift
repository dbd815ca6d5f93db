import CardSimulation
import TestSupport
import XCTest

/// Japan IC through its built library, one test per sentence of docs/specification.md §"Japan IC history".
final class JapanICTests: XCTestCase {
    /// A 090F block laid out by hand (layout: see JapanICHistory; bytes 6–9 as given).
    func record(_ console: UInt8, _ process: UInt8, _ y: Int, _ m: Int, _ d: Int, _ b6to9: [UInt8], balance: Int,
                region: UInt8 = 0) -> String {
        let date = (y - 2000) << 9 | m << 5 | d
        let bytes: [UInt8] = [console, process, 0, 0, UInt8(date >> 8), UInt8(date & 0xFF)] + b6to9
            + [UInt8(balance & 0xFF), UInt8(balance >> 8), 0, 0, 1, region]
        return bytes.map { String(format: "%02X", $0) }.joined()
    }

    func read(_ image: CardImage) throws -> PluginRead.Outcome {
        try PluginRead.read(image, plugins: [.japanIC, .cepas])
    }

    func testSampleCardBalanceStationsRegionsBusAndPurchase() throws {
        let outcome = try read(CardImages.sample("suica.json"))
        let r = try XCTUnwrap(outcome.reading, "\(String(describing: outcome.error))")
        XCTAssertEqual(r.family, "japan-ic")
        XCTAssertEqual(r.balance, 2010)
        XCTAssertEqual(r.currency, "JPY")
        XCTAssertEqual(r.serialNumber, "012E4CD8A1B2C3D4")
        let t = r.transactions
        XCTAssertEqual(t.count, 5)
        // Newest: rail gate with entry and exit, regions from byte 15 = 0x90 (entry 2, exit 1), 2170 − 2010.
        XCTAssertEqual([t[0].type.rawValue, t[0].entryStation, t[0].exitStation, t[0].date?.description], ["trip", "E33B", "E621", "2026-11-05"])
        XCTAssertEqual(t[0].amount, 160)
        // Bytes 13–14 (0006): the record's sequence number, for the history archive's merge.
        XCTAssertEqual(t[0].metadata, ["entryRegion": "2", "exitRegion": "1", "sequence": "6"])
        XCTAssertEqual(t.map { $0.metadata["sequence"] }, ["6", "5", "4", "3", "2"])
        // Vending machine (console C8): a purchase with its time, Japan Standard Time, no stations.
        XCTAssertEqual(t[1].type, .purchase)
        XCTAssertEqual(t[1].amount, 120)
        XCTAssertEqual(t[1].date?.description, "2026-11-04T13:45:00+09:00")
        XCTAssertNil(t[1].entryStation)
        XCTAssertNil(t[1].exitStation)
        // Bus (console 05): no stations, line and stop codes as uppercase hex.
        XCTAssertEqual(t[2].type, .trip)
        XCTAssertEqual(t[2].amount, 210)
        XCTAssertNil(t[2].entryStation)
        XCTAssertEqual(t[2].metadata, ["busLineCode": "0A12", "busStopCode": "3456", "sequence": "4"])
        // Charge (process 02) at a ticket machine (console 08): a top-up of 2500 − 500 at the
        // machine's station, bytes 6–7 0101 (HistoryInfo.cs), region 0; bytes 8–9 0000, no exit.
        XCTAssertEqual(t[3].type, .topup)
        XCTAssertEqual(t[3].amount, 2000)
        XCTAssertEqual(t[3].entryStation, "0101")
        XCTAssertNil(t[3].exitStation)
        XCTAssertEqual(t[3].metadata, ["entryRegion": "0", "sequence": "3"])
        // Oldest: no older record, so no amount.
        XCTAssertNil(t[4].amount)
    }

    func testTicketMachineAndFareAdjustmentRecordsHaveOnlyAnEntryStation() throws {
        for console: UInt8 in [0x03, 0x07, 0x08, 0x12, 0x13, 0x14, 0x15] {
            let image = CardImages.japanIC(history: [
                record(console, 0x03, 2025, 5, 1, [0x12, 0x34, 0x56, 0x78], balance: 800, region: 0xF0),
                record(0x16, 0x01, 2025, 4, 30, [0, 1, 0, 2], balance: 1000),
            ])
            let t = try XCTUnwrap(read(image).reading?.transactions.first)
            XCTAssertEqual(t.entryStation, "1234", "console \(console)")
            XCTAssertNil(t.exitStation, "console \(console)")
            XCTAssertEqual(t.metadata.filter { $0.key != "sequence" }, ["entryRegion": "3"], "console \(console)")
            XCTAssertEqual(t.amount, 200)
        }
    }

    func testTopUpProcessTypes() throws {
        for process: UInt8 in [0x02, 0x07, 0x14, 0x15, 0x17, 0x1F, 0x48, 0x49] {
            let image = CardImages.japanIC(history: [
                record(0x16, process, 2025, 5, 2, [1, 2, 3, 4], balance: 3000),
                record(0x16, 0x01, 2025, 5, 1, [1, 2, 3, 4], balance: 1000),
            ])
            let t = try XCTUnwrap(read(image).reading?.transactions.first)
            XCTAssertEqual(t.type, .topup, "process \(process)")
            XCTAssertEqual(t.amount, 2000, "an unsigned magnitude")
        }
        // A fare payment at a gate (process 01) deducts.
        let image = CardImages.japanIC(history: [record(0x16, 0x01, 2025, 5, 2, [1, 2, 3, 4], balance: 800),
                                                 record(0x16, 0x01, 2025, 5, 1, [1, 2, 3, 4], balance: 1000)])
        XCTAssertEqual(try read(image).reading?.transactions.first?.type, .trip)
    }

    func testZeroDateSlotsAreSkippedAndAmountsBridgeThem() throws {
        let empty = String(repeating: "0", count: 32)
        let image = CardImages.japanIC(history: [
            record(0x16, 0x01, 2025, 5, 3, [1, 1, 2, 2], balance: 700), empty,
            record(0x16, 0x01, 2025, 5, 2, [1, 1, 2, 2], balance: 900), empty, empty,
            record(0x16, 0x01, 2025, 5, 1, [1, 1, 2, 2], balance: 1000),
        ])
        let t = try XCTUnwrap(read(image).reading?.transactions)
        XCTAssertEqual(t.map { $0.date?.description }, ["2025-05-03", "2025-05-02", "2025-05-01"])
        XCTAssertEqual(t.map(\.amount), [200, 100, nil])
    }

    func testOutOfRangeDatesAndPurchaseTimesAreKeptWithoutADate() throws {
        let badTime = UInt16(25 << 11 | 10 << 5) // hour 25
        let image = CardImages.japanIC(history: [
            record(0x16, 0x01, 2025, 13, 1, [1, 1, 2, 2], balance: 500), // month 13
            record(0x16, 0x01, 2025, 2, 30, [1, 1, 2, 2], balance: 600), // 30 February
            record(0xC7, 0x46, 2025, 2, 1, [UInt8(badTime >> 8), UInt8(badTime & 0xFF), 0, 0], balance: 700),
            record(0x16, 0x01, 2025, 1, 31, [1, 1, 2, 2], balance: 900),
        ])
        let t = try XCTUnwrap(read(image).reading?.transactions)
        XCTAssertEqual(t.count, 4)
        XCTAssertEqual(t.map { $0.date?.description }, [nil, nil, nil, "2025-01-31"])
        XCTAssertEqual(t.map(\.amount), [100, 100, 200, nil])
        XCTAssertEqual(t[2].type, .purchase)
    }

    func testReadTakesFiveExchangesAndFallsBackWhenTheCardTakesFewerBlocks() throws {
        let fast = try read(CardImages.sample("suica.json"))
        // UID, Request System Code, 008B + 090F[0…9] and 090F[10…19] (11 + 10 blocks), Request Service.
        XCTAssertEqual(fast.exchanges, 5)
        var small = try CardImages.sample("suica.json")
        small.felica?.maxBlocksPerRead = 4
        let slow = try read(small)
        XCTAssertEqual(slow.reading, fast.reading)
        // 11 refused (limit 12), 7 refused (limit 8), then 21 blocks in six commands of at most 4.
        XCTAssertEqual(slow.exchanges, 2 + 2 + 6 + 1)
    }

    func testRefusedBalanceIsCardRefusedButARefusedHistoryStillGivesTheBalance() throws {
        let noBalance = try read(CardImages.japanIC(history: [], locked: ["008B"]))
        XCTAssertEqual(noBalance.error?.kind, .cardRefused)
        XCTAssertEqual(noBalance.error?.plugin, "japan-ic")
        XCTAssertEqual(noBalance.error?.kind.exitCode, 5)
        // Issue 12: a card whose history cannot be read still gives its balance, with no records.
        let noHistory = try XCTUnwrap(read(CardImages.japanIC(history: [], balance: 1234, locked: ["090F"])).reading)
        XCTAssertEqual(noHistory.balance, 1234)
        XCTAssertEqual(noHistory.transactions, [])
    }

    func testFewerThanTwentyHistoryBlocksGiveTheBlocksTheCardHas() throws {
        // A card (or dump) whose 090F holds 7 blocks: the emulator answers A8 past the end, as a card does.
        let history = (1 ... 7).map { record(0x16, 0x01, 2025, 5, 8 - $0, [1, 1, 2, 2], balance: 1000 + 100 * $0) }
        var image = CardImages.japanIC(history: history, balance: 1100)
        image.felica?.systems[0].services["090F"] = history
        let outcome = try read(image)
        let r = try XCTUnwrap(outcome.reading, "\(String(describing: outcome.error))")
        XCTAssertEqual(r.balance, 1100)
        XCTAssertEqual(r.transactions.count, 7)
        XCTAssertEqual(r.transactions.map { $0.date?.description }, (1 ... 7).map { "2025-05-0\(8 - $0)" })
        XCTAssertEqual(r.transactions.map(\.balance), [1100, 1200, 1300, 1400, 1500, 1600, 1700])
        XCTAssertEqual(r.transactions.first?.amount, 100)
    }

    func testEveryRecordCarriesTheBalanceOfBytes10And11() throws {
        // samples/suica.json, bytes 10–11 little-endian of each 090F block: DA07, 7A08, F208, C409, F401.
        let r = try XCTUnwrap(read(CardImages.sample("suica.json")).reading)
        XCTAssertEqual(r.transactions.map(\.balance), [2010, 2170, 2290, 2500, 500])
        XCTAssertEqual(r.transactions.first?.balance, r.balance, "the newest record's balance is the card's")
    }

    func testAutoChargesAtAGateAndNewIssueKeepTheirStationsSalesHaveNone() throws {
        // An auto-charge at a gate's entry or exit (14h, 15h) is no journey: the gate's station, no exit.
        // An auto-charge says so (`event`), as SFCard Viewer's memo does (ｵｰﾄﾁｬｰｼﾞ).
        let autoCharge = ["entryRegion": "2", "event": "auto-charge"]
        for (process, exit, regions): (UInt8, String?, [String: String]) in [(0x14, nil, autoCharge), (0x15, nil, autoCharge),
                                                                            (0x07, "E621", ["entryRegion": "2", "exitRegion": "1"])] {
            let image = CardImages.japanIC(history: [
                record(0x16, process, 2025, 5, 2, [0xE3, 0x3B, 0xE6, 0x21], balance: 3000, region: 0x90),
                record(0x16, 0x01, 2025, 5, 1, [1, 2, 3, 4], balance: 1000),
            ])
            let t = try XCTUnwrap(read(image).reading?.transactions.first)
            XCTAssertEqual(t.type, .topup, "process \(process)")
            XCTAssertEqual([t.entryStation, t.exitStation], ["E33B", exit], "process \(process)")
            XCTAssertEqual(t.metadata.filter { $0.key != "sequence" }, regions, "process \(process)")
        }
        // A new card issued at a ticket machine (console 07): its station, entry only.
        let issued = CardImages.japanIC(history: [record(0x07, 0x07, 2025, 5, 2, [0xE3, 0x3B, 0, 0], balance: 1500, region: 0x40)])
        let t = try XCTUnwrap(read(issued).reading?.transactions.first)
        XCTAssertEqual([t.entryStation, t.exitStation], ["E33B", nil])
        XCTAssertEqual(t.metadata.filter { $0.key != "sequence" }, ["entryRegion": "1"])
        for (console, process): (UInt8, UInt8) in [(0xC7, 0x46), (0xC8, 0x46), (0xC7, 0x02)] {
            let image = CardImages.japanIC(history: [record(console, process, 2025, 5, 2, [0xE3, 0x3B, 0xE6, 0x21], balance: 900)])
            let t = try XCTUnwrap(read(image).reading?.transactions.first)
            XCTAssertNil(t.entryStation, "console \(console) process \(process)")
            XCTAssertNil(t.exitStation, "console \(console) process \(process)")
        }
    }

    func testAChargeAtAStationsMachineIsATopUpAtThatStation() throws {
        // ICHistoryReader HistoryInfo.cs: bytes 6–7 the station, 8–9 "0000 for a new card or a
        // charge". The sample's top-up, console 08 (ticket machine), process 02: 08 02 00 00 3562
        // 0101 0000 C409 …: ¥500 → ¥2,500 at 0101 (region 0), no exit.
        let r = try XCTUnwrap(read(CardImages.sample("suica.json")).reading)
        let charge = try XCTUnwrap(r.transactions.first { $0.rawType == "0802" })
        XCTAssertEqual(charge.type, .topup)
        XCTAssertEqual(charge.amount, 2000)
        XCTAssertEqual([charge.entryStation, charge.exitStation], ["0101", nil])
        XCTAssertEqual(charge.metadata["entryRegion"], "0")
        XCTAssertNil(charge.metadata["exitRegion"])
        // At a charge machine of another console (a fare adjuster, 12h; a gate's console, 16h):
        // still the station, and bytes 8–9 never an exit.
        for console: UInt8 in [0x12, 0x16] {
            let image = CardImages.japanIC(history: [
                record(console, 0x02, 2025, 5, 2, [0xE3, 0x3B, 0x01, 0x01], balance: 3000, region: 0xC0),
                record(0x16, 0x01, 2025, 5, 1, [1, 2, 3, 4], balance: 1000),
            ])
            let t = try XCTUnwrap(read(image).reading?.transactions.first)
            XCTAssertEqual(t.type, .topup, "console \(console)")
            XCTAssertEqual([t.entryStation, t.exitStation], ["E33B", nil], "console \(console)")
            XCTAssertEqual(t.metadata["entryRegion"], "3")
        }
        // A charge with 0000 in 6–7 carries no station (docs/specification.md §"Japan IC history": charges carry no stations).
        let bare = CardImages.japanIC(history: [record(0x08, 0x02, 2025, 5, 2, [0, 0, 0, 0], balance: 900)])
        XCTAssertNil(try XCTUnwrap(read(bare).reading?.transactions.first).entryStation)
    }

    func testATicketsMachineNumberIsNeverAnExit() throws {
        // HistoryInfo.cs: for tickets bought, 8–9 are a ticket machine number, "mostly 00 00, rarely 01 01".
        let image = CardImages.japanIC(history: [
            record(0x16, 0x03, 2025, 5, 2, [0xE3, 0x3B, 0x01, 0x01], balance: 840, region: 0x40),
            record(0x16, 0x01, 2025, 5, 1, [1, 2, 3, 4], balance: 1000),
        ])
        let t = try XCTUnwrap(read(image).reading?.transactions.first)
        XCTAssertEqual(t.type, .purchase)
        XCTAssertEqual([t.entryStation, t.exitStation], ["E33B", nil])
    }

    func testATicketBoughtWithTheCardIsAPurchaseAtItsStation() throws {
        // Console 08 (ticket machine), process 03 (a magnetic ticket bought with the balance,
        // Metrodroid's process table): 1000 → 840, at station E33B, no exit.
        let image = CardImages.japanIC(history: [
            record(0x08, 0x03, 2025, 5, 2, [0xE3, 0x3B, 0x00, 0x00], balance: 840, region: 0x40),
            record(0x16, 0x01, 2025, 5, 1, [1, 2, 3, 4], balance: 1000),
        ])
        let t = try XCTUnwrap(read(image).reading?.transactions.first)
        XCTAssertEqual(t.type, .purchase)
        XCTAssertEqual(t.amount, 160)
        XCTAssertEqual([t.entryStation, t.exitStation], ["E33B", nil])
    }

    func testTheOldestRecordOfANewCardAddedItsBalance() throws {
        // Process 07, new issue, the oldest record: the card started at zero, so 500 came in.
        let image = CardImages.japanIC(history: [
            record(0x16, 0x01, 2025, 5, 2, [0xE3, 0x3B, 0xE6, 0x21], balance: 340),
            record(0x07, 0x07, 2025, 5, 1, [0xE3, 0x3B, 0x00, 0x00], balance: 500),
        ])
        let t = try XCTUnwrap(read(image).reading?.transactions)
        XCTAssertEqual(t.map(\.amount), [160, 500])
        XCTAssertEqual(t.last?.type, .topup)
        // Any other oldest record still has no amount: nothing tells what came before it.
        let plain = CardImages.japanIC(history: [record(0x16, 0x01, 2025, 5, 1, [1, 2, 3, 4], balance: 500)])
        XCTAssertNil(try XCTUnwrap(read(plain).reading?.transactions.first).amount)
    }

    func testStationCode0000IsNoStation() throws {
        let image = CardImages.japanIC(history: [
            record(0x16, 0x01, 2025, 5, 2, [0x00, 0x00, 0xE6, 0x21], balance: 340, region: 0x90),
            record(0x16, 0x01, 2025, 5, 1, [0xE3, 0x3B, 0x00, 0x00], balance: 500),
        ])
        let t = try XCTUnwrap(read(image).reading?.transactions)
        XCTAssertEqual(t.map { [$0.entryStation, $0.exitStation] }, [[nil, "E621"], ["E33B", nil]])
        XCTAssertNil(t[0].metadata["entryRegion"])
        XCTAssertNil(t[1].metadata["exitRegion"])
    }

    func testACancelledPurchaseWhoseBalanceWentUpIsARefundTopUp() throws {
        // POS terminal (C7), merchandise cancel (4A): 800 → 1000 (issue 12).
        let image = CardImages.japanIC(history: [
            record(0xC7, 0x4A, 2025, 5, 2, [0x60, 0x00, 0, 0], balance: 1000),
            record(0xC7, 0x46, 2025, 5, 2, [0x50, 0x00, 0, 0], balance: 800),
            record(0x16, 0x01, 2025, 5, 1, [1, 2, 3, 4], balance: 1000),
        ])
        let t = try XCTUnwrap(read(image).reading?.transactions)
        XCTAssertEqual(t[0].type, .topup)
        XCTAssertEqual(t[0].amount, 200)
        XCTAssertEqual(t[0].metadata["event"], "refund")
        XCTAssertEqual(t[0].balance, 1000)
        XCTAssertEqual(t[1].type, .purchase, "the purchase it cancelled still deducts")
        XCTAssertEqual(t[1].amount, 200)
        XCTAssertNil(t[1].metadata["event"])
    }

    func testCardWithoutSystem0003IsSkippedWithoutTraffic() throws {
        let image = CardImage(felica: .init(idm: "0114AABBCCDDEEFF", pmm: nil, maxBlocksPerRead: nil,
                                            systems: [.init(code: "FE00", services: [:], lockedServices: nil)]))
        let outcome = try read(image)
        XCTAssertEqual(outcome.error?.kind, .tagNotSupported)
        XCTAssertEqual(outcome.exchanges, 2, "only the host's UID and Request System Code")
    }

    func testEveryTruncatedOrPaddedAnswerEndsInADocumentedError() throws {
        let image = try CardImages.sample("suica.json")
        let documented: Set<String> = ["malformedResponse", "communication", "cardRefused", "tagNotSupported"]
        for index in 0 ..< 4 {
            for change in [{ (a: [UInt8]) in Array(a.dropLast(3)) }, { Array($0.prefix(1)) }, { $0 + [0x00] },
                           { Array($0.dropFirst(1)) }, { _ in [] }] {
                let outcome = try PluginRead.read(image, plugins: [.japanIC]) { i, _, answer in i == index ? change(answer) : answer }
                if let e = outcome.error {
                    XCTAssertTrue(documented.contains(e.kind.rawValue), "exchange \(index): \(e)")
                } else {
                    XCTFail("exchange \(index): a changed answer still read as a card: \(String(describing: outcome.reading?.balance)) \(outcome.log)")
                }
            }
        }
    }
}

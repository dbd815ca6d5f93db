import CardSimulation
import TestSupport
import XCTest

/// The team's real card dumps (`TRANSIT_CARD_DUMPS`, `BuildProducts.cardDumps`) come out as the
/// folder's README lists (skipped where absent).
/// The dumps are read in place and never copied into the repository.
final class SharedDumpTests: XCTestCase {
    func read(_ name: String, plugins: [PluginRead.Plugin] = PluginRead.Plugin.defaultOrder) throws -> PluginRead.Outcome {
        let dir = try XCTUnwrap(BuildProducts.cardDumps, BuildProducts.cardDumpsMissing)
        return try PluginRead.read(CardImage.load(dir.appendingPathComponent(name).path), plugins: plugins)
    }

    override func setUpWithError() throws {
        if BuildProducts.cardDumps == nil { throw XCTSkip(BuildProducts.cardDumpsMissing) }
    }

    func testSuica() throws {
        let r = try XCTUnwrap(read("Suica.nfc").reading)
        XCTAssertEqual(r.family, "japan-ic")
        XCTAssertEqual(r.cardName, "Suica", "its one marker, 1808, among the locked services the dump lists")
        XCTAssertEqual(r.balance, 10)
        XCTAssertEqual(r.currency, "JPY")
        XCTAssertEqual(r.transactions.count, 20)
        let newest = r.transactions[0]
        XCTAssertEqual([newest.date?.description, newest.type.rawValue, newest.entryStation, newest.exitStation], ["2011-03-12", "trip", "E33B", "E621"])
        XCTAssertEqual(newest.amount, 160)
        XCTAssertEqual(r.transactions[10].type, .purchase)
        XCTAssertEqual(r.transactions[10].rawType, "C846")
        XCTAssertEqual(r.transactions[10].amount, 120)
        XCTAssertEqual(r.transactions[12].type, .topup)
        XCTAssertEqual(r.transactions[12].rawType?.suffix(2), "02")
        XCTAssertEqual(r.transactions[12].amount, 2000)
    }

    func testSuicaCommonAreaWithoutPursesFallsThroughToJapanIC() throws {
        let outcome = try read("Suica.nfc", plugins: [.edy, .waon, .nanaco, .japanIC])
        XCTAssertEqual(outcome.plugin, "japan-ic")
        for purse in ["edy", "waon", "nanaco"] { XCTAssertTrue(outcome.log.contains("\(purse): not this card"), purse) }
    }

    func testPASMO() throws {
        let r = try XCTUnwrap(read("PASMO.nfc").reading)
        XCTAssertEqual(r.cardName, "PASMO")
        XCTAssertEqual(r.metadata["issuerMarkers"], "1CC8")
        XCTAssertEqual(r.balance, 0)
        XCTAssertEqual(r.transactions.count, 11)
        XCTAssertEqual(r.transactions[0].type, .purchase)
        XCTAssertEqual(r.transactions[0].amount, 420)
        XCTAssertEqual(r.transactions[1].amount, 550)
        XCTAssertEqual(r.transactions[0].rawType?.prefix(2), "C7")
        XCTAssertTrue(r.transactions[0].date?.description.hasPrefix("2011-06-14T") == true)
        XCTAssertTrue(r.transactions[1].date?.description.hasPrefix("2011-06-14T") == true)
        XCTAssertEqual(r.transactions[7].rawType, "1F02")
        XCTAssertEqual(r.transactions[7].type, .topup)
        XCTAssertEqual(r.transactions[7].amount, 1000)
    }

    func testICOCA() throws {
        let r = try XCTUnwrap(read("ICOCA.nfc").reading)
        XCTAssertEqual(r.cardName, "ICOCA")
        XCTAssertEqual(r.balance, 175)
        XCTAssertEqual(r.transactions.count, 20)
        let newest = r.transactions[0]
        XCTAssertEqual([newest.date?.description, newest.entryStation, newest.exitStation], ["2018-09-17", "8BA5", "8AA5"])
        XCTAssertEqual(newest.amount, 260)
        XCTAssertEqual(newest.metadata.filter { $0.key != "sequence" }, ["entryRegion": "2", "exitRegion": "2"], "region byte A0")
        XCTAssertEqual(newest.metadata["sequence"].flatMap { Int($0) }, Int(newest.rawPayload?.dropFirst(26).prefix(4) ?? "", radix: 16))
        let bus = r.transactions[4]
        XCTAssertEqual(bus.rawType?.prefix(2), "05")
        XCTAssertEqual(bus.amount, 200)
        XCTAssertNil(bus.entryStation)
        XCTAssertNil(bus.exitStation)
    }

    func testOctopusWithBothOffsets() throws {
        let r = try XCTUnwrap(read("Octopus.json").reading)
        XCTAssertEqual(r.family, "octopus")
        XCTAssertEqual(r.currency, "HKD")
        XCTAssertEqual(r.balance, 60)
        XCTAssertEqual(try read("Octopus.json", plugins: [.octopus(offset: "500")]).reading?.balance, -1440)
    }

    func testTMoney() throws {
        let r = try XCTUnwrap(read("TMoney.json").reading)
        XCTAssertEqual(r.family, "ksx6924")
        XCTAssertEqual(r.cardName, "T-Money")
        XCTAssertEqual(r.balance, 17650)
        XCTAssertEqual(r.currency, "KRW")
        XCTAssertEqual(r.serialNumber, "1010030000123456")
        XCTAssertEqual(r.validFrom?.description, "2016-07-27")
        XCTAssertEqual(r.transactions.count, 5)
        XCTAssertEqual(r.transactions.filter { $0.type == .trip }.map(\.amount), [13500, 100, 1250, 13500])
        XCTAssertEqual(r.transactions.filter { $0.type == .topup }.map(\.amount), [46000])
    }

    /// Each record's stored balance: the newest is the card's balance (docs/research/felica-iso.md
    /// §"Japan IC history service"; in these dumps block 0 of 090F agrees with 008B), and each step from the older record is the record's amount, added
    /// for a top-up, deducted otherwise (T-Money stores amount and balance in separate fields).
    func assertBalanceChain(_ name: String, newest: Int64, file: StaticString = #filePath, line: UInt = #line) throws {
        let r = try XCTUnwrap(read(name).reading, file: file, line: line)
        XCTAssertEqual(r.transactions.first?.balance, newest, name, file: file, line: line)
        XCTAssertEqual(r.transactions.first?.balance, r.balance, name, file: file, line: line)
        for (newer, older) in zip(r.transactions, r.transactions.dropFirst()) {
            guard let amount = newer.amount, let after = newer.balance, let before = older.balance else { continue }
            let step = newer.type == .topup ? Int64(amount) : -Int64(amount)
            XCTAssertEqual(after, before + step, "\(name) \(newer.date?.description ?? "") \(newer.rawType ?? "")", file: file, line: line)
        }
    }

    func testEveryRecordOfTheDumpsCarriesItsBalance() throws {
        try assertBalanceChain("Suica.nfc", newest: 10)
        try assertBalanceChain("PASMO.nfc", newest: 0)
        try assertBalanceChain("ICOCA.nfc", newest: 175)
        try assertBalanceChain("TMoney.json", newest: 17650)
        // Suica block 12, the charge of 2000 (README), left the card at 2000 from 0.
        let suica = try XCTUnwrap(read("Suica.nfc").reading)
        XCTAssertEqual([suica.transactions[12].balance, suica.transactions[13].balance], [2000, 0])
    }
}

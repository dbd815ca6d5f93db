import CardSimulation
import TestSupport
import XCTest

/// KS X 6924 (T-Money and kin) and Snapper through the ksx6924 library.
final class KSX6924Tests: XCTestCase {
    static let tmoneySelect = "00A4040007D410000003000100"
    static let cashbeeSelect = "00A4040007D410000014000100"

    func testTMoneyCardWithinFivePlusRecordsExchanges() throws {
        let outcome = try PluginRead.read(CardImages.sample("tmoney.json"), plugins: PluginRead.Plugin.defaultOrder)
        let r = try XCTUnwrap(outcome.reading, "\(String(describing: outcome.error))")
        XCTAssertEqual(r.family, "ksx6924")
        XCTAssertEqual(r.cardName, "T-Money")
        XCTAssertEqual(r.serialNumber, "1010010000987654")
        XCTAssertEqual(r.balance, 10000)
        XCTAssertEqual(r.currency, "KRW")
        XCTAssertEqual(r.validFrom?.description, "2023-03-01")
        XCTAssertEqual(r.validUntil?.description, "2028-02-28")
        // The unused slot (amount 0, no time) is skipped; a top-up without a time keeps no date.
        XCTAssertEqual(r.transactions.map(\.type.rawValue), ["trip", "trip", "topup"])
        XCTAssertEqual(r.transactions.map(\.amount), [1250, 1400, 10000])
        XCTAssertEqual(r.transactions.map { $0.date?.description }, ["2026-11-20T08:10:00+09:00", "2026-11-19T18:00:00+09:00", nil])
        // The host's FF CA (answered by the reader, not counted by the budget), then cepas's SELECT
        // 4000, SELECT, GET BALANCE, 4 records and the 6A83 that ends them.
        XCTAssertEqual(outcome.exchanges, 1 + 1 + 2 + 4 + 1)
        XCTAssertLessThanOrEqual(outcome.exchanges - 1, 5 + 4)
    }

    func testCashbeeIsFoundByItsAID() throws {
        var image = try CardImages.sample("tmoney.json")
        image.editApplication(select: Self.tmoneySelect) { $0.select = Self.cashbeeSelect }
        let r = try XCTUnwrap(PluginRead.read(image, plugins: [.ksx6924]).reading)
        XCTAssertEqual(r.cardName, "Cashbee")
    }

    func testRefusedGetBalanceAfterSelectEndsTheReadBeforeTUnion() throws {
        var image = try CardImages.sample("tmoney.json")
        image.editApplication(select: Self.tmoneySelect) { $0.commands["904C000004"] = "6985" }
        image.addApplications(of: try CardImages.sample("tunion.json"))
        let outcome = try PluginRead.read(image, plugins: [.cepas, .ksx6924, .tunion])
        XCTAssertEqual(outcome.error?.kind, .cardRefused)
        XCTAssertEqual(outcome.error?.plugin, "ksx6924")
        XCTAssertEqual(outcome.error?.kind.exitCode, 5)
        XCTAssertFalse(outcome.log.contains("ksx6924: not this card"))
    }

    func testSelectAnswerWithoutPurseInformationIsMalformed() throws {
        var image = try CardImages.sample("tmoney.json")
        image.editApplication(select: Self.tmoneySelect) { $0.answer = "6F0384019000" }
        XCTAssertEqual(try PluginRead.read(image, plugins: [.ksx6924, .tunion]).error?.kind, .malformedResponse)
    }

    func testSnapperIsRecognisedByItsFillerAndReadInNZD() throws {
        let outcome = try PluginRead.read(CardImages.sample("snapper.json"), plugins: PluginRead.Plugin.defaultOrder)
        let r = try XCTUnwrap(outcome.reading)
        XCTAssertEqual(r.family, "snapper")
        XCTAssertEqual(r.cardName, "Snapper")
        XCTAssertEqual(r.currency, "NZD")
        XCTAssertEqual(r.balance, 1234)
        XCTAssertEqual(r.transactions, [], "Snapper trip records are not decoded")
    }

    func testOneRecordWithoutTheFillerIsNotSnapper() throws {
        var image = try CardImages.sample("snapper.json")
        let tmoney = try CardImages.sample("tmoney.json")
        let tmoneyRecord = try XCTUnwrap(tmoney.iso7816?.applications.first?.records?["04"]?.first)
        image.editApplication(select: Self.tmoneySelect) { $0.records?["04"]?.append(tmoneyRecord) }
        let r = try XCTUnwrap(PluginRead.read(image, plugins: [.ksx6924]).reading)
        XCTAssertEqual(r.family, "ksx6924")
        XCTAssertEqual(r.currency, "KRW")
    }

    func testSnapperFillerUnderAnotherAIDIsNotSnapper() throws {
        var image = try CardImages.sample("snapper.json")
        image.editApplication(select: Self.tmoneySelect) { $0.select = Self.cashbeeSelect }
        let r = try XCTUnwrap(PluginRead.read(image, plugins: [.ksx6924]).reading)
        XCTAssertEqual(r.family, "ksx6924", "Snapper answers the T-Money AID only")
        XCTAssertEqual(r.cardName, "Cashbee")
    }

    func testMissingTransactionFileAfterSelectIsARefusal() throws {
        var image = try CardImages.sample("tmoney.json")
        image.editApplication(select: Self.tmoneySelect) { $0.records = [:] } // READ RECORD answers 6A82
        let outcome = try PluginRead.read(image, plugins: [.ksx6924, .tunion])
        XCTAssertEqual(outcome.error?.kind, .cardRefused)
    }

    func testEveryRecordCarriesItsBalanceAndAZeroSlotIsEmpty() throws {
        // samples/tmoney.json: bytes 2–5 of each record, the balance after it: 10000, 11250, 12650.
        let r = try XCTUnwrap(PluginRead.read(CardImages.sample("tmoney.json"), plugins: [.ksx6924]).reading)
        XCTAssertEqual(r.transactions.map(\.balance), [10000, 11250, 12650])
        // A slot with a zero time (BCD 00…) and a zero amount is empty, not a trip of 0 (issue 12).
        var image = try CardImages.sample("tmoney.json")
        // type 01, balance 0, counter 1, amount 0, terminal bytes, time 00000000000000 (Metrodroid TMoneyTrip layout).
        let zeroSlot = "012C" + "00000000" + "00000001" + "00000000" + "072009" + String(repeating: "11", count: 9)
            + String(repeating: "00", count: 7) + String(repeating: "00", count: 7) + "12345678" + "0000"
        XCTAssertEqual(zeroSlot.count, 92)
        image.editApplication(select: "00A4040007D410000003000100") { $0.records?["04"]?[3] = zeroSlot }
        let t = try XCTUnwrap(PluginRead.read(image, plugins: [.ksx6924]).reading?.transactions)
        XCTAssertEqual(t.count, 3)
        XCTAssertEqual(t.map(\.type.rawValue), ["trip", "trip", "topup"])
    }
}

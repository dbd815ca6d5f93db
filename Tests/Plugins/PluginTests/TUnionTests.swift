import CardSimulation
import TestSupport
import XCTest

/// China T-Union through the tunion library: the T-Union sentences of docs/specification.md and the ISO fallback chain.
final class TUnionTests: XCTestCase {
    static let select = "00A4040008A00000063201010500"

    func testCardRejectingCEPASAndEveryKSX6924AIDIsReadAsTUnionWithinTwentyExchanges() throws {
        let outcome = try PluginRead.read(CardImages.sample("tunion.json"), plugins: PluginRead.Plugin.defaultOrder)
        let r = try XCTUnwrap(outcome.reading, "\(String(describing: outcome.error))")
        XCTAssertEqual(r.family, "tunion")
        XCTAssertEqual(r.currency, "CNY")
        // Primary purse 0x80001388: the top bit is not part of the amount, 5000 fen; minus the
        // negative purse 0x4B0 = 1200 fen.
        XCTAssertEqual(r.balance, 3800)
        XCTAssertEqual(r.serialNumber, "03104512345678901234", "the 20 hex digits of file 0x15 bytes 10–19")
        XCTAssertEqual(r.validFrom?.description, "2023-01-15")
        XCTAssertEqual(r.validUntil?.description, "2033-01-15")
        XCTAssertEqual(r.transactions.count, 10)
        XCTAssertEqual(r.transactions[4].type, .topup)
        XCTAssertEqual(r.transactions[0].type, .purchase)
        XCTAssertEqual(r.transactions[0].amount, 200)
        XCTAssertEqual(r.transactions[0].date?.description, "2026-11-20T08:30:00+08:00", "China Standard Time")
        // The host's FF CA (answered by the reader, not counted by the budget), then SELECT 4000,
        // five KS X 6924 AIDs, SELECT, two purses, file 0x15 and ten records.
        XCTAssertEqual(outcome.exchanges, 1 + 1 + 5 + 1 + 2 + 1 + 10)
        XCTAssertLessThanOrEqual(outcome.exchanges - 1, 20)
    }

    func testFile15InTheSelectAnswerSavesTheReadBinary() throws {
        // The FCI's proprietary template A5 carries file 0x15 under tag 9F0C (T-Union Master
        // t_union_decode_app_meta, NFSee BasicInfoFile): the same card number and validity, one
        // exchange fewer. FCI: 6F 2D | 84 08 <AID> | A5 21 | 9F0C 1E <the 30 bytes of file 0x15>.
        let file15 = "010203040506070800010310451234567890123420230115203301150000"
        var image = try CardImages.sample("tunion.json")
        image.editApplication(select: Self.select) {
            $0.answer = "6F2D8408A000000632010105A5219F0C1E" + file15 + "9000"
            $0.binaries = nil
        }
        let plain = try PluginRead.read(CardImages.sample("tunion.json"), plugins: [.tunion])
        let outcome = try PluginRead.read(image, plugins: [.tunion])
        let r = try XCTUnwrap(outcome.reading, "\(String(describing: outcome.error))")
        XCTAssertEqual(r.serialNumber, "03104512345678901234")
        XCTAssertEqual(r.validFrom?.description, "2023-01-15")
        XCTAssertEqual(r.validUntil?.description, "2033-01-15")
        XCTAssertEqual(r, plain.reading)
        XCTAssertEqual(outcome.exchanges, plain.exchanges - 1)
    }

    func testNegativePurseRejectedWithAStatusWordCountsAsZero() throws {
        for sw in ["6A88", "6D00", "6985"] {
            var image = try CardImages.sample("tunion.json")
            image.editApplication(select: Self.select) { $0.commands["805C010204"] = sw }
            XCTAssertEqual(try PluginRead.read(image, plugins: [.tunion]).reading?.balance, 5000, sw)
        }
        var zero = try CardImages.sample("tunion.json")
        zero.editApplication(select: Self.select) { $0.commands["805C010204"] = "000000009000" }
        XCTAssertEqual(try PluginRead.read(zero, plugins: [.tunion]).reading?.balance, 5000)
    }

    func testOtherNegativePurseFailuresEndTheRead() throws {
        var image = try CardImages.sample("tunion.json")
        image.editApplication(select: Self.select) { $0.commands["805C010204"] = "00049000" }
        XCTAssertEqual(try PluginRead.read(image, plugins: [.tunion]).error?.kind, .malformedResponse)
        let removed = try PluginRead.read(CardImages.sample("tunion.json"), plugins: [.tunion]) { i, command, answer in
            if command == [0x80, 0x5C, 0x01, 0x02, 0x04] { throw HostErrors.removed }
            return answer
        }
        XCTAssertEqual(removed.error?.kind, .sessionLost)
    }

    func testRejectedGetBalanceIsCardRefused() throws {
        var image = try CardImages.sample("tunion.json")
        image.editApplication(select: Self.select) { $0.commands["805C000204"] = "6985" }
        let outcome = try PluginRead.read(image, plugins: [.tunion])
        XCTAssertEqual(outcome.error?.kind, .cardRefused)
    }

    func testCardNumberFromTheWholeFileWhenTheShortReadIsRefused() throws {
        var image = try CardImages.sample("tunion.json")
        image.editApplication(select: Self.select) { $0.commands["00B0950A12"] = "6700" }
        let r = try XCTUnwrap(PluginRead.read(image, plugins: [.tunion]).reading)
        XCTAssertEqual(r.serialNumber, "03104512345678901234")
        XCTAssertEqual(r.validUntil?.description, "2033-01-15")
    }

    func testTypesOneAndTwoAreTopUps() throws {
        var image = try CardImages.sample("tunion.json")
        // Record 1: counter 1, amount 1000 fen, type 01, 2026-01-02 03:04:05.
        let record = "0001" + "000000" + "000003E8" + "01" + "110000123456" + "20260102030405"
        image.editApplication(select: Self.select) { $0.records?["18"] = [record] }
        let t = try XCTUnwrap(PluginRead.read(image, plugins: [.tunion]).reading?.transactions.first)
        XCTAssertEqual(t.type, .topup)
        XCTAssertEqual(t.amount, 1000)
        XCTAssertEqual(t.date?.description, "2026-01-02T03:04:05+08:00")
    }
}

import CardSimulation
import TestSupport
import XCTest

/// Rakuten Edy: the sentences of docs/specification.md for the FeliCa common-area purses, on the Edy card.
final class EdyTests: XCTestCase {
    func testSampleEdyCard() throws {
        let outcome = try PluginRead.read(CardImages.sample("edy.json"), plugins: PluginRead.Plugin.defaultOrder)
        let r = try XCTUnwrap(outcome.reading, "\(String(describing: outcome.error))")
        XCTAssertEqual(r.family, "edy")
        XCTAssertEqual(r.serialNumber, "1234567890123456", "the Edy number printed on the card")
        XCTAssertEqual(r.metadata["idm"], "0116A0B1C2D3E4F5", "the IDm is always in metadata")
        XCTAssertEqual(r.balance, 1234)
        XCTAssertEqual(r.currency, "JPY")
        XCTAssertEqual(r.validFrom?.description, "2019-04-01", "the issue date becomes validFrom")
        // Payments are purchases, charges and gifts top-ups; other types unknown with no amount.
        XCTAssertEqual(r.transactions.map(\.type.rawValue), ["purchase", "topup", "topup", "purchase", "unknown"])
        XCTAssertEqual(r.transactions.map(\.amount), [330, 1000, 100, 536, nil])
        // Japan Standard Time.
        XCTAssertEqual(r.transactions.first?.date?.description, "2026-11-10T12:34:56+09:00")
        // UID, Request System Code, then Request Service and one read.
        XCTAssertEqual(outcome.exchanges, 4)
    }

    /// A phone: FE00 is system 1 but answers its own IDm, so the derived one meets silence.
    /// Passes once the host reports a silent card as NO_ANSWER (a reader failure is COMMUNICATION).
    func testPhoneWhoseCommonAreaAnswersItsOwnIDm() throws {
        let outcome = try PluginRead.read(CardImages.sample("edy-mobile.json"), plugins: PluginRead.Plugin.defaultOrder)
        let r = try XCTUnwrap(outcome.reading, "\(String(describing: outcome.error)) \(outcome.log)")
        XCTAssertEqual(r.family, "edy")
        XCTAssertEqual(r.serialNumber, "1234567890123456")
        XCTAssertEqual(r.balance, 1234)
        XCTAssertEqual(r.transactions.map(\.amount), [330, 1000, 100, 536, nil])
        XCTAssertEqual(r.metadata["idm"], "0512A0B1C2D3E4F5", "the IDm FE00 answered, not the derived 1139F1E2D3C4B5A6")
        // UID, Request System Code; Request Service to the derived IDm (silence), Polling for FE00,
        // Request Service again and one read.
        XCTAssertEqual(outcome.exchanges, 6)
    }

    func testSystemIDmOfAnImageMustBeEightBytes() throws {
        var image = try CardImages.sample("edy-mobile.json")
        image.felica?.systems[1].idm = "0512A0B1C2D3E4"
        XCTAssertThrowsError(try PluginRead.read(image, plugins: [.edy]))
    }

    func testRefusedNumberFallsBackToTheIDmAndRefusedBalanceEndsTheRead() throws {
        var image = try CardImages.sample("edy.json")
        image.lock("110B")
        let r = try XCTUnwrap(PluginRead.read(image, plugins: [.edy]).reading)
        XCTAssertEqual(r.serialNumber, "0116A0B1C2D3E4F5")
        XCTAssertNil(r.validFrom?.description, "a refused date block is left out")
        XCTAssertEqual(r.transactions.count, 5)

        var noBalance = try CardImages.sample("edy.json")
        noBalance.lock("1317")
        let outcome = try PluginRead.read(noBalance, plugins: [.edy, .waon])
        XCTAssertEqual(outcome.error?.kind, .cardRefused)
        XCTAssertEqual(outcome.error?.plugin, "edy")
    }

    func testFirstRefusedHistoryBlockEndsTheHistory() throws {
        var image = try CardImages.sample("edy.json")
        image.truncate("170F", to: 2) // block 2 answers "illegal block number"
        let r = try XCTUnwrap(PluginRead.read(image, plugins: [.edy]).reading)
        XCTAssertEqual(r.transactions.map(\.amount), [330, 1000])
        XCTAssertEqual(r.balance, 1234)
    }

    func testEveryRecordCarriesItsBalanceAndTheCardIsNamed() throws {
        // samples/edy.json: bytes 12–15 big-endian of each 170F block (Metrodroid EdyTrip), laid out
        // by scripts/make_samples.py as 1234, 1564, 564, 464, 1000.
        let r = try XCTUnwrap(PluginRead.read(CardImages.sample("edy.json"), plugins: [.edy]).reading)
        XCTAssertEqual(r.transactions.map(\.balance), [1234, 1564, 564, 464, 1000])
        XCTAssertEqual(r.cardName, "Rakuten Edy")
    }
}

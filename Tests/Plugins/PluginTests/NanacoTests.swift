import CardSimulation
import TestSupport
import XCTest

final class NanacoTests: XCTestCase {
    func testNanacoCardAfterEdyAndWAONWithinFiveExchanges() throws {
        let outcome = try PluginRead.read(CardImages.sample("nanaco.json"), plugins: PluginRead.Plugin.defaultOrder)
        let r = try XCTUnwrap(outcome.reading, "\(String(describing: outcome.error))")
        XCTAssertEqual(r.family, "nanaco")
        XCTAssertEqual(r.serialNumber, "7100001234567890", "the nanaco number")
        XCTAssertEqual(r.metadata["points"], "150")
        XCTAssertEqual(r.balance, 1500)
        XCTAssertEqual(r.transactions.map(\.type.rawValue), ["purchase", "topup", "unknown", "topup"])
        // Point exchanges are top-ups; a transfer is unknown, with no amount and event "transfer".
        XCTAssertEqual(r.transactions.map(\.amount), [298, 500, nil, 1000])
        XCTAssertEqual(r.transactions[2].metadata["event"], "transfer")
        XCTAssertEqual(r.transactions.first?.date?.description, "2026-11-12T18:45:00+09:00")
        // Edy, WAON and nanaco Request Services, then one read.
        XCTAssertLessThanOrEqual(outcome.exchanges - 2, 5)
        XCTAssertEqual(outcome.exchanges - 2, 4)
    }

    func testSuicaWithAnEmptyCommonAreaFallsThroughEveryPurseToJapanIC() throws {
        let order: [PluginRead.Plugin] = [.edy, .waon, .nanaco, .octopus(), .japanIC]
        let outcome = try PluginRead.read(CardImages.sample("suica.json"), plugins: order)
        XCTAssertEqual(outcome.plugin, "japan-ic")
        XCTAssertEqual(outcome.reading?.balance, 2010)
        for purse in ["edy", "waon", "nanaco"] { XCTAssertTrue(outcome.log.contains("\(purse): not this card"), purse) }
        XCTAssertTrue(outcome.log.contains("octopus: skipped, the card has none of its systems"))
    }

    func testEveryRecordCarriesItsBalance() throws {
        // samples/nanaco.json: bytes 5–8 big-endian of each 564F block: 1500, 1798, 1298, 298.
        let r = try XCTUnwrap(PluginRead.read(CardImages.sample("nanaco.json"), plugins: [.nanaco]).reading)
        XCTAssertEqual(r.transactions.map(\.balance), [1500, 1798, 1298, 298])
        XCTAssertEqual(r.cardName, "nanaco")
    }
}

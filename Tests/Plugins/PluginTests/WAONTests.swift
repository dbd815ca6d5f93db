import CardSimulation
import TestSupport
import XCTest

final class WAONTests: XCTestCase {
    func testWAONCardReachedAfterEdySaysNotThisPurse() throws {
        let outcome = try PluginRead.read(CardImages.sample("waon.json"), plugins: PluginRead.Plugin.defaultOrder)
        let r = try XCTUnwrap(outcome.reading, "\(String(describing: outcome.error))")
        XCTAssertEqual(outcome.plugin, "waon")
        XCTAssertTrue(outcome.log.contains("edy: not this card"), "\(outcome.log)")
        XCTAssertEqual(r.serialNumber, "6900123456789012", "the WAON number")
        XCTAssertEqual(r.metadata["idm"], "0116B0C1D2E3F405")
        XCTAssertEqual(r.metadata["points"], "12")
        XCTAssertEqual(r.balance, 239)
        // The card stores its three records in a ring; they come out newest first.
        XCTAssertEqual(r.transactions.map { $0.date?.description }, ["2026-11-03T10:05:00+09:00", "2026-11-02T12:00:00+09:00",
                                                    "2026-11-01T18:30:00+09:00"])
        XCTAssertEqual(r.transactions.map(\.type.rawValue), ["purchase", "purchase", "topup"])
        XCTAssertEqual(r.transactions.map(\.amount), [100, 200, 500])
        // Both raw amounts are kept.
        XCTAssertEqual(r.transactions.last?.metadata, ["usageAmount": "0", "chargeAmount": "500"])
        // From the first FE00 command: Edy's Request Service, WAON's Request Service and one read.
        XCTAssertEqual(outcome.exchanges - 2, 3)
    }

    func testRefusedPointsAreLeftOut() throws {
        var image = try CardImages.sample("waon.json")
        image.lock("684B")
        let r = try XCTUnwrap(PluginRead.read(image, plugins: [.waon]).reading)
        XCTAssertNil(r.metadata["points"])
        XCTAssertEqual(r.transactions.count, 3)
    }

    func testEveryRecordCarriesItsEighteenBitBalance() throws {
        // samples/waon.json: the 18-bit balance field of each data block, newest first 239, 339, 539.
        let r = try XCTUnwrap(PluginRead.read(CardImages.sample("waon.json"), plugins: [.waon]).reading)
        XCTAssertEqual(r.transactions.map(\.balance), [239, 339, 539])
        XCTAssertEqual(r.transactions.first?.balance, r.balance)
        XCTAssertEqual(r.cardName, "WAON")
    }
}

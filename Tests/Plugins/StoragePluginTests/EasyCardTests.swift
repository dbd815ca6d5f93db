import CardSimulation
import TestSupport
import XCTest

/// EasyCard through its plugin library (card laid out in scripts/make_classic_samples.py).
final class EasyCardTests: XCTestCase {
    func testBalanceTripsAndTopUpInTaipeiTime() throws {
        let outcome = try PluginRead.read(CardImages.sample("easycard.json"), plugins: [.easycard])
        let r = try XCTUnwrap(outcome.reading, "\(String(describing: outcome.error))")
        XCTAssertEqual(r.family, "easycard")
        XCTAssertEqual(r.currency, "TWD")
        // Sector 2 block 0 bytes 0-3 = 5E 01 00 00: 0x015E = NT$350, in cents.
        XCTAssertEqual(r.balance, 35_000)
        XCTAssertEqual(r.serialNumber, "3A5C7E91", "no printed number in the sectors read: the UID")
        // Five records in sectors 3-4 and the top-up in sector 2 block 2; the tap-in at station 19
        // and the tap-out at 42 25 minutes later are one trip; sector 5's empty slots are none.
        let t = r.transactions
        XCTAssertEqual(t.count, 5)
        guard t.count == 5 else { return }
        XCTAssertEqual(t[0].date?.description, "2026-11-04T07:45:00+08:00")
        XCTAssertEqual(t[0].type, .trip)
        XCTAssertEqual(t[0].amount, 0, "a tap-in without its tap-out yet")
        XCTAssertEqual(t[0].entryStation, "station 7")
        XCTAssertEqual(t[1].date?.description, "2026-11-03T12:00:00+08:00")
        XCTAssertEqual(t[1].type, .purchase, "place 1 is a shop")
        XCTAssertEqual(t[1].amount, 6_000)
        XCTAssertEqual(t[2].date?.description, "2026-11-02T18:10:00+08:00")
        XCTAssertEqual(t[2].metadata["mode"], "bus", "place 5 is a bus")
        XCTAssertEqual(t[2].amount, 1_500)
        XCTAssertEqual(t[3].date?.description, "2026-11-02T08:00:00+08:00")
        XCTAssertEqual(t[3].type, .trip)
        XCTAssertEqual(t[3].entryStation, "station 19")
        XCTAssertEqual(t[3].exitStation, "station 42")
        XCTAssertEqual(t[3].amount, 2_500, "NT$0 at the tap-in + NT$25 at the tap-out")
        XCTAssertEqual(t[3].metadata["exitTime"], "2026-11-02T08:25:00+08:00")
        XCTAssertEqual(t[4].date?.description, "2026-11-01T09:30:00+08:00")
        XCTAssertEqual(t[4].type, .topup)
        XCTAssertEqual(t[4].amount, 50_000)
    }

    func testAnotherClassicCardIsNotThisCard() throws {
        var image = try CardImages.sample("easycard.json")
        image.mifareClassic?.blocks[1] = "000102030405060708090A0B0C0D0E0F" // sector 0 block 1 no longer the EasyCard mark
        let outcome = try PluginRead.read(image, plugins: [.easycard])
        XCTAssertNil(outcome.reading)
        XCTAssertEqual(outcome.error?.kind, .tagNotSupported)
        let other = try PluginRead.read(CardImages.sample("bilhete-unico.json"), plugins: [.easycard])
        XCTAssertNil(other.reading)
    }

    func testRepeatedRecordsCountOnce() throws {
        var image = try CardImages.sample("easycard.json")
        // Sector 5 block 0 (block 20) repeats the bus record of sector 4 block 0 (block 16): same time.
        let busRecord = try XCTUnwrap(image.mifareClassic?.blocks[16])
        image.mifareClassic?.blocks[20] = busRecord
        let r = try XCTUnwrap(PluginRead.read(image, plugins: [.easycard]).reading)
        XCTAssertEqual(r.transactions.count, 5)
    }

    func testLockedTripSectorsAreSaidAsLocked() throws {
        let outcome = try PluginRead.read(locking(CardImages.sample("easycard.json"), sectors: [4]), plugins: [.easycard])
        XCTAssertNil(outcome.reading)
        XCTAssertEqual(outcome.error?.kind, .cardRefused)
        XCTAssertTrue(outcome.error?.message.contains("locked") == true, outcome.error?.message ?? "")
        XCTAssertTrue(outcome.error?.message.contains("--keys") == true, outcome.error?.message ?? "")
    }

    /// The image with `sector`'s four blocks unread ("??"): a locked sector, as a dump without its key.
    func locking(_ image: CardImage, sectors: [Int]) -> CardImage {
        var image = image
        for s in sectors { for b in 0 ..< 4 { image.mifareClassic?.blocks[s * 4 + b] = String(repeating: "??", count: 16) } }
        return image
    }
}

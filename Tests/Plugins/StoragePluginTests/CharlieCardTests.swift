import CardSimulation
import TestSupport
import XCTest

/// CharlieCard through its plugin library (card laid out in scripts/make_classic_samples.py). The
/// sample's keys are made up, so the plugin is given their digests, md5("charlie" ‖ key ‖ "charlie"),
/// through `key-digests`, as a deployment would for a new key.
final class CharlieCardTests: XCTestCase {
    /// md5 of "charlie" + C0FFEE123456 + "charlie" and of "charlie" + BADC0DE65432 + "charlie" (Python hashlib).
    static let digests = "58de1cd9312430aadce82eb222b534c9,9C502304A43D0A7BD258394288B37286"
    static let plugin = PluginRead.Plugin("charliecard", PluginRead.Plugin.charliecard.library, options: ["key-digests": digests])
    /// The plugin as it ships: only Metrodroid's digests.
    static let shipped = PluginRead.Plugin("charliecard", PluginRead.Plugin.charliecard.library)

    func testBalanceTypeValidityPassAndHistoryInBostonTime() throws {
        let outcome = try PluginRead.read(CardImages.sample("charliecard.json"), plugins: [Self.plugin])
        let r = try XCTUnwrap(outcome.reading, "\(String(describing: outcome.error))")
        XCTAssertEqual(r.family, "charliecard")
        XCTAssertEqual(r.serialNumber, "5-439041101", "5- and 0x1A2B3C4D in decimal")
        XCTAssertEqual(r.currency, "USD")
        // Sector 3's counter (0x0101) beats sector 2's (0x0100): its 0x09A6 = 2470 half-cents = $12.35.
        XCTAssertEqual(r.balance, 1_235)
        XCTAssertEqual(r.metadata["cardType"], "Adult", "type 367")
        XCTAssertEqual(r.metadata["secondNumber"], "A0000123456")
        XCTAssertEqual(r.validFrom?.description, "2006-02-01")
        XCTAssertEqual(r.validUntil?.description, "2029-12-31")
        XCTAssertEqual(r.passes.count, 1, "three of the four pass slots are 00 20 00 00 00 00")
        XCTAssertEqual(r.passes.first?.tariff, "138")
        XCTAssertEqual(r.passes.first?.name, "30 Day LinkPass")
        XCTAssertEqual(r.passes.first?.validUntil?.description.prefix(10), "2026-12-01")
        let t = r.transactions
        XCTAssertEqual(t.count, 4, "eight of the twelve slots are empty")
        guard t.count == 4 else { return }
        XCTAssertEqual(t[0].date?.description, "2026-11-20T08:15:00-05:00", "EST after 1 November 2026")
        XCTAssertEqual(t[0].type, .trip)
        XCTAssertEqual(t[0].amount, 240)
        XCTAssertEqual(t[0].metadata["gate"], "6766")
        XCTAssertEqual(t[1].date?.description, "2026-07-04T14:30:00-04:00", "EDT in July")
        XCTAssertEqual(t[1].amount, 170)
        XCTAssertEqual(t[2].date?.description, "2026-07-01T09:00:00-04:00")
        XCTAssertEqual(t[2].type, .topup, "minus sign on the price")
        XCTAssertEqual(t[2].amount, 2_000)
        XCTAssertEqual(t[3].date?.description, "2006-03-20T12:00:00-05:00", "summer time began on 2 April in 2006")
        XCTAssertEqual(t[3].amount, 125)
    }

    func testWithoutTheKeysDigestTheCardIsNotACharlieCard() throws {
        // The shipped digests are of the real keys; the sample's made-up keys match none of them.
        let outcome = try PluginRead.read(CardImages.sample("charliecard.json"), plugins: [Self.shipped])
        XCTAssertNil(outcome.reading)
        XCTAssertEqual(outcome.error?.kind, .tagNotSupported)
    }

    func testAMalformedDigestIsSkippedAndTheOthersStillCount() throws {
        let plugin = PluginRead.Plugin("charliecard", PluginRead.Plugin.charliecard.library,
                                       options: ["key-digests": "not-a-digest, " + Self.digests])
        let outcome = try PluginRead.read(CardImages.sample("charliecard.json"), plugins: [plugin])
        XCTAssertEqual(outcome.reading?.balance, 1_235)
    }

    func testLockedHistorySectorsAreSaidAsLocked() throws {
        let outcome = try PluginRead.read(locking(CardImages.sample("charliecard.json"), sectors: [6, 7]), plugins: [Self.plugin])
        XCTAssertNil(outcome.reading)
        XCTAssertEqual(outcome.error?.kind, .cardRefused)
        XCTAssertTrue(outcome.error?.message.contains("locked") == true, outcome.error?.message ?? "")
    }

    func testLockedPassSectorsLeaveTheRestReadable() throws {
        let r = try XCTUnwrap(PluginRead.read(locking(CardImages.sample("charliecard.json"), sectors: [4, 5]), plugins: [Self.plugin]).reading)
        XCTAssertEqual(r.balance, 1_235)
        XCTAssertEqual(r.passes.count, 0)
        XCTAssertEqual(r.metadata["passes"], "not read: sectors 4–5 are locked")
    }

    /// The image with `sector`'s four blocks unread ("??"): a locked sector, as a dump without its key.
    func locking(_ image: CardImage, sectors: [Int]) -> CardImage {
        var image = image
        for s in sectors { for b in 0 ..< 4 { image.mifareClassic?.blocks[s * 4 + b] = String(repeating: "??", count: 16) } }
        return image
    }
}

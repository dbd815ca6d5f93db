import CardSimulation
import TestSupport
import XCTest

/// Bilhete Único through its plugin library (card laid out in scripts/make_classic_samples.py).
final class BilheteUnicoTests: XCTestCase {
    func testNumberBalanceLastTripFirstTapAndTopUpInSaoPauloTime() throws {
        let outcome = try PluginRead.read(CardImages.sample("bilhete-unico.json"), plugins: [.bilheteUnico])
        let r = try XCTUnwrap(outcome.reading, "\(String(describing: outcome.error))")
        XCTAssertEqual(r.family, "bilhete-unico")
        // Sector 2 block 0 bytes 3-7: bits 36-39 = 11, bits 4-35 = 243123151.
        XCTAssertEqual(r.serialNumber, "110 243123151")
        XCTAssertEqual(r.currency, "BRL")
        XCTAssertEqual(r.balance, 1_234, "sector 8 block 1's value: R$12.34")
        XCTAssertEqual(r.metadata["tripCounter"], "42")
        XCTAssertEqual(r.metadata["topUpCounter"], "7")
        let t = r.transactions
        XCTAssertEqual(t.count, 3)
        guard t.count == 3 else { return }
        // 10 December 2018 fell in Brazil's 2018-19 summer time (4 November to 16 February): −02:00.
        XCTAssertEqual(t[0].date?.description, "2018-12-10T18:45:00-02:00")
        XCTAssertEqual(t[0].type, .trip)
        XCTAssertEqual(t[0].amount, 440)
        XCTAssertEqual(t[0].metadata["mode"], "bus", "transport B4")
        XCTAssertEqual(t[0].metadata["line"], "875")
        XCTAssertEqual(t[1].date?.description, "2018-12-10T18:05:00-02:00", "the journey's first tap, 40 minutes earlier")
        XCTAssertEqual(t[1].metadata["mode"], "tram", "line 0x45 >> 5 = 2")
        XCTAssertNil(t[1].amount)
        XCTAssertEqual(t[2].date?.description, "2018-12-01")
        XCTAssertEqual(t[2].type, .topup)
        XCTAssertEqual(t[2].amount, 2_000)
    }

    func testABrokenSector3FallsBackToSector4() throws {
        var image = try CardImages.sample("bilhete-unico.json")
        // Block 12 (sector 3 block 0): its first byte changed, so sector 3's CRC is no longer zero.
        var block = image.mifareClassic?.blocks[12] ?? ""
        block = (block.hasPrefix("B4") ? "B5" : "B4") + block.dropFirst(2)
        image.mifareClassic?.blocks[12] = block
        let r = try XCTUnwrap(PluginRead.read(image, plugins: [.bilheteUnico]).reading)
        XCTAssertEqual(r.metadata["lastTripSector"], "4")
        let t = r.transactions
        XCTAssertEqual(t.count, 2, "sector 4's trip (its first tap the same moment) and the top-up")
        guard t.count == 2 else { return }
        XCTAssertEqual(t[0].type, .topup, "newest first: the top-up of 2018-12-01")
        XCTAssertEqual(t[1].date?.description, "2017-06-05T07:10:00-03:00", "June: standard time")
        XCTAssertEqual(t[1].metadata["mode"], "tram", "transport 78")
        XCTAssertEqual(t[1].amount, 380)
    }

    func testWithoutTheValueBlocksItIsNotABilheteUnico() throws {
        var image = try CardImages.sample("bilhete-unico.json")
        image.mifareClassic?.blocks[25] = String(repeating: "0", count: 32) // sector 6 block 1: no value block
        let outcome = try PluginRead.read(image, plugins: [.bilheteUnico])
        XCTAssertNil(outcome.reading)
        XCTAssertEqual(outcome.error?.kind, .tagNotSupported)
        XCTAssertNil(try PluginRead.read(CardImages.sample("easycard.json"), plugins: [.bilheteUnico]).reading)
    }

    func testLockedCreditSectorIsSaidAsLocked() throws {
        let outcome = try PluginRead.read(locking(CardImages.sample("bilhete-unico.json"), sectors: [8]), plugins: [.bilheteUnico])
        XCTAssertNil(outcome.reading)
        XCTAssertEqual(outcome.error?.kind, .cardRefused)
        XCTAssertTrue(outcome.error?.message.contains("8") == true, outcome.error?.message ?? "")
    }

    /// The image with `sector`'s four blocks unread ("??"): a locked sector, as a dump without its key.
    func locking(_ image: CardImage, sectors: [Int]) -> CardImage {
        var image = image
        for s in sectors { for b in 0 ..< 4 { image.mifareClassic?.blocks[s * 4 + b] = String(repeating: "??", count: 16) } }
        return image
    }
}

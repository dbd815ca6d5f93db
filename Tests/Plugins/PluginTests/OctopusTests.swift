import CardSimulation
import TestSupport
import XCTest

final class OctopusTests: XCTestCase {
    func testBalanceIsRawMinusOffsetTimesTen() throws {
        let outcome = try PluginRead.read(CardImages.sample("octopus.json"), plugins: PluginRead.Plugin.defaultOrder)
        let r = try XCTUnwrap(outcome.reading, "\(String(describing: outcome.error))")
        XCTAssertEqual(r.family, "octopus")
        XCTAssertEqual(r.currency, "HKD")
        XCTAssertEqual(r.balance, (1200 - 350) * 10)
        XCTAssertEqual(r.serialNumber, "0116D0E1F2031425")
        // The plugin's own exchanges: one read (the host's UID and Request System Code aside).
        XCTAssertEqual(outcome.exchanges - 2, 1)
    }

    func testOffsetFromPluginsConfAndNegativeBalances() throws {
        let r = try XCTUnwrap(PluginRead.read(CardImages.sample("octopus.json"), plugins: [.octopus(offset: "500")]).reading)
        XCTAssertEqual(r.balance, (1200 - 500) * 10)
        // Metrodroid's test vector: raw 0x164 = 356 with offset 500 is −HK$14.40 (an overdraft).
        var image = try CardImages.sample("octopus.json")
        image.felica?.systems[0].services["0117"] = ["00000164" + String(repeating: "0", count: 24)]
        XCTAssertEqual(try PluginRead.read(image, plugins: [.octopus(offset: "500")]).reading?.balance, -1440)
        XCTAssertEqual(try PluginRead.read(image, plugins: [.octopus()]).reading?.balance, 60)
    }

    func testBadOffsetIsAConfigurationErrorBeforeAnyExchange() throws {
        let outcome = try PluginRead.read(CardImages.sample("octopus.json"), plugins: [.octopus(offset: "lots")])
        XCTAssertEqual(outcome.error?.kind, .config)
        XCTAssertTrue(outcome.error?.message.contains("option balance-offset takes a whole number, not \"lots\"") == true,
                      outcome.error?.message ?? "")
        XCTAssertEqual(outcome.exchanges, 0, "found when the plugin loads, not when an Octopus is read")
    }
}

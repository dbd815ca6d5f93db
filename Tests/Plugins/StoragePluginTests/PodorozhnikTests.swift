import CardSimulation
import TestSupport
import XCTest

/// Podorozhnik through its library (expected values laid out in scripts/make_troika_samples.py).
final class PodorozhnikTests: XCTestCase {
    /// The digest of the samples' made-up sector 4 key (CardImages.podorozhnikKeyDigest).
    static let madeUpKeyDigest = CardImages.podorozhnikKeyDigest
    static let withDigest = PluginRead.Plugin("podorozhnik", BuildProducts.plugin("TransitPodorozhnik"),
                                              options: ["key-digests": madeUpKeyDigest])

    func testTheCardGivesNumberBalanceTripsAndTopUpInStPetersburgTime() throws {
        try checkSample("podorozhnik.json", cardType: "1K")
    }

    func testA4KCardReadsTheSameSectors() throws {
        try checkSample("podorozhnik-4k.json", cardType: "4K")
    }

    func checkSample(_ name: String, cardType: String) throws {
        let outcome = try PluginRead.read(CardImages.sample(name), plugins: [Self.withDigest])
        let r = try XCTUnwrap(outcome.reading, "\(String(describing: outcome.error))")
        XCTAssertEqual(r.family, "podorozhnik")
        // UID 04 A1 B2 C3 D4 E5 F6 little-endian = 0xF6E5D4C3B2A104 = 69495546249912580 (17 digits);
        // Luhn over 96433078 69495546249912580: doubled-digit sum 133, so the check digit is 7.
        XCTAssertEqual(r.serialNumber, "9643 3078 6949 5546 2499 1258 07")
        XCTAssertEqual(r.balance, 15075, "sector 4 block 0 bytes 0-3 LE: 150.75 RUB")
        XCTAssertEqual(r.currency, "RUB")
        XCTAssertEqual(r.metadata["metroTrips"], "12", "block 1 is the newer copy")
        XCTAssertEqual(r.metadata["groundTrips"], "5")
        XCTAssertEqual(r.metadata["cardType"], cardType)
        XCTAssertEqual(r.transactions.map { $0.date?.description },
                       ["2026-11-20T08:05:00+03:00", "2026-11-19T18:20:00+03:00", "2026-11-10T12:30:00+03:00"])
        XCTAssertEqual(r.transactions.map(\.type), [.trip, .trip, .topup])
        XCTAssertEqual(r.transactions.map(\.amount), [6600, nil, 50000])
        XCTAssertEqual(r.transactions[0].metadata["mode"], "metro")
        XCTAssertEqual(r.transactions[0].metadata["station"], "45", "validator 2883 = 45 << 6 | 3")
        XCTAssertEqual(r.transactions[0].metadata["gate"], "3")
    }

    func testOnlySectors4And5AreRead() throws {
        // The number is the 7-byte UID's, so sector 0 is not opened.
        var blocksRead = Set<Int>()
        let outcome = try PluginRead.read(CardImages.sample("podorozhnik.json"), plugins: [Self.withDigest]) { _, command, answer in
            if command.starts(with: [0xFF, 0xB0]), command.count > 3 { blocksRead.insert(Int(command[3])) }
            return answer
        }
        XCTAssertNotNil(outcome.reading, "\(String(describing: outcome.error))")
        XCTAssertFalse(blocksRead.isEmpty)
        XCTAssertTrue(blocksRead.isSubset(of: [16, 17, 18, 20, 21, 22]), "\(blocksRead.sorted())")
    }

    func testACardWithA4ByteUIDTakesItsNumberFromBlock0() throws {
        // Block 0 still starts 04 A1 B2 C3 D4 E5 F6: the number is the same, read from sector 0.
        var image = try CardImages.sample("podorozhnik.json")
        image.mifareClassic?.uid = "04A1B2C3"
        let outcome = try PluginRead.read(image, plugins: [Self.withDigest])
        let r = try XCTUnwrap(outcome.reading, "\(String(describing: outcome.error))")
        XCTAssertEqual(r.serialNumber, "9643 3078 6949 5546 2499 1258 07")
    }

    func testAKeyOfNoKnownDigestIsNotThisCard() throws {
        // The shipped digests are of the operator's key, which the sample's made-up key is not.
        XCTAssertEqual(try PluginRead.read(CardImages.sample("podorozhnik.json"), plugins: [.podorozhnik]).error?.kind, .tagNotSupported)
    }

    func testALockedTripSectorSaysLockedAndNamesKeys() throws {
        let image = try TroikaTests.lockingSectors([5], of: CardImages.sample("podorozhnik.json"))
        let outcome = try PluginRead.read(image, plugins: [Self.withDigest])
        XCTAssertNil(outcome.reading)
        let error = try XCTUnwrap(outcome.error)
        XCTAssertTrue(error.message.contains("locked") && error.message.contains("--keys"), error.message)
        XCTAssertNotEqual(error.kind, .tagNotSupported)
    }

    func testATroikaCardIsNotThisCard() throws {
        let troika = PluginRead.Plugin("podorozhnik", BuildProducts.plugin("TransitPodorozhnik"),
                                       options: ["key-digests": TroikaTests.madeUpKeyDigest])
        XCTAssertEqual(try PluginRead.read(CardImages.sample("troika-e3.json"), plugins: [troika]).error?.kind, .tagNotSupported,
                       "Troika's digest is of sector 1's key; sector 4's key is another")
    }
}

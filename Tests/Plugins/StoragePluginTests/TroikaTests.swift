import CardSimulation
import TestSupport
import XCTest

/// Troika through its library (expected values laid out in scripts/make_troika_samples.py).
final class TroikaTests: XCTestCase {
    /// The digest of the samples' made-up sector 1 key 4A2B3C4D5E6F, by Python's hashlib:
    /// `hashlib.md5(b"troika" + bytes.fromhex("4A2B3C4D5E6F") + b"troika").hexdigest()`.
    static let madeUpKeyDigest = "2d3669315be9b82ece527fee21019079"
    static let troikaWithDigest = PluginRead.Plugin("troika", BuildProducts.plugin("TransitTroika"),
                                                    options: ["key-digests": "not-a-digest, \(madeUpKeyDigest)"])

    func testThePurseE3GivesNumberBalanceAndBothValidationsInMoscowTime() throws {
        let outcome = try PluginRead.read(CardImages.sample("troika-e3.json"), plugins: [.troika])
        let r = try XCTUnwrap(outcome.reading, "\(String(describing: outcome.error))")
        XCTAssertEqual(r.family, "troika")
        XCTAssertEqual(r.serialNumber, "1234 567 890", "bits 20-51 = 1234567890, grouped 4 3 3")
        XCTAssertEqual(r.balance, 12345, "bits 188-209: 12345 kopecks = 123.45 RUB")
        XCTAssertEqual(r.currency, "RUB")
        XCTAssertEqual(r.validUntil?.description, "2030-12-31", "day 14245 counted from 1992-01-01 as day 1")
        XCTAssertEqual(r.metadata["layout"], "E/3")
        // Validation 08:15 (minutes from 2015-12-31 00:00, Metrodroid's day 0 of the 2016 epoch),
        // its transfer 25 minutes later; long code 01 11 00 00: metro first, MCC last.
        XCTAssertEqual(r.transactions.map { $0.date?.description }, ["2026-11-20T08:40:00+03:00", "2026-11-20T08:15:00+03:00"])
        XCTAssertEqual(r.transactions.map(\.type), [.trip, .trip])
        XCTAssertEqual(r.transactions[0].metadata["mode"], "Moscow Central Circle")
        XCTAssertEqual(r.transactions[0].metadata["validator"], "1234")
        XCTAssertEqual(r.transactions[0].metadata["fare"], "90 minutes")
        XCTAssertEqual(r.transactions[1].metadata["mode"], "metro")
        XCTAssertNil(r.transactions[1].metadata["validator"], "only the newest validation names its validator")
        XCTAssertNil(r.transactions[0].amount, "Troika keeps a fare code, not a price")
        XCTAssertTrue(r.passes.isEmpty)
    }

    func testThePurseE5GivesBalanceTransfersAndTheLastTopUp() throws {
        let outcome = try PluginRead.read(CardImages.sample("troika-e5.json"), plugins: [.troika])
        let r = try XCTUnwrap(outcome.reading, "\(String(describing: outcome.error))")
        XCTAssertEqual(r.serialNumber, "3000 000 001", "a number above 2^31 stays unsigned")
        XCTAssertEqual(r.balance, 50000, "bits 167-185: 500.00 RUB")
        XCTAssertEqual(r.validUntil?.description, "2031-06-30", "13-bit day 4564 from 2019-01-01")
        XCTAssertEqual(r.metadata["layout"], "E/5")
        XCTAssertEqual(r.metadata["refills"], "7")
        XCTAssertEqual(r.metadata["purseTrips"], "15")
        // 18:30 plus transfers of 40 and 12 minutes, newest first, then the top-up of 2026-11-18.
        XCTAssertEqual(r.transactions.map { $0.date?.description },
                       ["2026-11-20T19:10:00+03:00", "2026-11-20T18:42:00+03:00", "2026-11-20T18:30:00+03:00", "2026-11-18T19:05:00+03:00"])
        XCTAssertEqual(r.transactions.map(\.type), [.trip, .trip, .trip, .topup])
        XCTAssertEqual(r.transactions[0].metadata["validator"], "4321")
        XCTAssertNil(r.transactions[3].amount, "the card keeps the top-up's time only")
    }

    func testTheUltralightTicketGivesItsPassWithValidityAndTripsLeft() throws {
        let outcome = try PluginRead.read(CardImages.sample("troika-ul.json"), plugins: [.troika])
        let r = try XCTUnwrap(outcome.reading, "\(String(describing: outcome.error))")
        XCTAssertEqual(r.serialNumber, "0987 654 321", "987654321 padded to ten digits")
        XCTAssertNil(r.balance, "a ticket holds no purse")
        XCTAssertEqual(r.metadata["layout"], "E/2")
        XCTAssertEqual(r.passes.count, 1)
        let pass = try XCTUnwrap(r.passes.first)
        XCTAssertEqual(pass.name, "20 rides", "ticket type 0x5DA0")
        XCTAssertEqual(pass.tariff, "5da0")
        XCTAssertEqual(pass.remainingTrips, 17)
        XCTAssertEqual(pass.validFrom?.description, "2026-11-01")
        // 90 days = 129600 minutes from 2026-11-01 00:00; the last minute is 2027-01-29 23:59, a date.
        XCTAssertEqual(pass.validUntil?.description, "2027-01-29")
        // 129600 - 101775 = 27825 minutes after the start: 19 days 7 h 45 min.
        XCTAssertEqual(r.transactions.map { $0.date?.description }, ["2026-11-20T07:45:00+03:00"])
        XCTAssertEqual(r.transactions.first?.metadata["mode"], "metro")
        XCTAssertEqual(r.transactions.first?.metadata["validator"], "2222")
    }

    func testTheE3CardIsToldAndReadFromSector8Alone() throws {
        var blocksRead = Set<Int>(), authentications = 0
        let outcome = try PluginRead.read(CardImages.sample("troika-e3.json"), plugins: [.troika]) { _, command, answer in
            if command.starts(with: [0xFF, 0xB0]), command.count > 3 { blocksRead.insert(Int(command[3])) }
            if command.starts(with: [0xFF, 0x86]) { authentications += 1 }
            return answer
        }
        XCTAssertNotNil(outcome.reading, "\(String(describing: outcome.error))")
        XCTAssertFalse(blocksRead.isEmpty)
        XCTAssertTrue(blocksRead.isSubset(of: 32 ... 34), "only sector 8's data blocks: \(blocksRead.sorted())")
        XCTAssertLessThanOrEqual(authentications, 2, "sector 8 opens with the first or second key of the dump")
    }

    func testAnOldLayoutATicketGivesItsPassAndGroundValidation() throws {
        let outcome = try PluginRead.read(CardImages.sample("troika-ul-a.json"), plugins: PluginRead.Plugin.storageOrder)
        let r = try XCTUnwrap(outcome.reading, "\(String(describing: outcome.error))")
        XCTAssertEqual(r.family, "troika")
        XCTAssertEqual(r.serialNumber, "0000 123 456")
        XCTAssertEqual(r.metadata["layout"], "A")
        let pass = try XCTUnwrap(r.passes.first)
        XCTAssertEqual(pass.name, "2 rides")
        XCTAssertEqual(pass.remainingTrips, 1)
        // Day 426 from 2016-01-01 (day 1; 2016 has 366 days, then 31 + 28) is 2017-03-01; 7200
        // minutes = 5 days, the last minute 2017-03-05 23:59, a date as the validity is a day or more.
        XCTAssertEqual(pass.validFrom?.description, "2017-03-01")
        XCTAssertEqual(pass.validUntil?.description, "2017-03-05")
        XCTAssertEqual(r.transactions.map { $0.date?.description }, ["2017-03-02T09:30:00+03:00"], "minute 2010 of the start day")
        XCTAssertEqual(r.transactions.first?.metadata["mode"], "ground transport", "leading code 2")
        XCTAssertEqual(r.transactions.first?.metadata["validator"], "777")
    }

    func testAPurseInSector4IsReadWhenSector8HoldsNone() throws {
        var image = try CardImages.sample("troika-e3.json")
        var blocks = try XCTUnwrap(image.mifareClassic?.blocks)
        for i in 0 ..< 3 { blocks[16 + i] = blocks[32 + i]; blocks[32 + i] = String(repeating: "0", count: 32) }
        image.mifareClassic?.blocks = blocks
        let outcome = try PluginRead.read(image, plugins: [.troika])
        let r = try XCTUnwrap(outcome.reading, "\(String(describing: outcome.error))")
        XCTAssertEqual(r.balance, 12345)
        XCTAssertEqual(r.metadata["sector"], "4")
    }

    func testLockedTicketSectorsOfACardWhoseSector1KeyIsTroikasSayLockedAndNameKeys() throws {
        let image = try Self.lockingSectors([8, 4], of: CardImages.sample("troika-e3.json"))
        let outcome = try PluginRead.read(image, plugins: [Self.troikaWithDigest])
        XCTAssertNil(outcome.reading)
        let error = try XCTUnwrap(outcome.error)
        XCTAssertTrue(error.message.contains("locked"), error.message)
        XCTAssertTrue(error.message.contains("--keys"), error.message)
        XCTAssertNotEqual(error.kind, .tagNotSupported)
        // The samples' made-up keys appear in no log line nor in the message.
        for text in outcome.log + [error.message] {
            XCTAssertFalse(text.uppercased().contains("4A2B3C4D5E6F") || text.uppercased().contains("A1B2C3D4E5F6"), text)
        }
    }

    func testLockedTicketSectorsWithAKeyOfNoKnownDigestAreNotThisCard() throws {
        // The made-up key's digest is not Metrodroid's: without the option nothing says Troika.
        let image = try Self.lockingSectors([8, 4], of: CardImages.sample("troika-e3.json"))
        XCTAssertEqual(try PluginRead.read(image, plugins: [.troika]).error?.kind, .tagNotSupported)
    }

    func testOtherCardsAreNotThisCard() throws {
        XCTAssertEqual(try PluginRead.read(CardImages.sample("podorozhnik.json"), plugins: [.troika]).error?.kind, .tagNotSupported)
        var ul = try CardImages.sample("troika-ul.json")
        ul.mifareUltralight?.pages[4] = "0A040000"   // a Nextfare ticket's page 4: mark 0x028
        XCTAssertEqual(try PluginRead.read(ul, plugins: [.troika]).error?.kind, .tagNotSupported)
        XCTAssertEqual(try PluginRead.read(CardImages.sample("opal.json"), plugins: [.troika]).error?.kind, .tagNotSupported)
    }

    func testTheStorageOrderFindsTroika() throws {
        let outcome = try PluginRead.read(CardImages.sample("troika-e5.json"), plugins: PluginRead.Plugin.storageOrder)
        XCTAssertEqual(outcome.reading?.family, "troika", "\(String(describing: outcome.error))")
    }

    func testMutatedAnswersNeverTrap() throws {
        // One answer of a read changed at a byte, cut short or cut into its status word (in process:
        // a trap would end the test); every read ends in a reading or an error.
        var random = SplitMix64(seed: 0x5452_4F49_4B41)
        let podorozhnik = PluginRead.Plugin("podorozhnik", BuildProducts.plugin("TransitPodorozhnik"),
                                            options: ["key-digests": PodorozhnikTests.madeUpKeyDigest])
        for sample in ["troika-e3.json", "troika-e5.json", "troika-ul.json", "podorozhnik.json"] {
            let image = try CardImages.sample(sample)
            for _ in 0 ..< 100 {
                let mutation = AnswerMutation(&random, exchanges: 30)
                let outcome = try PluginRead.read(image, plugins: [Self.troikaWithDigest, podorozhnik], fault: mutation.fault, runner: .inProcess)
                XCTAssertTrue(outcome.reading != nil || outcome.error != nil, sample)
            }
        }
    }

    /// `image` with the keys of `sectors`' trailers unknown ("??"), so that no key opens them.
    static func lockingSectors(_ sectors: [Int], of image: CardImage) throws -> CardImage {
        var image = image
        var blocks = try XCTUnwrap(image.mifareClassic?.blocks)
        for s in sectors {
            let trailer = Array(blocks[s * 4 + 3])
            blocks[s * 4 + 3] = String(repeating: "?", count: 12) + String(trailer[12 ..< 20]) + String(repeating: "?", count: 12)
        }
        image.mifareClassic?.blocks = blocks
        return image
    }
}

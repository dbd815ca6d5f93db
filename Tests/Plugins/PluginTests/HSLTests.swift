import CardSimulation
import TestSupport
import XCTest

/// HSL v2 through the desfire library (expected values laid out in scripts/make_desfire_samples.py).
final class HSLTests: XCTestCase {
    func testHSLPeriodPassStoredValueAndHistoryInHelsinkiTime() throws {
        let read = try DESFireReading.read(CardImages.sample("hsl.json"))
        let r = read.reading
        XCTAssertEqual(r.family, "hsl")
        XCTAssertEqual(r.cardName, "HSL")
        XCTAssertEqual(r.serialNumber, "924620 0012 3456 7890")
        XCTAssertEqual(r.balance, 1500)
        XCTAssertEqual(r.currency, "EUR")
        // The period pass: product 1001, zones A–B, November 2026.
        XCTAssertEqual(r.passes.count, 1)
        XCTAssertEqual(r.passes.first?.name, "HSL period pass")
        XCTAssertEqual(r.passes.first?.tariff, "1001")
        XCTAssertEqual(r.passes.first?.zones, "AB")
        XCTAssertEqual(r.passes.first?.validFrom?.description, "2026-11-01")
        XCTAssertEqual(r.passes.first?.validUntil?.description, "2026-11-30")
        // Newest first by time: the trip of the 25th, the last load of the 24th (the stored value
        // file's, HSLRefill's layout: the history never holds loads), the trip of July.
        XCTAssertEqual(r.transactions.map(\.type), [.trip, .topup, .trip])
        XCTAssertEqual(r.transactions[0].amount, 320)
        XCTAssertEqual(r.transactions[0].date?.description, "2026-11-25T07:40:00+02:00", "EET in November")
        XCTAssertEqual(r.transactions[0].balance, 1500)
        XCTAssertEqual(r.transactions[1].amount, 2000)
        XCTAssertEqual(r.transactions[1].date?.description, "2026-11-24T18:10:00+02:00")
        XCTAssertEqual(r.transactions[2].date?.description, "2026-07-10T17:05:00+03:00", "EEST in July")
        // Get Application IDs, select, files 8, 2, 1, settings and records of file 4.
        XCTAssertEqual(read.counted, 7)
        XCTAssertLessThanOrEqual(read.counted, 10)
    }

    func testALockedHistoryFileIsAbsent() throws {
        var image = try CardImages.sample("hsl.json")
        image.iso7816?.desfire?.applications[0].files[3].access = "1111"
        let r = try DESFireReading.read(image).reading
        XCTAssertEqual(r.balance, 1500)
        XCTAssertEqual(r.transactions.map(\.type), [.topup], "the last load only")
    }

    func testTheHistoryIsNewestFirstWhateverOrderTheCardKeeps() throws {
        // Read Records answers oldest first (NXP's datasheet); listing the image's records the other
        // way round changes nothing: transactions are sorted by time.
        var image = try CardImages.sample("hsl.json")
        image.iso7816?.desfire?.applications[0].files[3].records?.reverse()
        let r = try DESFireReading.read(image).reading
        XCTAssertEqual(r.transactions.map { $0.date?.description }, ["2026-11-25T07:40:00+02:00", "2026-11-24T18:10:00+02:00", "2026-07-10T17:05:00+03:00"])
    }
}

/// Waltti (application 00 10 AB) through the desfire library.
final class WalttiTests: XCTestCase {
    func testWalttiPeriodPassWithItsZoneRange() throws {
        let read = try DESFireReading.read(CardImages.sample("waltti.json"))
        let r = read.reading
        XCTAssertEqual(r.family, "hsl")
        XCTAssertEqual(r.cardName, "Waltti")
        XCTAssertEqual(r.serialNumber, "924621 0098 7654 3210")
        XCTAssertEqual(r.balance, 450)
        // Zone code 12: after the ten single zones, 1–2 is 11 and 1–3 is 12; the unused slot is no pass.
        XCTAssertEqual(r.passes.count, 1)
        XCTAssertEqual(r.passes.first?.name, "Waltti period pass")
        XCTAssertEqual(r.passes.first?.tariff, "2001")
        XCTAssertEqual(r.passes.first?.zones, "A-C")
        XCTAssertEqual(r.passes.first?.validUntil?.description, "2026-12-31")
        XCTAssertEqual(r.transactions.first?.date?.description, "2026-12-01T09:00:00+02:00")
        XCTAssertLessThanOrEqual(read.counted, 10)
    }
}

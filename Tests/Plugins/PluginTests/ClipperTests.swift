import CardSimulation
import TestSupport
import XCTest

/// Clipper through the desfire library (expected values laid out in scripts/make_desfire_samples.py).
final class ClipperTests: XCTestCase {
    func testClipperSerialBalanceRefillsAndTripsInLosAngelesTime() throws {
        let read = try DESFireReading.read(CardImages.sample("clipper.json"))
        let r = read.reading
        XCTAssertEqual(r.family, "clipper")
        XCTAssertEqual(r.serialNumber, "1234567890")
        XCTAssertEqual(r.balance, 2550)
        XCTAssertEqual(r.currency, "USD")
        XCTAssertEqual(r.validUntil?.description, "2030-12-31")
        XCTAssertEqual(r.transactions.count, 4)
        // Newest first: the BART trip of 2026-11-20 16:30 UTC, 08:30 PST.
        XCTAssertEqual(r.transactions[0].type, .trip)
        XCTAssertEqual(r.transactions[0].amount, 245)
        XCTAssertEqual(r.transactions[0].date?.description, "2026-11-20T08:30:00-08:00")
        // The refills either side of the end of summer time, 2026-11-01 09:00 UTC.
        XCTAssertEqual(r.transactions[1].type, .topup)
        XCTAssertEqual(r.transactions[1].amount, 500)
        XCTAssertEqual(r.transactions[1].date?.description, "2026-11-01T01:30:00-08:00")
        XCTAssertEqual(r.transactions[2].amount, 2000)
        XCTAssertEqual(r.transactions[2].date?.description, "2026-11-01T01:30:00-07:00")
        XCTAssertEqual(r.transactions[3].date?.description, "2026-07-04T12:00:00-07:00")
        XCTAssertEqual(r.transactions[3].amount, 275)
        // Get Application IDs, select, files 8, 2, 1 (one frame each), 4 (128 bytes: 3 frames of 59),
        // 0E (512 bytes: 9 frames).
        XCTAssertEqual(read.counted, 1 + 1 + 3 + 3 + 9)
        XCTAssertLessThanOrEqual(read.counted, 18)
    }

    func testALockedRefillFileIsAbsentNotAnError() throws {
        var image = try CardImages.sample("clipper.json")
        image.iso7816?.desfire?.applications[0].files[2].access = "3131"
        let r = try DESFireReading.read(image).reading
        XCTAssertEqual(r.balance, 2550)
        XCTAssertEqual(r.transactions.filter { $0.type == .topup }.count, 0)
        XCTAssertEqual(r.transactions.count, 2)
    }
}

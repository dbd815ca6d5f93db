import CardSimulation
import TestSupport
import XCTest

/// ORCA through the desfire library (expected values laid out in scripts/make_desfire_samples.py).
final class ORCATests: XCTestCase {
    func testORCASerialStoredBalanceWithItsNoticeAndTrips() throws {
        let read = try DESFireReading.read(CardImages.sample("orca.json"))
        let r = read.reading
        XCTAssertEqual(r.family, "orca")
        XCTAssertEqual(r.serialNumber, "87654321")
        XCTAssertEqual(r.balance, 1975)
        XCTAssertEqual(r.currency, "USD")
        XCTAssertTrue(r.metadata["notice"]?.contains("since 2022") == true)
        XCTAssertEqual(r.transactions.count, 3)
        XCTAssertEqual(r.transactions[0].type, .trip)
        XCTAssertEqual(r.transactions[0].amount, 300)
        XCTAssertEqual(r.transactions[0].date?.description, "2026-11-20T17:15:00-08:00", "01:15 UTC the 21st")
        XCTAssertEqual(r.transactions[0].balance, 1975)
        XCTAssertEqual(r.transactions[1].date?.description, "2026-06-30T08:00:00-07:00")
        XCTAssertEqual(r.transactions[2].type, .topup)
        XCTAssertEqual(r.transactions[2].amount, 2500)
        // Get Application IDs, select, file 4 (one frame), settings + records of file 2 (96 bytes: 2
        // frames) and file 3 (one), select FFFFFF, its file 0F.
        XCTAssertEqual(read.counted, 1 + 1 + 1 + 1 + 2 + 1 + 1 + 1 + 1)
        XCTAssertLessThanOrEqual(read.counted, 14)
    }
}

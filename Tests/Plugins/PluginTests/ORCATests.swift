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

    func testAnEmptyTopUpFileIsAnEmptyHistoryEvenWhenReadRecordsAnswers91BE() throws {
        // Settings that say 3 records, then Read Records of the empty file: 91 BE (boundary error,
        // NXP's datasheet). No records is an empty history, not a refused card.
        var image = try CardImages.sample("orca.json")
        image.iso7816?.desfire?.applications[0].files[2].records = []
        let outcome = try PluginRead.read(image, plugins: [.desfire]) { _, command, answer in
            guard command.count >= 6, command[1] == 0xF5, command[5] == 0x03, answer.count >= 15 else { return answer }
            var a = answer
            a[10] = 3 // records held: 3
            return a
        }
        let r = try XCTUnwrap(outcome.reading, "\(String(describing: outcome.error))")
        XCTAssertEqual(r.balance, 1975)
        XCTAssertEqual(r.transactions.map(\.type), [.trip, .trip])
        let exchanges = outcome.bundle.exchanges.map { ($0.command.filter { !$0.isWhitespace }.uppercased(), ($0.response ?? "").filter { !$0.isWhitespace }.uppercased()) }
        XCTAssertTrue(exchanges.contains { $0.0.hasPrefix("90BB00000703") && $0.1 == "91BE" }, "Read Records of file 3 answered 91 BE")
    }
}

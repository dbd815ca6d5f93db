import CardSimulation
import Foundation
import TestSupport
import XCTest

/// Reads of one card merged into one timeline, through `transit scan` and a real SQLite archive.
final class HistoryMergeTests: XCTestCase {
    var archive: ArchiveFixture!
    override func setUp() { archive = ArchiveFixture() }
    override func tearDown() { archive.remove() }

    private func write(_ image: CardImage, _ name: String) throws -> String {
        try CardImages.write(image, in: archive.directory, name: name)
    }

    private func sequences(_ card: [String: Any]?) -> [String] {
        (card?["transactions"] as? [[String: Any]] ?? []).map { ($0["metadata"] as? [String: String])?["sequence"] ?? "-" }
    }

    func testARingThatMovedOnThreeRecordsGivesOneTimelineOfTwentyThree() throws {
        let first = JapanICRecords.card(numbers: Array((1 ... 20).reversed()))
        let second = JapanICRecords.movedOn(first, by: 3)
        XCTAssertEqual(try archive.scan(write(first, "first.json")).status, 0)
        let read = try archive.scan(write(second, "second.json"))
        XCTAssertEqual(read.status, 0, read.stderr)
        XCTAssertEqual(read.stderr, "")
        let cards = try archive.history()
        XCTAssertEqual(cards.count, 1)
        XCTAssertEqual(sequences(cards.first), (1 ... 23).map(String.init), "every record once, oldest first")
        // The second read's oldest record had no older one on the card: its amount is the first read's.
        let records = cards.first?["transactions"] as? [[String: Any]] ?? []
        XCTAssertEqual(records[3]["amount"] as? Int, 10)
        XCTAssertNil(records[0]["amount"], "the oldest record ever read has no amount")
        XCTAssertEqual(try archive.transit(["cards"]).stdout.contains("23"), true)
        // Read again, and the older read once more: nothing is doubled.
        XCTAssertEqual(try archive.scan(write(second, "second.json")).status, 0)
        XCTAssertEqual(try archive.scan(write(first, "first.json")).status, 0)
        XCTAssertEqual(sequences(try archive.history().first).count, 23)
    }

    func testTheSharedSuicaDumpAndAShiftedCopyMerge() throws {
        guard let dir = BuildProducts.cardDumps else { throw XCTSkip(BuildProducts.cardDumpsMissing) }
        let dump = dir.appendingPathComponent("Suica.nfc").path
        let shifted = try write(JapanICRecords.movedOn(try CardImage.load(dump), by: 3), "suica-shifted.json")
        XCTAssertEqual(try archive.scan(dump).status, 0) // read in place, never copied
        XCTAssertEqual(try archive.scan(shifted).status, 0)
        let numbers = sequences(try archive.history().first).compactMap { Int($0) }
        XCTAssertEqual(numbers.count, 23)
        XCTAssertEqual(numbers, numbers.sorted())
        XCTAssertEqual(Set(numbers).count, 23)
        XCTAssertEqual(numbers.suffix(3), [484, 485, 486])
    }

    func testTwoCardsStayApart() throws {
        let a = JapanICRecords.card(numbers: Array((1 ... 20).reversed()), idm: "0114AABBCCDDEE01")
        let b = JapanICRecords.card(numbers: Array((1 ... 20).reversed()), idm: "0114AABBCCDDEE02") // the same records
        XCTAssertEqual(try archive.scan(write(a, "a.json")).status, 0)
        XCTAssertEqual(try archive.scan(write(b, "b.json")).status, 0)
        let cards = try archive.history()
        XCTAssertEqual(cards.map { $0["serialNumber"] as? String }, ["0114AABBCCDDEE01", "0114AABBCCDDEE02"])
        XCTAssertEqual(cards.map { sequences($0).count }, [20, 20])
        XCTAssertEqual(sequences(try archive.history("0114AABBCCDDEE02").first).count, 20)
    }

    func testAReadThatContradictsTheArchiveIsKeptApartAndReported() throws {
        let first = JapanICRecords.card(numbers: Array((1 ... 20).reversed()))
        var forged = first
        // Record 20 again, with other bytes (another station).
        forged.felica?.systems[0].services["090F"]?[0] = JapanICRecords.trip(sequence: 20, day: 3, balance: 4800, entry: 0x1234)
        XCTAssertEqual(try archive.scan(write(first, "first.json")).status, 0)
        let read = try archive.scan(write(forged, "forged.json"))
        XCTAssertEqual(read.status, 0, "the read itself is fine and printed")
        XCTAssertTrue(read.stdout.contains("Balance:"))
        XCTAssertTrue(read.stderr.contains("contradicts its history"), read.stderr)
        XCTAssertTrue(read.stderr.contains("record number 20"), read.stderr)
        let card = try XCTUnwrap(try archive.history().first)
        XCTAssertEqual(sequences(card).count, 20, "not mixed into the timeline")
        XCTAssertEqual((card["readsApart"] as? [[String: Any]])?.count, 1)
        XCTAssertEqual(try archive.sql("SELECT COUNT(*) FROM reads"), "2\n", "the read is kept, as its own")
        XCTAssertTrue(try archive.transit(["history"]).stdout.contains("Kept apart"))
    }

    func testRecordsWithoutNumbersMergeByBytesAndOrder() throws {
        // Edy records carry no sequence metadata: the raw bytes and their order decide.
        let edy = BuildProducts.sample("edy.json")
        XCTAssertEqual(try archive.scan(edy).status, 0)
        XCTAssertEqual(try archive.scan(edy).status, 0)
        let card = try XCTUnwrap(try archive.history().first)
        let read = try XCTUnwrap(try archive.transit(["scan", "--card", edy, "--json", "--no-save"]).json)
        XCTAssertEqual((card["transactions"] as? [Any])?.count, (read["transactions"] as? [Any])?.count)
    }
}

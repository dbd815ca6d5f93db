import XCTest
@testable import Host

final class ReferenceTests: XCTestCase {
    func trip(_ date: String, _ amount: UInt64) -> CardReading.TransactionRecord {
        .init(type: "trip", amount: amount, date: date, entryStation: nil, exitStation: nil, metadata: [:], rawType: nil, rawPayload: nil)
    }

    func reading(_ t: [CardReading.TransactionRecord]) -> CardReading {
        CardReading(family: "x", cardName: nil, serialNumber: "1", balance: 100, currency: "JPY", validFrom: nil, validUntil: nil,
                    metadata: [:], transactions: t)
    }

    func testEachJourneyNeedsATransactionOfItsOwnAndDatesMatchWhole() {
        let twice = Reference(balance: 100, currency: nil, journeys: [.init(date: "2026-01-02", amount: 160), .init(date: "2026-01-02", amount: 160)])
        XCTAssertEqual(twice.mismatches(reading([trip("2026-01-02", 160)])).count, 1, "one trip cannot stand for two journeys")
        XCTAssertEqual(twice.mismatches(reading([trip("2026-01-02", 160), trip("2026-01-02", 160)])), [])
        let partial = Reference(balance: 100, currency: nil, journeys: [.init(date: "2026-01", amount: 160), .init(date: "2026-01-02")])
        XCTAssertEqual(partial.mismatches(reading([trip("2026-01-02", 160), trip("2026-01-02", 100)])).count, 1,
                       "a partial date matches nothing")
    }

    func testFewerThanTwoJourneysIsNeverFullyVerified() {
        let one = Reference(balance: 100, currency: nil, journeys: [.init(date: "2026-01-02")])
        XCTAssertEqual(one.mismatches(reading([trip("2026-01-02", 160)])),
                       ["the reference lists 1 journey; full verification needs 2"])
    }
}

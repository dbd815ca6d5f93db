import Foundation
import TransitModel
import TransitOutput
import XCTest

/// Passes as people and programs see them: the text's block with expiry told against the day in
/// the card's zone, JSON's `passes` (absent when none), a watch line and its --exec JSON.
final class PassOutputTests: XCTestCase {
    private let monthly = CardPass(name: "Navigo Mois", tariff: "0001", validFrom: CardDate("2026-12-01"), validUntil: CardDate("2026-12-31"),
                                   zones: "1-5", status: .valid, metadata: ["price": "8880"])
    private let carnet = CardPass(tariff: "5000", remainingTrips: 1, status: .unused)
    /// Validated on 2026-11-30 at 23:50 Paris time (CET, +01:00).
    private let trip = CardReading.TransactionRecord(type: .trip, date: CardDate("2026-11-30T23:50:00+01:00"), entryStation: "0A2C")

    private func navigo(_ passes: [CardPass]) -> CardReading {
        CardReading(family: "calypso", cardName: "Navigo", serialNumber: "1234567890", balance: nil, currency: "EUR",
                    transactions: [trip], passes: passes)
    }

    func testExpiryIsToldAgainstTheDayInTheCardsZone() throws {
        let r = navigo([monthly, carnet])
        // 2026-12-31 23:30 UTC is already 2027-01-01 00:30 in Paris (+01:00): the pass has expired.
        let newYear = Date(timeIntervalSince1970: 1_798_759_800) // 2026-12-31T23:30:00Z
        XCTAssertEqual(r.today(now: newYear), CalendarDay(year: 2027, month: 1, day: 1))
        let after = TextOutput.render(r, today: r.today(now: newYear))
        XCTAssertTrue(after.contains("  Navigo Mois  ·  valid 2026-12-01 to 2026-12-31  ·  zones 1-5  ·  EXPIRED"), after)
        // An hour earlier, 2026-12-31 in Paris: still valid.
        let before = TextOutput.render(r, today: r.today(now: newYear.addingTimeInterval(-3600)))
        XCTAssertTrue(before.contains("  Navigo Mois  ·  valid 2026-12-01 to 2026-12-31  ·  zones 1-5\n"), before)
        XCTAssertTrue(before.contains("  tariff 5000  ·  1 trip left  ·  not started"), before)
        XCTAssertTrue(before.contains("Balance: none (the card holds no stored value)"), before)
        // Metadata and the tariff behind a name only with --verbose.
        XCTAssertFalse(before.contains("8880"))
        let verbose = TextOutput.render(r, style: .init(verbose: true), today: CalendarDay(year: 2026, month: 12, day: 2))
        XCTAssertTrue(verbose.contains("Navigo Mois [tariff 0001]") && verbose.contains("      Price: 8880"), verbose)
    }

    func testJSONHasPassesOnlyWhenTheCardHoldsSome() throws {
        let json = JSONOutput.encode(navigo([monthly]))
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let passes = try XCTUnwrap(object["passes"] as? [[String: Any]])
        XCTAssertEqual(passes.first?["tariff"] as? String, "0001")
        XCTAssertEqual(passes.first?["validUntil"] as? String, "2026-12-31")
        XCTAssertNil(object["balance"])
        XCTAssertFalse(JSONOutput.encode(navigo([])).contains("passes"))
        // What the worker's pipe and the archive read back is the same reading.
        XCTAssertEqual(try JSONDecoder().decode(CardReading.self, from: Data(json.utf8)), navigo([monthly]))
    }

    func testAWatchLineCarriesPassesAndNoLowBalanceWithoutABalance() throws {
        let json = WatchLine.text("Reader 0", .success(navigo([monthly])), json: true, below: 500)
        let line = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let card = try XCTUnwrap(line["card"] as? [String: Any])
        XCTAssertEqual((card["passes"] as? [[String: Any]])?.count, 1)
        XCTAssertNil(card["lowBalance"], "a card without a stored value is never low")
        let text = WatchLine.text("Reader 0", .success(navigo([monthly])), json: false, below: 500)
        XCTAssertTrue(text.hasSuffix("Navigo 1234567890 none (the card holds no stored value)"), text)
    }
}

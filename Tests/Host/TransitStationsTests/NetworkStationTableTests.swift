import TransitModel
import TransitStations
import XCTest

/// A network's location table (`network,location,station_name…`): a Calypso record names its
/// network in metadata and its location id (4 hex digits) as its station; the user's table names it.
final class NetworkStationTableTests: XCTestCase {
    private func table(_ text: String) throws -> (StationTable, [String]) {
        var table = StationTable()
        let notes = try StationCSV.parse(Array(text.utf8), file: "navigo.csv", into: &table)
        return (table, notes)
    }

    private func reading(network: String?, entry: String) -> CardReading {
        var metadata = ["route": "0012"]
        if let network { metadata[MetadataKey.network] = network }
        let trip = CardReading.TransactionRecord(type: .trip, date: CardDate("2026-11-20T08:15:00+01:00"), entryStation: entry, metadata: metadata)
        return CardReading(family: "calypso", cardName: "Navigo", serialNumber: "1234567890", balance: nil, currency: "EUR", transactions: [trip])
    }

    func testALocationIsNamedByItsNetworkAndId() throws {
        let (t, notes) = try table("""
            network,location,station_name,station_name_en,line_name
            250901,0A2C,Châtelet,Chatelet,Métro 1
            250908,0A2C,République (Rennes),,Ligne a
            """)
        XCTAssertEqual(notes, [])
        let named = StationNaming.apply(t, to: reading(network: "250901", entry: "0A2C"))
        XCTAssertEqual(named.transactions[0].entryStationName, "Châtelet")
        XCTAssertEqual(named.transactions[0].entryStationNameEnglish, "Chatelet")
        XCTAssertEqual(named.transactions[0].metadata["entryLine"], "Métro 1")
        // The same id on another network is another place.
        XCTAssertEqual(StationNaming.apply(t, to: reading(network: "250908", entry: "0A2C")).transactions[0].entryStationName, "République (Rennes)")
        XCTAssertNil(StationNaming.apply(t, to: reading(network: "250502", entry: "0A2C")).transactions[0].entryStationName)
        XCTAssertTrue(StationNaming.needsTable(reading(network: "250901", entry: "0A2C")))
        XCTAssertFalse(StationNaming.needsTable(reading(network: nil, entry: "0A2C")))
    }

    func testAMalformedRowIsSkippedAndNamed() throws {
        let (t, notes) = try table("""
            network,location,station_name
            25090Z,0A2C,Bad network
            250901,12345,Too long an id
            250901,0001,Good
            """)
        XCTAssertEqual(notes.count, 1)
        XCTAssertTrue(notes[0].contains("2 malformed lines skipped") && notes[0].contains("navigo.csv:2"), notes[0])
        XCTAssertEqual(StationNaming.apply(t, to: reading(network: "250901", entry: "0001")).transactions[0].entryStationName, "Good")
    }
}

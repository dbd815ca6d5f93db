import Foundation
import TestSupport
import XCTest

/// Issue 45, "Station names stop at the ledger for Calypso": a network's station table
/// (docs/stations.md: `network,location,station_name`) names a Navigo's records in every output
/// that names a place — history, the CSV and the ledger export, and every report format — as it
/// names a Japan IC card's. The sample (scripts/make_calypso_samples.py) is network 250901 and
/// its validations are at locations 03C5 (2026-12-01), 0789 (the 1.50 special event of
/// 2026-11-20), 1A20 and 0456 (2026-10-25).
final class NetworkStationOutputsTests: XCTestCase {
    private var archive = ArchiveFixture()
    override func tearDown() { archive.remove() }

    private static let names = ["03C5": "Gare de Lyon", "0789": "Châtelet", "1A20": "Nation", "0456": "Bastille"]

    /// A table naming the sample's four locations on network 250901, and 0789 on another network.
    private func table(in folder: URL? = nil) throws -> String {
        let dir = folder ?? archive.directory
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let file = dir.appendingPathComponent("navigo.csv")
        try (["network,location,station_name", "250908,0789,Rennes République"]
             + Self.names.sorted { $0.key < $1.key }.map { "250901,\($0.key),\($0.value)" }).joined(separator: "\n")
            .write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    private func run(_ arguments: [String]) throws -> String {
        let run = try archive.transit(arguments, ["LANG": "C.UTF-8"])
        XCTAssertEqual(run.status, 0, "\(arguments): \(run.stderr)")
        return run.stdout
    }

    func testANetworkTableNamesNavigosRecordsInEveryOutput() throws {
        // Saved without a table: the names come from the table there is at output time.
        XCTAssertEqual(try archive.transit(["decode", "--save", BuildProducts.sample("navigo.json")]).status, 0)
        let stations = ["--stations", try table()]

        let history = try run(["history"] + stations)
        for name in Self.names.values { XCTAssertTrue(history.contains(name), "history: \(name)\n\(history)") }

        // The CSV's entry_station and entry_station_name columns (csv module: an independent reader).
        let csvFile = archive.directory.appendingPathComponent("navigo.csv.out").path
        _ = try run(["export", "--format", "csv", "--out", csvFile] + stations)
        let script = "import csv,sys\nfor r in csv.DictReader(open(sys.argv[1], encoding='utf-8', newline='')): print(r['entry_station'] + '|' + r['entry_station_name'])"
        let rows = try CommandRun.run("/usr/bin/python3", ["-c", script, csvFile]).stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(Set(rows), Set(Self.names.map { "\($0.key)|\($0.value)" }), "every location named in the CSV")

        // The ledger: the priced record's description, and the comments of the others.
        let ledger = try run(["export", "--format", "ledger"] + stations)
        XCTAssertTrue(ledger.contains("2026-11-20 trip: Châtelet, "), ledger)
        XCTAssertTrue(ledger.contains("; 2026-12-01 trip: Gare de Lyon, "), ledger)
        XCTAssertTrue(ledger.contains("; 2026-10-25 trip: Nation, ") && ledger.contains("; 2026-10-25 trip: Bastille, "), ledger)
        XCTAssertFalse(ledger.contains("Rennes"), "the same id on another network is another place")

        let period = ["--from", "2026-10-01", "--to", "2026-12-31"]
        for format in ["text", "json", "ofx", "html"] {
            let report = try run(["report", "--format", format] + period + stations)
            for name in Self.names.values {
                // HTML and OFX write the accented name as it is (UTF-8); JSON may escape nothing here either.
                XCTAssertTrue(report.contains(name), "report --format \(format): \(name)\n\(report.prefix(3000))")
            }
        }
    }

    func testATableInTheDataFolderNamesTheLedgersStations() throws {
        // No --stations: every *.csv of $XDG_DATA_HOME/transit/stations/ (docs/stations.md).
        XCTAssertEqual(try archive.scan(BuildProducts.sample("navigo.json")).status, 0)
        _ = try table(in: archive.folder.appendingPathComponent("stations"))
        let ledger = try run(["export", "--format", "ledger"])
        XCTAssertTrue(ledger.contains("2026-11-20 trip: Châtelet, "), ledger)
        let csv = try run(["export", "--format", "csv"])
        XCTAssertTrue(csv.contains(",0789,Châtelet,"), csv)
    }
}

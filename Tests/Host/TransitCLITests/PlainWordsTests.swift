import Foundation
import TestSupport
import XCTest

/// What a person reads says what it is: verify speaks money as the table does, the CSV export
/// keeps the details scan and history show, an empty amount, an unknown record, the IDm and bare
/// station codes are explained where they appear.
final class PlainWordsTests: XCTestCase {
    private var archive = ArchiveFixture()
    override func tearDown() { archive.remove() }

    func testVerifySaysAmountsInTheCardsMoney() throws {
        let reference = archive.directory.appendingPathComponent("ref.json")
        try #"{"balance": 897, "currency": "SGD", "journeys": [{"date": "2026-11-20", "amount": 130}, {"date": "2026-11-19", "amount": 99}]}"#
            .write(to: reference, atomically: true, encoding: .utf8)
        let run = try archive.transit(["verify", "--reference", reference.path, "--card", BuildProducts.sample("ezlink.json"), "--no-save"])
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertTrue(run.stdout.contains("journey 1 (2026-11-20 amount S$1.30): amount S$1.30 on the reference, S$1.28 on the card"), run.stdout)
        XCTAssertFalse(run.stdout.contains("130 on the reference"), run.stdout)
    }

    func testTheCSVExportKeepsTheDetailsColumn() throws {
        for name in ["suica", "ezlink"] { XCTAssertEqual(try archive.scan(BuildProducts.sample("\(name).json")).status, 0) }
        let run = try archive.transit(["export", "--format", "csv"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stdout.components(separatedBy: "\r\n")
        XCTAssertEqual(lines.first?.split(separator: ",").last, "details", run.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("012E4CD8A1B2C3D4,2026-11-03,") && $0.hasSuffix(",\"bus line 0A12, stop 3456\"") }, run.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("1009123456789012,2026-11-20,08:15:30,trip,-1.28,") && $0.hasSuffix(",BGB-TPG") }, run.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("1009123456789012,2026-11-19,") && $0.hasSuffix(",BUS 174") }, run.stdout)
    }

    func testAnEmptyAmountTheIDmAndStationCodesAreExplained() throws {
        let run = try archive.scan(BuildProducts.sample("suica.json"), ["--no-save"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "Suica  IDm 012E4CD8A1B2C3D4 (the card's chip ID)")
        let oldest = try XCTUnwrap(lines.first { $0.hasPrefix("2026-11-01") })
        XCTAssertTrue(oldest.contains("?"), "the unknown amount is marked: \(oldest)")
        XCTAssertTrue(lines.contains("? the card keeps the balance after each record, not its amount: "
                                     + "the oldest record has no earlier balance to take it from"), run.stdout)
        XCTAssertTrue(lines.contains("Stations are shown by their codes: a station table names them "
                                     + "(transit ships none; README, \"Station names\")"), run.stdout)
    }

    func testAnUnknownRecordSaysItIsOneTransitDoesNotKnow() throws {
        let run = try archive.scan(BuildProducts.sample("ezlink.json"), ["--no-save"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let row = try XCTUnwrap(run.stdout.split(separator: "\n").first { $0.hasPrefix("2026-11-17") })
        XCTAssertTrue(row.hasSuffix("TIT2784 (record type A0, not one transit knows)"), String(row))
        XCTAssertFalse(run.stdout.contains("Stations are shown by their codes"), "no station codes on a CEPAS card")
    }
}

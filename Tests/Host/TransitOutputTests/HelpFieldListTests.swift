import Foundation
import TestSupport
import TransitModel
import TransitOutput
import TransitTransport
import XCTest

/// The field lists of the help texts and the README against the JSON the program prints, field for
/// field: every key printed is listed, and every key listed without `?` is printed. A list in the
/// docs is `{"key", "optional"?, "nested": {…}}` (a `(comment)` after a key is the key's note).
final class HelpFieldListTests: XCTestCase {
    private var archive = ArchiveFixture()
    override func tearDown() { archive.remove() }

    private func help(_ command: String) throws -> String {
        let run = try CommandRun.transit([command, "--help"])
        XCTAssertEqual(run.status, 0)
        return run.stdout
    }

    private func objects(_ text: String) -> [[String: Any]] {
        let json = try? JSONSerialization.jsonObject(with: Data(text.utf8))
        return json as? [[String: Any]] ?? (json as? [String: Any]).map { [$0] } ?? []
    }

    private func lines(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").flatMap { objects(String($0)) }
    }

    /// Each printed object matches one of `shapes`, and each shape is matched by a printed object.
    private func assertMatch(_ shapes: [FieldList], _ printed: [[String: Any]], _ what: String,
                             file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(shapes.isEmpty, "\(what): no field list found", file: file, line: line)
        XCTAssertFalse(printed.isEmpty, "\(what): nothing printed", file: file, line: line)
        for object in printed where !shapes.contains(where: { $0.problems(object).isEmpty }) {
            let nearest = shapes.map { $0.problems(object) }.min { $0.count < $1.count } ?? []
            XCTFail("\(what): \(object.keys.sorted()) matches no list of the docs: \(nearest.joined(separator: "; "))", file: file, line: line)
        }
        for shape in shapes where !printed.contains(where: { shape.problems($0).isEmpty }) {
            XCTFail("\(what): the docs list \(shape.description), which nothing printed matches", file: file, line: line)
        }
    }

    func testReadersHelpListsTheFieldsOfItsJSON() throws {
        let rows = [ReaderRow(ListedReader(name: "SONY RC-S380/S (USB 1:13)", transport: .usb, atr: nil, problem: nil)),
                    ReaderRow(ListedReader(name: "SONY RC-S380/P (USB 1:14)", transport: .usb, atr: [0x3B, 0x8F, 0x80, 0x01], problem: nil)),
                    ReaderRow(ListedReader(name: "SONY RC-S380/S (USB 1:15)", transport: .usb, atr: nil, problem: "no access to /dev/bus/usb/001/015")),
                    ReaderRow(ListedReader(name: "ACS ACR122U PICC Interface 00 00", transport: .usb, atr: nil, problem: nil))]
        let printed = objects(JSONOutput.encode(rows))
        XCTAssertTrue(printed.contains { ($0["profile"] as? [String: Any])?["maxCommand"] == nil }, "a reader table line without maxCommand")
        assertMatch(FieldList.all(in: try help("readers")), printed, "transit readers --help")
    }

    func testWatchHelpListsTheFieldsOfItsLines() throws {
        let reading = CardReading(family: "japan-ic", serialNumber: "012E4CD8A1B2C3D4", balance: 2010, currency: "JPY", transactions: [])
        let printed = [WatchLine.text("Virtual PCD 00 00", .success(reading), json: true),
                       WatchLine.text("Virtual PCD 00 00", .success(reading), json: true, nickname: "通勤"),
                       WatchLine.text("Virtual PCD 00 00", .failure(TransitError(.sessionLost, "the card left")), json: true)]
            .flatMap(objects)
        assertMatch(FieldList.all(in: try help("watch")), printed, "transit watch --help")
    }

    func testVerifyDoctorDecodeAndReportHelpListTheFieldsTheyPrint() throws {
        let reference = archive.directory.appendingPathComponent("ref.json")
        try #"{"balance": 897, "journeys": [{"date": "2026-11-20", "amount": 128}, {"date": "2026-11-19", "amount": 99}]}"#
            .write(to: reference, atomically: true, encoding: .utf8)
        let verify = try archive.transit(["verify", "--reference", reference.path, "--card", BuildProducts.sample("ezlink.json"), "--json", "--no-save"])
        assertMatch(FieldList.all(in: try help("verify")), objects(verify.stdout), "transit verify --help")

        let doctor = try archive.transit(["doctor", "--json"])
        assertMatch(FieldList.all(in: try help("doctor")), objects(doctor.stdout), "transit doctor --help")

        let decode = try archive.transit(["decode", BuildProducts.sample("suica.json"), "/nonexistent.json"])
        let decodeShapes = FieldList.all(in: try help("decode"))
        for object in lines(decode.stdout) { XCTAssertTrue(decodeShapes.contains { $0.problems(object).isEmpty }, "\(object.keys.sorted())") }

        XCTAssertEqual(try archive.scan(BuildProducts.sample("ezlink.json")).status, 0)
        let report = try archive.transit(["report", "#1", "--month", "2026-11", "--format", "json"])
        assertMatch(FieldList.all(in: try help("report")).filter { $0.keys.contains("totals") }, objects(report.stdout), "transit report --help")
        let history = try archive.transit(["history", "--json"])
        assertMatch(FieldList.all(in: try help("history")), objects(history.stdout), "transit history --help")
    }

    func testTheGuidesListTheFieldsOfHistoryAndErrors() throws {
        let readme = DocCommands.documents.map(DocCommands.text).joined(separator: "\n")
        XCTAssertEqual(try archive.scan(BuildProducts.sample("suica.json")).status, 0)
        XCTAssertEqual(try archive.transit(["cards", "--name", "#1", "通勤"]).status, 0)
        XCTAssertEqual(try archive.scan(BuildProducts.sample("ezlink.json")).status, 0)
        let history = try archive.transit(["history", "--json"])
        let listed = FieldList.all(in: readme).filter { $0.keys.contains("readsApart") }
        XCTAssertEqual(listed.count, 1, "one list of history --json's fields in the guides")
        assertMatch(listed, objects(history.stdout), "the README's history --json")

        let failed = try archive.transit(["scan", "--card", "/nonexistent.json", "--json"])
        let errors = FieldList.all(in: readme).filter { $0.keys == ["error"] }
        assertMatch(errors, objects(failed.stdout), "the README's JSON error")
    }

    func testADecodeFailureIsOneLineOnStderrAsEveryJSONError() throws {
        let run = try archive.transit(["decode", BuildProducts.sample("suica.json"), "/nonexistent.json"])
        XCTAssertEqual(run.status, 2)
        let said = run.stderr.split(separator: "\n")
        XCTAssertEqual(said.count, 1, run.stderr)
        XCTAssertTrue(said.first?.hasPrefix("transit: /nonexistent.json") == true, run.stderr)
    }
}

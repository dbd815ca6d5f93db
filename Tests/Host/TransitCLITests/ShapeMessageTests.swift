import Foundation
import TestSupport
import XCTest

/// A file of the wrong shape (a reference, a log bundle, a card image) is a `config` error (exit 2)
/// in the words of the misspelt-key message: which key, what was expected, what was found, the
/// file and its docs. No Swift type or decoder internals reach the user.
final class ShapeMessageTests: XCTestCase {
    private var folder = temporaryDirectory()
    override func tearDown() { try? FileManager.default.removeItem(at: folder) }

    /// What only Swift's decoder says: none may reach a message.
    private static let internals = ["DecodingError", "typeMismatch", "keyNotFound", "valueNotFound", "dataCorrupted", "CodingKeys",
                                    "Swift.", "UInt64", "Int64", "Expected to decode", "codingPath", "debugDescription", "Key '",
                                    "_JSONKey", "Index 0", "intValue", "stringValue"]

    private func write(_ text: String, _ name: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    private func verify(_ reference: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let path = try write(reference, "ref.json")
        let run = try CommandRun.transit(["verify", "--reference", path, "--card", BuildProducts.sample("ezlink.json"), "--no-save"])
        XCTAssertEqual(run.status, 2, run.stderr, file: file, line: line)
        XCTAssertTrue(run.stderr.contains(path), "names the file: \(run.stderr)", file: file, line: line)
        XCTAssertTrue(run.stderr.contains("docs/verify.md"), "names the docs: \(run.stderr)", file: file, line: line)
        assertNoInternals(run.stderr, file: file, line: line)
        return run.stderr
    }

    private func assertNoInternals(_ message: String, file: StaticString = #filePath, line: UInt = #line) {
        for word in Self.internals { XCTAssertFalse(message.contains(word), "\(word) in \(message)", file: file, line: line) }
    }

    func testAnAmountCopiedFromAReceiptSaysWhatAnAmountIs() throws {
        let message = try verify(#"{"balance": 897, "journeys": [{"date": "2026-11-20", "amount": 1.28}, {"date": "2026-11-19"}]}"#)
        XCTAssertTrue(message.contains(#"key "amount" of journey 1"#), message)
        XCTAssertTrue(message.contains("1.28"), "what was found: \(message)")
        XCTAssertTrue(message.contains("a whole number"), "what was expected: \(message)")
        XCTAssertFalse(message.contains("not valid JSON"), "the file is JSON: \(message)")
    }

    /// The amount's place is found by walking the file once: a reference that also holds 500,000
    /// numbers in a list nested 500 deep is answered about as quickly as one that holds them in a
    /// flat list (the walk once copied the path at every number: numbers × depth).
    func testTheAmountIsFoundQuicklyPastAListNested500DeepOfManyNumbers() throws {
        func seconds(depth: Int) throws -> Double {
            let list = String(repeating: "[", count: depth) + String(repeating: "0,", count: 500_000) + "0" + String(repeating: "]", count: depth)
            let started = Date()
            let message = try verify(#"{"a": \#(list), "balance": 897, "journeys": [{"date": "2026-11-20", "amount": 1.28}, {"date": "2026-11-19"}]}"#)
            XCTAssertTrue(message.contains(#"key "amount" of journey 1 is the number 1.28"#), message)
            return Date().timeIntervalSince(started)
        }
        let flat = try seconds(depth: 1), deep = try seconds(depth: 500)
        XCTAssertLessThan(deep, 2 * flat + 0.5, "500 deep: \(deep) s; flat: \(flat) s")
    }

    func testAStringBalanceAMissingKeyAndAWrongTypeWord() throws {
        let balance = try verify(#"{"balance": "8.97", "journeys": []}"#)
        XCTAssertTrue(balance.contains(#"key "balance""#), balance)
        XCTAssertTrue(balance.contains(#"the text "8.97""#), balance)
        XCTAssertTrue(balance.contains("a whole number"), balance)
        let missing = try verify(#"{"balance": 897}"#)
        XCTAssertTrue(missing.contains(#"key "journeys" is missing"#), missing)
        XCTAssertTrue(missing.contains("a list"), missing)
        let type = try verify(#"{"balance": 897, "journeys": [{"date": "2026-11-20", "type": "fare"}]}"#)
        XCTAssertTrue(type.contains(#"key "type" of journey 1"#), type)
        XCTAssertTrue(type.contains(#""fare""#), type)
        XCTAssertTrue(type.contains("trip, topup, purchase or unknown"), type)
        let notJSON = try verify("balance: 897\n")
        XCTAssertTrue(notJSON.contains("is not JSON"), notJSON)
    }

    func testReplayingACardImageSaysItIsACardImage() throws {
        let run = try CommandRun.transit(["replay", "samples/suica.json"])
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.contains("samples/suica.json is a card image, not a log bundle"), run.stderr)
        XCTAssertTrue(run.stderr.contains("transit scan --card samples/suica.json"), run.stderr)
        assertNoInternals(run.stderr)
    }

    func testALogOfTheWrongShapeNamesTheKey() throws {
        let log = try write(#"{"tool": "transit", "exchanges": "none"}"#, "read.log.json")
        let run = try CommandRun.transit(["replay", log])
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.contains("\(log) is not a transit log"), run.stderr)
        XCTAssertTrue(run.stderr.contains("scan --log"), "says where a log comes from: \(run.stderr)")
        XCTAssertTrue(run.stderr.contains(#"key ""#), run.stderr)
        assertNoInternals(run.stderr)
    }

    func testACardImageOfTheWrongShapeNamesTheKey() throws {
        let image = try write(#"{"format": "transit-card-image/1", "felica": {"idm": 5, "systems": []}}"#, "card.json")
        let run = try CommandRun.transit(["scan", "--card", image, "--no-save"])
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.contains(#"key "idm" of felica"#), run.stderr)
        XCTAssertTrue(run.stderr.contains("the number 5"), run.stderr)
        XCTAssertTrue(run.stderr.contains("docs/card-image.md"), run.stderr)
        assertNoInternals(run.stderr)
    }
}

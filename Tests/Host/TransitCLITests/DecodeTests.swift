import Foundation
import TestSupport
import XCTest

final class DecodeTests: XCTestCase {
    func testOneJSONLinePerFileAndTheFirstFailuresExitCode() throws {
        let files = ["suica.json", "unknown-iso.json", "tmoney.json"].map(BuildProducts.sample)
        let run = try CommandRun.transit(["decode"] + files)
        XCTAssertEqual(run.status, 4, "the unknown card's code")
        let lines = run.stdout.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        XCTAssertEqual(lines.count, 3)
        XCTAssertEqual(lines.map { $0?["file"] as? String }, files)
        XCTAssertEqual((lines[0]?["card"] as? [String: Any])?["balance"] as? Int, 2010)
        XCTAssertEqual((lines[1]?["error"] as? [String: Any])?["kind"] as? String, "tagNotSupported")
        XCTAssertEqual((lines[2]?["card"] as? [String: Any])?["family"] as? String, "ksx6924")
        XCTAssertEqual(try CommandRun.transit(["decode", files[0], files[2]]).status, 0)
    }
}

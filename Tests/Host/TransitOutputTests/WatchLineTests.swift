import Foundation
import TransitModel
import TransitOutput
import XCTest

/// A watch line names the card by its nickname and flags a low balance, in text and in the JSON
/// that `watch --exec` commands get.
final class WatchLineTests: XCTestCase {
    private let reading = CardReading(family: "japan-ic", cardName: "Suica", serialNumber: "012E4CD8A1B2C3D4", balance: 800, currency: "JPY",
                                      metadata: ["idm": "012E4CD8A1B2C3D4"])

    func testTheLineSaysTheNicknameAndALowBalance() throws {
        let text = WatchLine.text("Reader 0", .success(reading), json: false, nickname: "通勤", below: 1000)
        XCTAssertTrue(text.contains("Suica “通勤” IDm 012E4CD8A1B2C3D4 ¥800"), text)
        XCTAssertTrue(text.hasSuffix("LOW BALANCE: under ¥1,000"), text)
        let json = WatchLine.text("Reader 0", .success(reading), json: true, nickname: "通勤", below: 1000)
        let line = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        XCTAssertEqual(line["nickname"] as? String, "通勤")
        let card = try XCTUnwrap(line["card"] as? [String: Any])
        XCTAssertEqual(card["lowBalance"] as? Bool, true)
        XCTAssertEqual(card["balance"] as? Int, 800, "the card's own fields stay")
        let enough = WatchLine.text("Reader 0", .success(reading), json: true, below: 500)
        XCTAssertTrue(enough.contains("\"lowBalance\":false"), enough)
        XCTAssertFalse(WatchLine.text("Reader 0", .success(reading), json: true).contains("lowBalance"))
        XCTAssertFalse(WatchLine.text("Reader 0", .success(reading), json: false, below: 500).contains("LOW"))
    }
}

import Foundation
import TransitArchive
import XCTest

/// Issue 47: a listing takes each record's metadata, raw type and raw payload from its stored JSON
/// in one pass of its own (`StoredRecordFields`) instead of SQLite's JSON functions. SQLite is the
/// reference: for each stored text, what json_valid, json_each('$.metadata') (text values) and
/// json_extract('$.rawType' / '$.rawPayload', when text) give is what the pass must give.
final class StoredRecordFieldsTests: XCTestCase {
    private static let texts = [
        #"{"balance":19990,"date":"2010-01-01","metadata":{"entryRegion":"2","exitRegion":"1","sequence":"1"},"rawPayload":"1601","rawType":"16","type":"trip"}"#,
        #"{}"#, #"  { "metadata" : { } }  "#, #"{"metadata":{"a":1,"b":null,"c":true,"d":{"x":"y"},"e":["f"],"g":"h"}}"#,
        #"{"metadata":{"k":"first","k":"second"}}"#, #"{"metadata":{"a":"1"},"metadata":{"b":"2"}}"#,
        #"{"rawType":"A","rawType":"B","rawPayload":"C"}"#, #"{"rawType":7,"rawPayload":{"x":1}}"#,
        #"{"metadata":["zero",1,"two"]}"#, #"{"metadata":"text"}"#, #"{"metadata":5}"#,
        #"{"met\u0061data":{"escaped key":"v"}}"#, #"{"metadata":{"line\nbreak":"tab\there","quote\"":"back\\slash\/"}}"#,
        #"{"metadata":{"kana":"\u30b7\u30f3\u30b8\u30e5\u30af","emoji":"\ud83d\ude83","raw":"新宿"}}"#,
        #"{"metadata":{"n":-0.5e+10,"m":0,"o":12.25E-3}}"#, #"{"nested":[[[{"a":[1,2,{"b":"c"}]}]]],"metadata":{"x":"y"}}"#,
        // Not JSON: nothing is taken.
        "", "[]", "\"metadata\"", #"{"metadata":{"a":"1"}"#, #"{"metadata":{"a":"1"}}}"#, #"{"metadata":{"a":01}}"#,
        #"{"metadata":{"a":"raw"#, "{\"metadata\":{\"a\":\"control\u{01}\"}}", #"{"metadata":{"a":"\x"}}"#, #"{'metadata':{}}"#,
        #"{"metadata":{"a":"1",}}"#, #"{"a":tru}"#, #"{"a":1.}"#, #"{"a":-}"#, #"{"a":"1"} x"#,
    ]

    /// What SQLite takes as the metadata: json_each('$.metadata')'s members whose value is text.
    private static func textMembers(of text: String, in db: SQLiteDatabase) throws -> [String: String] {
        let members = try db.prepare("SELECT key, value FROM json_each(?, '$.metadata') WHERE type = 'text'")
        try members.bind([.text(text)])
        var found = [String: String]()
        while try members.step() { if let k = members.text(0), let v = members.text(1) { found[k] = v } }
        return found
    }

    func testEachStoredTextGivesWhatSQLitesJSONFunctionsGive() throws {
        let db = try SQLiteDatabase(path: ":memory:", name: "test", flags: 0x2 | 0x4, busyTimeoutMilliseconds: 100)
        for text in Self.texts {
            let valid = try db.integer("SELECT json_valid(?)", [.text(text)]) == 1
            let parsed = Array(text.utf8).withUnsafeBufferPointer { StoredRecordFields.parse($0, metadata: true, raw: true) }
            XCTAssertEqual(parsed != nil, valid, "json_valid of \(text)")
            guard valid, let parsed else { continue }
            XCTAssertEqual(parsed.metadata, try Self.textMembers(of: text, in: db), "metadata of \(text)")
            for (path, got) in [("$.rawType", parsed.rawType), ("$.rawPayload", parsed.rawPayload)] {
                let q = try db.prepare("SELECT CASE WHEN json_type(?1, ?2) = 'text' THEN json_extract(?1, ?2) END")
                try q.bind([.text(text), .text(path)])
                XCTAssertTrue(try q.step())
                XCTAssertEqual(got, q.text(0), "\(path) of \(text)")
            }
        }
    }

    func testOnlyWhatIsAskedIsTaken() {
        let text = Array(#"{"metadata":{"a":"b"},"rawType":"16","rawPayload":"00"}"#.utf8)
        let none = text.withUnsafeBufferPointer { StoredRecordFields.parse($0, metadata: false, raw: false) }
        XCTAssertEqual(none?.metadata, [:])
        XCTAssertNil(none?.rawType)
        let raw = text.withUnsafeBufferPointer { StoredRecordFields.parse($0, metadata: false, raw: true) }
        XCTAssertEqual(raw?.rawType, "16")
        XCTAssertEqual(raw?.rawPayload, "00")
    }

    /// A listing leaves out the metadata keys it never shows (`unsaid`): those keys are missing and
    /// every other member is what json_each gives; a text that is not JSON is still refused whole,
    /// whatever key the fault follows.
    func testKeysLeftUnsaidAreMissingAndTheRestIsWhatSQLiteGives() throws {
        let unsaid = ["sequence", "entryRegion"].map { Array($0.utf8) }
        let db = try SQLiteDatabase(path: ":memory:", name: "test", flags: 0x2 | 0x4, busyTimeoutMilliseconds: 100)
        for text in Self.texts + [#"{"metadata":{"sequence":"7","entryRegion":{"x":[1]},"seq":"8","sequencex":"9"}}"#,
                                  #"{"metadata":{"sequence":"7","a":"1"},"x":tru}"#, #"{"metadata":{"sequence":"unclosed}}"#,
                                  #"{"metadata":{"sequ\u0065nce":"escaped, so kept as SQLite names it","b":"2"}}"#] {
            let valid = try db.integer("SELECT json_valid(?)", [.text(text)]) == 1
            let parsed = Array(text.utf8).withUnsafeBufferPointer { StoredRecordFields.parse($0, metadata: true, raw: true, unsaid: unsaid) }
            XCTAssertEqual(parsed != nil, valid, "json_valid of \(text)")
            guard valid, let parsed else { continue }
            var expected = try Self.textMembers(of: text, in: db)
            // SQLite decodes an escaped key; the pass compares names as written (an escaped one is kept).
            let written = text.contains(#"sequ\u0065nce"#)
            for key in ["sequence", "entryRegion"] where !(written && key == "sequence") { expected[key] = nil }
            XCTAssertEqual(parsed.metadata, expected, "metadata of \(text)")
        }
    }

    func testNestingDeeperThanSQLiteTakesIsRefused() {
        let deep = Array(("{\"a\":" + String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000) + "}").utf8)
        XCTAssertNil(deep.withUnsafeBufferPointer { StoredRecordFields.parse($0, metadata: true, raw: true) })
    }
}

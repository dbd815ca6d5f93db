import Foundation
import TransitModel
import XCTest

/// Terminal and JSON escaping of text from outside the host: C0, DEL and C1, the format controls
/// that reorder or hide text (bidi overrides and isolates, marks, zero-width characters, tags) and
/// the line and paragraph separators; one linear pass; bounded excerpts for error messages.
final class TerminalTextTests: XCTestCase {
    /// One of each class, with its terminal escape.
    let escapes: [(Unicode.Scalar, String)] = [
        ("\u{0}", #"\x00"#), ("\u{7}", #"\x07"#), ("\n", #"\n"#), ("\t", #"\t"#), ("\r", #"\r"#), ("\u{1B}", #"\x1B"#),
        ("\u{7F}", #"\x7F"#), ("\u{80}", #"\u0080"#), ("\u{9B}", #"\u009B"#), ("\u{9F}", #"\u009F"#),
        ("\u{AD}", #"\u00AD"#), ("\u{61C}", #"\u061C"#), ("\u{180E}", #"\u180E"#),
        ("\u{200B}", #"\u200B"#), ("\u{200C}", #"\u200C"#), ("\u{200D}", #"\u200D"#), ("\u{200E}", #"\u200E"#), ("\u{200F}", #"\u200F"#),
        ("\u{2028}", #"\u2028"#), ("\u{2029}", #"\u2029"#),
        ("\u{202A}", #"\u202A"#), ("\u{202B}", #"\u202B"#), ("\u{202C}", #"\u202C"#), ("\u{202D}", #"\u202D"#), ("\u{202E}", #"\u202E"#),
        ("\u{2060}", #"\u2060"#), ("\u{2064}", #"\u2064"#),
        ("\u{2066}", #"\u2066"#), ("\u{2067}", #"\u2067"#), ("\u{2068}", #"\u2068"#), ("\u{2069}", #"\u2069"#), ("\u{206F}", #"\u206F"#),
        ("\u{FEFF}", #"\uFEFF"#), ("\u{FFF9}", #"\uFFF9"#), ("\u{FFFB}", #"\uFFFB"#),
        ("\u{E0001}", #"\U000E0001"#), ("\u{E0020}", #"\U000E0020"#), ("\u{E0041}", #"\U000E0041"#), ("\u{E007F}", #"\U000E007F"#),
    ]

    func testEveryClassIsEscapedOnTheTerminal() {
        for (scalar, escape) in escapes {
            XCTAssertEqual(TerminalText.escape("a\(scalar)b"), "a\(escape)b", "U+\(String(scalar.value, radix: 16))")
        }
        // The classic spoof: a file name that reads "cod.exe" backwards reads as what it is.
        XCTAssertEqual(TerminalText.escape("card\u{202E}nosj.exe"), #"card\u202Enosj.exe"#)
    }

    func testPrintableTextIsUnchanged() {
        for text in ["Suica", "東京 → 渋谷", "Ñandú café", #"back\slash \u202E as text"#, "emoji 😀 👍🏽", "עברית العربية", "\u{A0}\u{2000}\u{3000}", ""] {
            XCTAssertEqual(TerminalText.escape(text), text)
        }
    }

    func testJSONEscapesEveryClassAndRoundTripsToTheExactString() throws {
        struct Value: Codable, Equatable { let text: String }
        let all = Value(text: "x" + escapes.map { String($0.0) }.joined() + "é日😀\\\"/y")
        let json = JSONOutput.encode(all)
        for (scalar, _) in escapes where scalar.value >= 0x7F {
            XCTAssertFalse(json.unicodeScalars.contains(scalar), "raw U+\(String(scalar.value, radix: 16)) in \(json)")
        }
        XCTAssertFalse(json.unicodeScalars.contains { $0.value < 0x20 }, json)
        for escape in [#"\u007F"#, #"\u009B"#, #"\u202E"#, #"\u2066"#, #"\u2028"#, #"\uFEFF"#, #"\uDB40\uDC01"#, #"\uDB40\uDC7F"#] {
            XCTAssertTrue(json.contains(escape), "\(escape) in \(json)")
        }
        XCTAssertTrue(json.contains("é日😀"), json)
        XCTAssertEqual(try JSONDecoder().decode(Value.self, from: Data(json.utf8)), all)
        XCTAssertEqual(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String], ["text": all.text])
    }

    /// Escaping was quadratic (a 200 KB line of controls took 18–32 s): it is one pass now.
    func testAMegabyteOfControlsIsEscapedInOnePass() {
        let line = String(repeating: "\u{7F}\u{1B}\u{202E}", count: 1 << 20 / 5) // 1 MB of UTF-8
        XCTAssertGreaterThanOrEqual(line.utf8.count, 1_000_000)
        var started = Date()
        let text = TerminalText.escape(line)
        let textSeconds = Date().timeIntervalSince(started)
        XCTAssertEqual(text.utf8.count, (4 + 4 + 6) * (1 << 20 / 5))
        XCTAssertTrue(text.hasPrefix(#"\x7F\x1B\u202E\x7F"#))
        started = Date()
        let json = JSONOutput.encode(["line": line])
        let jsonSeconds = Date().timeIntervalSince(started)
        XCTAssertEqual(try JSONDecoder().decode([String: String].self, from: Data(json.utf8))["line"], line)
        print("TerminalTextTests: 1 MB of DEL/ESC/U+202E: terminal \(textSeconds) s, JSON \(jsonSeconds) s")
        XCTAssertLessThan(textSeconds, 2)
        XCTAssertLessThan(jsonSeconds, 2)
    }

    func testAnExcerptQuotesAtMost80Characters() {
        XCTAssertEqual(TerminalText.excerpt("short"), "short")
        XCTAssertEqual(TerminalText.excerpt(String(repeating: "a", count: 80)), String(repeating: "a", count: 80))
        let huge = String(repeating: "Z", count: 4 << 20)
        let started = Date()
        let excerpt = TerminalText.excerpt(huge)
        XCTAssertLessThan(Date().timeIntervalSince(started), 1, "only the excerpt is walked")
        XCTAssertEqual(excerpt, String(repeating: "Z", count: 80) + "…")
        // Counted in scalars: one grapheme of 4 MB of combining marks is still cut at 80.
        let marks = "e" + String(repeating: "\u{301}", count: 4 << 20)
        XCTAssertEqual(TerminalText.excerpt(marks).unicodeScalars.count, 81)
        XCTAssertEqual(TerminalText.excerpt("abcdef", limit: 3), "abc…")
    }

    /// A decoder's error names the path and says what is wrong, each key and the description an excerpt.
    func testADecodingErrorAboutA4MBValueQuotesAnExcerpt() {
        struct Strict: Decodable { let values: [String: Int] }
        let key = String(repeating: "K", count: 4 << 20)
        let data = Data(#"{"values": {"\#(key)": "not a number"}}"#.utf8)
        XCTAssertThrowsError(try JSONDecoder().decode(Strict.self, from: data)) { error in
            let said = TerminalText.excerpt(describing: error)
            XCTAssertLessThan(said.count, 400, said)
            XCTAssertTrue(said.hasPrefix("at values." + String(repeating: "K", count: 80) + "…: "), said)
        }
        struct Failure: Error, CustomStringConvertible { let description: String }
        XCTAssertEqual(TerminalText.excerpt(describing: Failure(description: String(repeating: "v", count: 4 << 20))),
                       String(repeating: "v", count: 80) + "…")
    }
}

import TransitModel
import XCTest

/// Columns by UAX #11 (the research note's values, checked there against glibc's wcwidth in
/// C.UTF-8): wide and fullwidth two, ambiguous and narrow one, combining marks none.
final class DisplayWidthTests: XCTestCase {
    func testWidths() {
        XCTAssertEqual(DisplayWidth.of("残高"), 4)
        XCTAssertEqual(DisplayWidth.of("¥2,010"), 6, "U+00A5 is narrow")
        XCTAssertEqual(DisplayWidth.of("￥"), 2, "U+FFE5 is fullwidth")
        XCTAssertEqual(DisplayWidth.of("ｱ"), 1, "halfwidth katakana")
        XCTAssertEqual(DisplayWidth.of("チャージ"), 8)
        XCTAssertEqual(DisplayWidth.of("①○※→"), 4, "ambiguous: narrow, as terminals draw it by default")
        XCTAssertEqual(DisplayWidth.of("e\u{301}"), 1, "a combining accent takes no column")
        XCTAssertEqual(DisplayWidth.of("👍"), 2)
        XCTAssertEqual(DisplayWidth.of("（）、。"), 8)
        XCTAssertEqual(DisplayWidth.padded("乗車", to: 8), "乗車    ")
    }
}

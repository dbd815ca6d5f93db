import TransitModel
import XCTest

/// `--help`'s paragraphs broken to a width by display columns: English at spaces, Japanese also
/// between characters, by the kinsoku rules of JIS X 4051 (no line starts with 、。）or a small kana,
/// none ends with （), Latin words kept whole.
final class LineWrapTests: XCTestCase {
    func testEnglishBreaksAtSpacesOnly() {
        XCTAssertEqual(LineWrap.lines("read the card on a reader and print it", width: 16), ["read the card on", "a reader and", "print it"])
        XCTAssertEqual(LineWrap.lines("--exchange-timeout is long", width: 10), ["--exchange-timeout", "is long"], "a word wider than the width stands alone, whole")
        XCTAssertEqual(LineWrap.lines("short", width: 80), ["short"])
        XCTAssertEqual(LineWrap.lines("one\n\n  two three four", width: 9), ["one", "", "  two", "  three", "  four"], "a line's indent goes on its continuation lines")
    }

    func testJapaneseBreaksBetweenCharactersByWidth() {
        // 残高を表示します。 is 9 wide characters, 18 columns: 10 columns hold 5 of them.
        XCTAssertEqual(LineWrap.lines("残高を表示します。", width: 10), ["残高を表示", "します。"])
        for line in LineWrap.lines("カードリーダーの代わりにカードファイルを読む: transit のカードイメージ（docs/card-image.md）、Flipper Zero の FeliCa ダンプ", width: 30) {
            XCTAssertLessThanOrEqual(DisplayWidth.of(line), 30, line)
        }
    }

    func testKinsoku() {
        // 、 may not start a line: it goes with 高 and the break comes before 高.
        XCTAssertEqual(LineWrap.lines("残高、金額", width: 4), ["残", "高、", "金額"])
        // （ may not end a line: 残高（ would fit 6 columns, but （ goes down with what it opens.
        XCTAssertEqual(LineWrap.lines("残高（金額）", width: 6), ["残高", "（金", "額）"])
        // A small kana and the long vowel mark stay with the kana before them, even past the width.
        XCTAssertEqual(LineWrap.lines("チャージ", width: 2), ["チャー", "ジ"])
        // A Latin word stays whole and with the kanji it touches: 大SECONDS秒 is one piece.
        XCTAssertEqual(LineWrap.lines("最大SECONDS秒", width: 6), ["最", "大SECONDS秒"])
    }
}

/// Text broken into lines of at most so many terminal columns (`DisplayWidth`), as `--help` prints
/// its paragraphs in every language: English breaks at spaces; Japanese, which has none, also
/// between two characters, by the simple rules of Japanese line breaking (JIS X 4051's kinsoku, as
/// UAX #14 gives them): no line starts with a closing bracket, 、。・ー or a small kana, none ends
/// with an opening bracket, and a Latin word or a number stays whole and with the kana or kanji it
/// touches. So a translation is written as one paragraph and fits whatever its words' widths.
public enum LineWrap {
    /// `text`'s lines (each `\n` stays a line break) wrapped to `width` columns; a line's leading
    /// spaces indent its continuation lines too. A word wider than `width` stands alone, whole.
    public static func lines(_ text: String, width: Int) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { wrap(Substring($0), width: width) }
    }

    /// `lines` joined by newlines.
    public static func wrapped(_ text: String, width: Int) -> String {
        lines(text, width: width).joined(separator: "\n")
    }

    private static func wrap(_ line: Substring, width: Int) -> [String] {
        let indent = String(line.prefix { $0 == " " })
        let words = self.words(line.dropFirst(indent.count))
        guard !words.isEmpty else { return [String(line)] }
        var out = [String](), current = indent, used = DisplayWidth.of(indent), empty = true
        for word in words {
            let w = DisplayWidth.of(word.text), gap = DisplayWidth.of(word.gap)
            if !empty, used + gap + w > width {
                out.append(current)
                current = indent; used = DisplayWidth.of(indent); empty = true
            }
            if !empty { current += word.gap; used += gap }
            current += word.text; used += w; empty = false
        }
        out.append(current)
        return out
    }

    /// The pieces a line may break between: each with the spaces before it (none where the break
    /// is between two characters of Japanese text).
    private static func words(_ text: Substring) -> [(gap: String, text: String)] {
        var words = [(gap: String, text: String)](), gap = "", word = "", previous: Character?
        for c in text {
            if c == " " {
                if !word.isEmpty { words.append((gap, word)); word = ""; gap = "" }
                gap.append(c); previous = nil
                continue
            }
            if let p = previous, !word.isEmpty, mayBreak(between: p, and: c) {
                words.append((gap, word)); word = ""; gap = ""
            }
            word.append(c); previous = c
        }
        if !word.isEmpty { words.append((gap, word)) }
        return words
    }

    /// A break without a space: where one side is wide (kana, kanji, fullwidth punctuation), the
    /// next does not refuse to start a line, the previous to end one, and no Latin letter or digit
    /// is parted from the kana or kanji beside it.
    static func mayBreak(between a: Character, and b: Character) -> Bool {
        let wideA = DisplayWidth.of(a) == 2, wideB = DisplayWidth.of(b) == 2
        guard wideA || wideB, !noLineStart.contains(b), !noLineEnd.contains(a) else { return false }
        if isLatin(a) && wideB && !isPunctuation(b) { return false }
        if wideA && !isPunctuation(a) && isLatin(b) { return false }
        return true
    }

    private static func isLatin(_ c: Character) -> Bool { c.isASCII && (c.isLetter || c.isNumber) }

    private static func isPunctuation(_ c: Character) -> Bool { c.isPunctuation || c.isSymbol }

    /// Closing brackets and marks, the prolonged sound mark, iteration marks and small kana
    /// (JIS X 4051 classes 2–7 and 9; UAX #14's CL, CP, EX, IS, NS and CJ).
    private static let noLineStart = Set("、。，．・：；？！）」』】〕〉》｝］〙〗ー々ゝゞヽヾぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶ" + ",.:;!?)]}%…")
    /// Opening brackets (JIS X 4051 class 1; UAX #14's OP).
    private static let noLineEnd = Set("（「『【〔〈《｛［〘〖" + "([{")
}

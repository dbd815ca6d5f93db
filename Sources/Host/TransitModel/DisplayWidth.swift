/// How many terminal columns text takes (UAX #11): a Wide or Fullwidth character two (残高 is 4),
/// an Ambiguous one one (→ ① ○, as terminals draw them by default), a combining mark, variation
/// selector or format control none. Text tables pad by it in every locale, never by `count`, and
/// never by glibc's wcwidth, which depends on LC_CTYPE (-1 for all non-ASCII in the C locale).
public enum DisplayWidth {
    public static func of(_ text: String) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// A grapheme: two columns when its base is wide, or when an emoji selector (U+FE0F) makes it so.
    public static func of(_ c: Character) -> Int {
        guard let base = c.unicodeScalars.first else { return 0 }
        if isWide(base) || (c.unicodeScalars.count > 1 && c.unicodeScalars.contains("\u{FE0F}") && base.properties.isEmoji) { return 2 }
        return c.unicodeScalars.contains { !isZero($0) } ? 1 : 0
    }

    /// `text` followed by spaces up to `width` columns.
    public static func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - of(text)))
    }

    static func isWide(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        guard v >= 0x1100 else { return false }
        var lo = 0, hi = WideScalars.ranges.count - 1
        while lo <= hi {
            let mid = (lo + hi) / 2, r = WideScalars.ranges[mid]
            if v < r.lowerBound { hi = mid - 1 } else if v > r.upperBound { lo = mid + 1 } else { return true }
        }
        return false
    }

    private static func isZero(_ s: Unicode.Scalar) -> Bool {
        switch s.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return true
        default: return (0xFE00 ... 0xFE0F).contains(s.value) || s.value == 0x200B
        }
    }
}

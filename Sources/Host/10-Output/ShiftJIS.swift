import Foundation

/// Text as the Windows programs of Japan write it: Shift_JIS in Microsoft's form (code page 932,
/// Foundation's `.shiftJIS`), which SFCard Viewer, a Windows program, saves. A character the code
/// page cannot carry (an emoji, Hangul, a kanji outside it) becomes `?`, as Windows' own
/// conversion makes it, and is counted so the command can say so; the few characters that JIS and
/// Microsoft map apart (WAVE DASH 〜 and its kin) are first folded to Microsoft's.
package struct ShiftJIS {
    /// Characters replaced by `?` so far.
    package private(set) var replaced = 0
    private var cache = [Character: [UInt8]]()

    /// JIS X 0208 mappings whose code page 932 forms are other characters (the well-known six).
    private static let folds: [Character: Character] = [
        "\u{301C}": "\u{FF5E}", "\u{2016}": "\u{2225}", "\u{2212}": "\u{FF0D}",
        "\u{00A2}": "\u{FFE0}", "\u{00A3}": "\u{FFE1}", "\u{00AC}": "\u{FFE2}",
    ]

    package init() {}

    package mutating func encode(_ text: String) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(text.utf8.count)
        for ch in text {
            // CR LF is one Character, whose asciiValue is LF's alone.
            if ch == "\r\n" { out += [0x0D, 0x0A]; continue }
            if let ascii = ch.asciiValue { out.append(ascii); continue }
            if let known = cache[ch] { out += known; if known == [0x3F] { replaced += 1 }; continue }
            let bytes = String(Self.folds[ch] ?? ch).data(using: .shiftJIS).map { [UInt8]($0) } ?? [0x3F]
            cache[ch] = bytes
            if bytes == [0x3F] { replaced += 1 }
            out += bytes
        }
        return out
    }
}

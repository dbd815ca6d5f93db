import Foundation

/// Text as the Windows programs of Japan write it: Shift_JIS in Microsoft's form (code page 932,
/// Foundation's `.shiftJIS`), which SFCard Viewer, a Windows program, saves. A character the code
/// page cannot carry (an emoji, Hangul, a kanji outside it) becomes `?`, as Windows' own
/// conversion makes it, and is counted so the command can say so; the few characters that JIS and
/// Microsoft map apart (WAVE DASH 〜 and its kin) are first folded to Microsoft's. Encoded a
/// Unicode scalar at a time, as Windows converts: a Character of several scalars (U+0D4E and the
/// comma after it) loses only what the code page lacks, never the comma or quote of a CSV.
package struct ShiftJIS {
    /// Characters replaced by `?` so far.
    package private(set) var replaced = 0
    private var cache = [Unicode.Scalar: [UInt8]]()

    /// JIS X 0208 mappings whose code page 932 forms are other characters (the well-known six).
    private static let folds: [Unicode.Scalar: Unicode.Scalar] = [
        "\u{301C}": "\u{FF5E}", "\u{2016}": "\u{2225}", "\u{2212}": "\u{FF0D}",
        "\u{00A2}": "\u{FFE0}", "\u{00A3}": "\u{FFE1}", "\u{00AC}": "\u{FFE2}",
    ]

    package init() {}

    package mutating func encode(_ text: String) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar.isASCII { out.append(UInt8(scalar.value)); continue }
            if let known = cache[scalar] { out += known; if known == [0x3F] { replaced += 1 }; continue }
            let bytes = String(Self.folds[scalar] ?? scalar).data(using: .shiftJIS).map { [UInt8]($0) } ?? [0x3F]
            cache[scalar] = bytes
            if bytes == [0x3F] { replaced += 1 }
            out += bytes
        }
        return out
    }
}

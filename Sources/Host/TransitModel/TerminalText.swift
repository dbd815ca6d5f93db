/// Text from outside the host — plugin strings, plugin log lines, error messages from plugins,
/// replayed logs or card files, file and reader names — made safe to print on a terminal. Every
/// C0 control (tab and newline too), DEL and C1 control (U+0080–U+009F) becomes a visible escape
/// (`\n`, `\t`, `\r`, `\x1B`, `\x7F`, `\u009B`), so no value can start a line of its own (a forged
/// `Balance:`) or send an escape sequence; so does every invisible format control (Unicode's
/// category Cf: the bidi overrides, embeddings, isolates and marks U+202A–U+202E, U+2066–U+2069,
/// U+200E/U+200F and U+061C, zero-width characters, U+FEFF, the tag characters…) and the line and
/// paragraph separators U+2028/U+2029 (`\u202E`, `\U000E0041`), so no value can reorder or hide
/// what is printed around it. Everything else, backslashes included, is unchanged.
package enum TerminalText {
    /// `text` with what `needsEscape` matches escaped; one pass, the output built once.
    package static func escape(_ text: String) -> String {
        // Printable ASCII, most of what is printed, needs no escape: one look at its bytes.
        guard text.utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F }) else { return text }
        return rewriting(text, where: needsEscape) { scalar, out in
            out.append(0x5C) // a backslash, then n, t, r, or x, u or U and the code in hex
            switch scalar {
            case "\n": out.append(0x6E)
            case "\t": out.append(0x74)
            case "\r": out.append(0x72)
            default:
                let (letter, digits): (UInt8, Int) = scalar.value < 0x80 ? (0x78, 2) : scalar.value <= 0xFFFF ? (0x75, 4) : (0x55, 8)
                out.append(letter)
                appendHex(scalar.value, digits: digits, to: &out)
            }
        }
    }

    /// `text` rebuilt once: each scalar `matches` takes written by `write`, the others as they are;
    /// `text` itself when none matches. The one loop of this file's and JSON's escapes.
    package static func rewriting(_ text: String, where matches: (Unicode.Scalar) -> Bool,
                                  write: (Unicode.Scalar, inout [UInt8]) -> Void) -> String {
        guard text.unicodeScalars.contains(where: matches) else { return text }
        var out = [UInt8]()
        out.reserveCapacity(text.utf8.count + text.utf8.count / 2)
        for scalar in text.unicodeScalars {
            if matches(scalar) { write(scalar, &out) } else { UTF8.encode(scalar) { out.append($0) } }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// What `escape` escapes: a control (`isControl`) or a format control or separator (`isFormatControl`).
    package static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        isControl(scalar) || isFormatControl(scalar)
    }

    /// C0 (U+0000–U+001F), DEL (U+007F) and C1 (U+0080–U+009F).
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F ... 0x9F).contains(scalar.value)
    }

    /// Unicode's format controls (general category Cf: bidi controls, zero-width characters, U+FEFF,
    /// U+FFF9–U+FFFB, tag characters…) and the line and paragraph separators U+2028/U+2029.
    package static func isFormatControl(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.value >= 0xAD else { return false } // U+00AD, the soft hyphen, is the first
        switch scalar.properties.generalCategory {
        case .format, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }

    /// How many characters (Unicode scalars) of a value an error message quotes: `excerpt`.
    package static let excerptLimit = 80

    /// What an error message quotes of a value read from a file or a card: at most `limit` Unicode
    /// scalars of it, then "…" when there was more, so a 4 MB field makes a short line. Not escaped:
    /// the message is escaped where it is printed (`escape`, or the JSON encoder).
    package static func excerpt(_ value: some StringProtocol, limit: Int = excerptLimit) -> String {
        let scalars = value.unicodeScalars
        var end = scalars.startIndex, taken = 0
        while end < scalars.endIndex, taken < limit {
            scalars.formIndex(after: &end)
            taken += 1
        }
        let head = String(String.UnicodeScalarView(scalars[..<end]))
        return end == scalars.endIndex ? head : head + "…"
    }

    /// A decoder's or parser's error about a file's content, said with `excerpt`s only: a
    /// `DecodingError` as its coding path (each key an excerpt) and its description (an excerpt),
    /// any other error's text as an excerpt. For messages such as "FILE is not a transit log: …".
    package static func excerpt(describing error: any Error) -> String {
        let context: DecodingError.Context
        switch error as? DecodingError {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c), .dataCorrupted(let c): context = c
        default: return excerpt("\(error)")
        }
        let path = context.codingPath.map { key in key.intValue.map { "[\($0)]" } ?? "." + excerpt(key.stringValue) }.joined()
        return (path.isEmpty ? "" : "at \(path.dropFirst(path.hasPrefix(".") ? 1 : 0)): ") + excerpt(context.debugDescription)
    }

    /// Appends `value` as `digits` uppercase hexadecimal digits (ASCII).
    package static func appendHex(_ value: UInt32, digits: Int, to out: inout [UInt8]) {
        for shift in stride(from: (digits - 1) * 4, through: 0, by: -4) {
            let nibble = UInt8(value >> UInt32(shift) & 0xF)
            out.append(nibble < 10 ? 0x30 + nibble : 0x37 + nibble)
        }
    }
}

/// Text from outside the host — plugin strings, plugin log lines, error messages from plugins or
/// replayed logs, file and reader names — made safe to print on a terminal: every C0 control (tab
/// and newline too), DEL and every C1 control (U+0080–U+009F) becomes a visible escape (`\n`,
/// `\t`, `\r`, `\x1B`, `\x7F`, `\u009B`), so no value can start a line of its own (a forged
/// `Balance:`) or send an escape sequence. Everything else, backslashes included, is unchanged.
package enum TerminalText {
    package static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard isControl(scalar) else { out.append(scalar); continue }
            switch scalar {
            case "\n": out.append(contentsOf: #"\n"#.unicodeScalars)
            case "\t": out.append(contentsOf: #"\t"#.unicodeScalars)
            case "\r": out.append(contentsOf: #"\r"#.unicodeScalars)
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                let escape = scalar.value < 0x80 ? #"\x"# + String(repeating: "0", count: 2 - hex.count) + hex : #"\u00"# + hex
                out.append(contentsOf: escape.unicodeScalars)
            }
        }
        return String(out)
    }

    /// C0 (U+0000–U+001F), DEL (U+007F) and C1 (U+0080–U+009F).
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F ... 0x9F).contains(scalar.value)
    }
}

/// Text made roff for a manual page (man(7)): `OptionSpec.manual`'s markup, `` `bold` `` and
/// `_italic_`, made font escapes; `-` made `\-` (a minus, which copies as the option's hyphen),
/// `\` made `\e`, a line that would begin with a control character (`.` or `'`) begun with `\&`,
/// and every character outside ASCII made a named glyph (`\(lq`, `\[Ye]`) or `\[uXXXX]`, so the
/// page reads the same in every locale groff runs in.
enum RoffText {
    /// `text` in roff: bold between backquotes; italic from a `_` that begins a word to one that
    /// ends it (`_FILE_`, `_plugins.conf.d/_`), so the `_` inside `$XDG_DATA_HOME` or
    /// `line_name` stays a `_`; lines indented four spaces shown as they are, indented, unfilled.
    static func markup(_ text: String) -> String {
        var parts = [String](), prose = [Substring](), shown = [Substring]()
        func endProse() { if !prose.isEmpty { parts.append(inline(prose.joined(separator: "\n"))); prose = [] } }
        func endShown() {
            if !shown.isEmpty { parts.append(([".RS", ".nf"] + shown.map { plain(String($0.dropFirst(4))) } + [".fi", ".RE"]).joined(separator: "\n")); shown = [] }
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("    ") { endProse(); shown.append(line) } else { endShown(); prose.append(line) }
        }
        endProse(); endShown()
        return parts.filter { !$0.isEmpty }.joined(separator: "\n")
    }

    /// Markup without shown lines.
    private static func inline(_ text: String) -> String {
        let characters = Array(text)
        var out = "", bold = false, italic = false
        for (i, c) in characters.enumerated() {
            let previous = i > 0 ? characters[i - 1] : nil, next = i + 1 < characters.count ? characters[i + 1] : nil
            switch c {
            case "`":
                bold.toggle()
                out += bold ? "\\fB" : "\\fR"
            case "_" where !bold && !italic && !(previous.map(isWordCharacter) ?? false) && next.map({ !$0.isWhitespace }) ?? false:
                italic = true
                out += "\\fI"
            case "_" where italic && previous.map({ !$0.isWhitespace }) ?? false && !(next.map(isWordCharacter) ?? false):
                italic = false
                out += "\\fR"
            default:
                out += escape(c)
            }
        }
        return lines(out)
    }

    /// `text` in roff, with no markup.
    static func plain(_ text: String) -> String { lines(text.map(escape).joined()) }

    /// Bold text (a command, an option) as one roff word.
    static func bold(_ text: String) -> String { "\\fB" + text.map(escape).joined() + "\\fR" }

    /// Italic text (a placeholder) as one roff word.
    static func italic(_ text: String) -> String { "\\fI" + text.map(escape).joined() + "\\fR" }

    private static func isWordCharacter(_ c: Character) -> Bool { c.isLetter || c.isNumber }

    private static func escape(_ c: Character) -> String {
        switch c {
        case "-": return "\\-"
        case "\\": return "\\e"
        case "“": return "\\(lq"
        case "”": return "\\(rq"
        case "‘": return "\\(oq"
        case "’": return "\\(cq"
        case "—": return "\\(em"
        case "–": return "\\(en"
        case "¥": return "\\[Ye]"
        default:
            guard c.isASCII else { return c.unicodeScalars.map { "\\[u" + hex($0.value) + "]" }.joined() }
            return String(c)
        }
    }

    /// groff's `\[uXXXX]`: at least four upper-case hex digits.
    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// Each line that would begin with `.` or `'` (a request) begun with `\&`; blank lines, which
    /// roff reads as a paragraph's end, left out.
    private static func lines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: true)
            .map { $0.hasPrefix(".") || $0.hasPrefix("'") ? "\\&" + $0 : String($0) }
            .joined(separator: "\n")
    }
}

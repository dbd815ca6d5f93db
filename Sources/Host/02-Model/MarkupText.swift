/// Text from outside the host made text in HTML or XML (the report's page, its OFX file): what
/// `TerminalText.escape` escapes shown escaped (`\x1B`; XML 1.0 allows no control), then `&`, `<`,
/// `>`, `"` and `'` as references (`&amp;`, `&lt;`, `&gt;`, `&quot;`, `&#39;`, valid in both).
/// Matched by Unicode scalar, never by Character: a "Prepend" scalar before `<` (U+0D4E) or a
/// combining mark after it (U+0301) makes one Character with it, and markup parsers see the `<`.
package enum MarkupText {
    package static func escape(_ text: String) -> String {
        TerminalText.rewriting(TerminalText.escape(text), where: isMarkup) { scalar, out in
            let reference = switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\"": "&quot;"
            default: "&#39;"
            }
            out.append(contentsOf: reference.utf8)
        }
    }

    private static func isMarkup(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "&" || scalar == "<" || scalar == ">" || scalar == "\"" || scalar == "'"
    }
}

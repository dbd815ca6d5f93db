/// Text from outside the host made text in HTML or XML (the report's page, its OFX file): what
/// `TerminalText.escape` escapes shown escaped (`\x1B`; XML 1.0 allows no control), what XML 1.0
/// forbids besides replaced (`xmlCharacters`), then `&`, `<`, `>`, `"` and `'` as references
/// (`&amp;`, `&lt;`, `&gt;`, `&quot;`, `&#39;`, valid in both).
/// Matched by Unicode scalar, never by Character: a "Prepend" scalar before `<` (U+0D4E) or a
/// combining mark after it (U+0301) makes one Character with it, and markup parsers see the `<`.
package enum MarkupText {
    /// `quotes: false` leaves `"` and `'` as they are (element content needs no reference for
    /// them, and OFX readers such as ofxtools unescape only `&amp;`, `&lt;`, `&gt;`, `&quot;`,
    /// `&apos;` and `&nbsp;`: a `&#39;` would reach the importer as five characters).
    package static func escape(_ text: String, quotes: Bool = true) -> String {
        let markup: (Unicode.Scalar) -> Bool = quotes ? { isMarkup($0) } : { $0 == "&" || $0 == "<" || $0 == ">" }
        return TerminalText.rewriting(xmlCharacters(TerminalText.escape(text)), where: markup) { scalar, out in
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

    /// `text` with every scalar outside XML 1.0's `Char` production (§2.2: #x9 | #xA | #xD |
    /// [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]; U+FFFE and U+FFFF are outside it, a
    /// surrogate never reaches a Swift String) and every other Unicode noncharacter (U+FDD0–U+FDEF,
    /// U+nFFFE/U+nFFFF, which §2.2 asks documents to avoid) made U+FFFD, the replacement character:
    /// expat and libxml2 refuse a whole document for one of them. One scalar for one: a length
    /// counted before is the same after.
    package static func xmlCharacters(_ text: String) -> String {
        TerminalText.rewriting(text, where: isOutsideXML) { _, out in UTF8.encode("\u{FFFD}") { out.append($0) } }
    }

    private static func isOutsideXML(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        guard v >= 0x20 else { return v != 0x9 && v != 0xA && v != 0xD }
        return (0xFDD0 ... 0xFDEF).contains(v) || v & 0xFFFE == 0xFFFE
    }

    private static func isMarkup(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "&" || scalar == "<" || scalar == ">" || scalar == "\"" || scalar == "'"
    }
}

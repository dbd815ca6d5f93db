import Foundation

/// `--json` output: one object per command on stdout, keys sorted for stable diffs.
package enum JSONOutput {
    package static func encode<T: Encodable>(_ value: T, with encoder: JSONEncoder = makeEncoder()) -> String {
        guard let data = try? encoder.encode(value) else { return "{}" }
        return escapingUnsafeScalars(String(decoding: data, as: UTF8.self))
    }

    /// The encoder of `--json`: sorted keys, slashes as they are. One serves many values of one listing.
    package static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// The encoder escapes C0 controls but leaves DEL, C1 (U+0080–U+009F), the format controls and
    /// the line and paragraph separators raw (`TerminalText.needsEscape`), which a terminal may act on
    /// or a bidi algorithm obey: they are escaped here (`\u007F`, `\u009B`, `\u202E`; a tag
    /// character as its surrogate pair, `\uDB40\uDC41`). They can only stand inside strings, so the
    /// JSON stays valid and decodes to the same text. C0 is left as it is: the encoder has escaped it
    /// inside strings, and outside them it can only be whitespace. One pass, the output built once.
    package static func escapingUnsafeScalars(_ json: String) -> String {
        // Only scalars from U+007F on are looked at: ASCII JSON is taken as it is, by its bytes.
        guard json.utf8.contains(where: { $0 >= 0x7F }) else { return json }
        return TerminalText.rewriting(json, where: { $0.value >= 0x7F && TerminalText.needsEscape($0) }) { scalar, out in
            let v = scalar.value
            if v > 0xFFFF { // a surrogate pair
                out.append(0x5C); out.append(0x75) // \u
                TerminalText.appendHex(0xD800 + (v - 0x10000) >> 10, digits: 4, to: &out)
            }
            out.append(0x5C); out.append(0x75)
            TerminalText.appendHex(v > 0xFFFF ? 0xDC00 + (v - 0x10000) & 0x3FF : v, digits: 4, to: &out)
        }
    }

    /// `{"error": {"kind", "message", "plugin"?, "pcscCode"?}}`.
    package static func error(_ e: TransitError) -> String {
        struct Wrapper: Encodable { let error: ErrorJSON }
        return encode(Wrapper(error: ErrorJSON(e)))
    }
}

/// An error as `--json` prints it: its documented kind (`TransitError.Kind.reported`), the message,
/// the plugin that was reading and the PC/SC code (`0x80100069`) when there is one.
package struct ErrorJSON: Encodable, Equatable {
    package let kind: String
    package let message: String
    package let plugin: String?
    package let pcscCode: String?

    package init(_ e: TransitError) {
        kind = e.kind.reported; message = e.message; plugin = e.plugin
        pcscCode = e.pcscCode.map { "0x" + String($0, radix: 16, uppercase: true) }
    }
}

import Foundation

/// `--json` output: one object per command on stdout, keys sorted for stable diffs.
package enum JSONOutput {
    package static func encode<T: Encodable>(_ value: T, with encoder: JSONEncoder = makeEncoder()) -> String {
        guard let data = try? encoder.encode(value) else { return "{}" }
        return escapingDELAndC1(String(decoding: data, as: UTF8.self))
    }

    /// The encoder of `--json`: sorted keys, slashes as they are. One serves many values of one listing.
    package static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// The encoder escapes C0 controls but leaves DEL and C1 (U+0080–U+009F) raw, which a terminal
    /// may act on: they are escaped here (`\u007F`, `\u009B`). They can only stand inside strings, so the JSON
    /// stays valid and decodes to the same text.
    package static func escapingDELAndC1(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: TerminalText.isControl) else { return json }
        var out = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            if TerminalText.isControl(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
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

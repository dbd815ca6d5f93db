import Foundation

/// `--json` output: one object per command on stdout, keys sorted for stable diffs.
enum JSONOutput {
    static func encode<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "{}" }
        return escapingDELAndC1(String(decoding: data, as: UTF8.self))
    }

    /// The encoder escapes C0 controls but leaves DEL and C1 (U+0080–U+009F) raw, which a terminal
    /// may act on: they are escaped here (`\u007F`, `\u009B`). They can only stand inside strings, so the JSON
    /// stays valid and decodes to the same text.
    static func escapingDELAndC1(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: TerminalText.isControl) else { return json }
        var out = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            if TerminalText.isControl(scalar) {
                out.append(contentsOf: "\\u00\(String(scalar.value, radix: 16, uppercase: true))".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// `{"error": {"kind", "message", "plugin"?}}`.
    static func error(_ e: TransitError) -> String {
        struct Body: Encodable { let kind: String; let message: String; let plugin: String? }
        struct Wrapper: Encodable { let error: Body }
        return encode(Wrapper(error: Body(kind: e.kind.reported, message: e.message, plugin: e.plugin)))
    }
}

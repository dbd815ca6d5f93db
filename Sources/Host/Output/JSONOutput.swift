import Foundation

/// `--json` output: one object per command on stdout, keys sorted for stable diffs.
enum JSONOutput {
    static func encode<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// `{"error": {"kind", "message", "plugin"?}}`.
    static func error(_ e: TransitError) -> String {
        struct Body: Encodable { let kind: String; let message: String; let plugin: String? }
        struct Wrapper: Encodable { let error: Body }
        return encode(Wrapper(error: Body(kind: e.kind.reported, message: e.message, plugin: e.plugin)))
    }
}

import ReaderABI
import TransitModel

/// Checks a plugins.conf line's `key=value` options against what the plugin declares it takes.
package enum PluginOptions {
    /// Nil when every option is declared and its value has the declared type, else why not.
    package static func problem(_ options: [String: String], declared: [String: UInt32]) -> L10n.Words? {
        let takes = declared.isEmpty ? L10n.words("it takes none") : L10n.words("it takes: %1$s", .init(declared.keys.sorted().joined(separator: ", ")))
        for (key, value) in options.sorted(by: { $0.key < $1.key }) {
            guard let type = declared[key] else { return L10n.words("unknown option %1$s (%2$s)", .init(key), takes) }
            switch type {
            case TRANSIT_OPTION_INTEGER:
                let digits = value.hasPrefix("-") || value.hasPrefix("+") ? value.dropFirst() : value[...]
                guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                    return L10n.words("option %1$s takes a whole number, not \"%2$s\"", .init(key), .init(value))
                }
            case TRANSIT_OPTION_BOOLEAN:
                guard value == "true" || value == "false" else { return L10n.words("option %1$s takes true or false, not \"%2$s\"", .init(key), .init(value)) }
            case TRANSIT_OPTION_TEXT:
                break
            default:
                return L10n.words("option %1$s has a value type this transit does not know (%2$s); the plugin needs a newer transit", .init(key), .init(String(type)))
            }
        }
        return nil
    }
}

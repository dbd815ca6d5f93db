import ReaderABI

/// Checks a plugins.conf line's `key=value` options against what the plugin declares it takes.
package enum PluginOptions {
    /// Nil when every option is declared and its value has the declared type, else why not.
    package static func problem(_ options: [String: String], declared: [String: UInt32]) -> String? {
        let takes = declared.isEmpty ? "it takes none" : "it takes: " + declared.keys.sorted().joined(separator: ", ")
        for (key, value) in options.sorted(by: { $0.key < $1.key }) {
            guard let type = declared[key] else { return "unknown option \(key) (\(takes))" }
            switch type {
            case TRANSIT_OPTION_INTEGER:
                let digits = value.hasPrefix("-") || value.hasPrefix("+") ? value.dropFirst() : value[...]
                guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                    return "option \(key) takes a whole number, not \"\(value)\""
                }
            case TRANSIT_OPTION_BOOLEAN:
                guard value == "true" || value == "false" else { return "option \(key) takes true or false, not \"\(value)\"" }
            case TRANSIT_OPTION_TEXT:
                break
            default:
                return "option \(key) has a value type this transit does not know (\(type)); the plugin needs a newer transit"
            }
        }
        return nil
    }
}

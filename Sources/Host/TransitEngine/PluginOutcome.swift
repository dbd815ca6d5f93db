import TransitModel

/// What one plugin of a probe said, in probe order: the log bundle and `--verbose` list them.
package struct PluginOutcome: Codable, Equatable, Sendable {
    /// How the plugin's turn ended.
    package enum Verdict: Equatable, Sendable {
        case read, notThisCard
        /// Not run: the card has none of the plugin's systems.
        case skipped
        /// The read ended with this error (its kind as reported).
        case failed(TransitError.Kind)
    }

    package var name: String
    package var outcome: Verdict
    /// What the plugin's turn logged (the plugin's own lines, a best-effort exchange the reader
    /// failed, the host's transport lines); absent when nothing.
    package var log: [String]?

    package init(name: String, outcome: Verdict, log: [String] = []) {
        self.name = name; self.outcome = outcome; self.log = log.isEmpty ? nil : log
    }
}

/// Written as one word, as logs have always held it: read, notThisCard, skipped, or the error kind.
extension PluginOutcome.Verdict: Codable {
    package var word: String {
        switch self {
        case .read: return "read"
        case .notThisCard: return "notThisCard"
        case .skipped: return "skipped"
        case .failed(let kind): return kind.reported
        }
    }

    /// `--verbose`'s words for it.
    package var phrase: String {
        switch self {
        case .notThisCard: return "not this card"
        case .skipped: return "skipped (the card has none of its systems)"
        default: return word
        }
    }

    package init(from decoder: Decoder) throws {
        let word = try decoder.singleValueContainer().decode(String.self)
        switch word {
        case "read": self = .read
        case "notThisCard": self = .notThisCard
        case "skipped": self = .skipped
        default: self = .failed(TransitError.Kind(rawValue: word) ?? .internal)
        }
    }

    package func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(word)
    }
}

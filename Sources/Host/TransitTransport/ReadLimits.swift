import TransitModel
/// How long a read may take, and how many exchanges its plugins may ask: set by the command line
/// (`--exchange-timeout`, `--read-timeout`), obeyed by the transport, the engine and each plugin's call.
package struct ReadLimits: Codable, Equatable {
    /// Seconds one exchange with the reader may take.
    package var exchangeTimeout: Double = 5
    /// Seconds the whole read may take, all plugins together; also each plugin's own budget.
    package var readTimeout: Double = 20
    /// Exchanges one plugin may ask.
    package var maxExchanges = 1000

    package init() {}

    /// "5 s", "0.5 s": a time limit as messages say it.
    package static func seconds(_ s: Double) -> String { secondsWords(s).english }

    /// `seconds` in English and in the chosen language.
    package static func secondsWords(_ s: Double) -> L10n.Words {
        // TRANSLATORS: a duration in seconds ("5 s").
        L10n.words("%1$s s", .init(s == s.rounded() ? "\(Int(s))" : "\(s)"))
    }
}

import TransitModel

/// What every read of damaged radio answers must hold, whatever the bytes (issues 45 and 48): the
/// properties a fuzz test asserts, each one a mutated read can break.
public enum ReadProperty {
    /// The error kinds a card's answers can cause: not this family, a refusal, a malformed answer,
    /// or the radio. Never `internal` (a bug in transit) or `plugin` (a plugin that broke its
    /// contract or trapped), and nothing about readers, files or usage.
    public static let cardCaused: Set<TransitError.Kind> = [.tagNotSupported, .cardRefused, .malformedResponse, .communication]

    /// The ways `outcome` breaks the properties, in words; empty when it holds them all:
    /// - a reading or an error, never both nor neither;
    /// - an error of a kind the card can cause (`cardCaused`);
    /// - a balance within what the reading's purse can hold (`purse`: the width and sign of the
    ///   family's balance field in its public layout, after the family's rule), or none when `purse`
    ///   gives nil; a balance outside is a decoder that lost a sign, a mask or a width;
    /// - every date in 1980-2100 (`DateWindow`);
    /// - at most `exchanges` exchanges with the reader.
    public static func broken(_ outcome: PluginRead.Outcome, purse: (CardReading) -> ClosedRange<Int64>?, exchanges: Int) -> [String] {
        var out = [String]()
        if (outcome.reading == nil) == (outcome.error == nil) {
            out.append("reading \(outcome.reading == nil ? "absent" : "present") and error \(outcome.error == nil ? "absent" : "present")")
        }
        if let error = outcome.error, !cardCaused.contains(error.kind) {
            out.append("an error the card cannot cause: \(error.kind): \(error.message)")
        }
        if let reading = outcome.reading {
            switch (reading.balance, purse(reading)) {
            case (nil, _): break
            case (let balance?, nil): out.append("a \(reading.family) reading with a balance (\(balance)) its card does not hold")
            case (let balance?, let range?) where !range.contains(balance): out.append("\(reading.family) balance \(balance) outside \(range)")
            default: break
            }
        }
        let dates = DateWindow.outside(outcome.reading)
        if !dates.isEmpty { out.append("dates outside 1980-2100: \(dates)") }
        if outcome.exchanges > exchanges { out.append("\(outcome.exchanges) exchanges, more than \(exchanges)") }
        return out
    }
}

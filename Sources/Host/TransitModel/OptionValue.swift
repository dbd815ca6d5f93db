/// The type of value a command-line option takes, each read by one parser (`parse`): `transit`
/// and `transit-sim` refuse the same bad value with the same words, a usage error (exit 2).
public enum OptionValue: Equatable, Sendable {
    /// Any text: a reader's name, a nickname.
    case text
    /// A file's path (the completions offer files).
    case file
    /// A command for /bin/sh (the completions offer commands).
    case command
    /// A number of seconds (`--wait`), above 0 when `positive` (the timeouts).
    case seconds(positive: Bool)
    /// An amount in the card's minor units (`--below 1000`: ¥1,000).
    case amount
    /// The card of a file that holds several, 1 the first (`--index`).
    case index
    /// A whole number of at least 0 (`--latency-ms`, `--remove-after`).
    case count
    /// A TCP port, 1–65535.
    case port
    /// `YYYY-MM` or `last` (`report --month`).
    case month
    /// `YYYY-MM-DD`, a day that exists.
    case day
    /// One of `words`; `what` names it in the message ("dialect", "reader model").
    /// `what` is marked for the catalog (`L10n.mark`) where the option is declared.
    case choice([String], what: String)

    /// `--month`'s value: a month, or the previous calendar month.
    public enum Month: Equatable, Sendable {
        case month(ReportPeriod), last
    }

    /// Checks `text` as a value of `--option`; the parsed value, or a usage error that says what
    /// the option takes.
    @discardableResult
    public func parse(_ text: String, option: String) throws -> Any {
        let name = "--\(option)"
        switch self {
        case .text, .file, .command:
            return text
        case .seconds(let positive):
            guard let s = Double(text), s.isFinite, positive ? s > 0 : s >= 0 else {
                throw TransitError(.usage, positive ? L10n.words("%1$s takes a number of seconds above 0, not \"%2$s\"", .init(name), .init(text))
                                    : L10n.words("%1$s takes a number of seconds, not \"%2$s\"", .init(name), .init(text)))
            }
            return s
        case .amount:
            guard let amount = Int64(text) else {
                throw TransitError(.usage, L10n.words("%1$s takes an amount in the card's minor units (1000 for ¥1,000, 500 for S$5.00), not \"%2$s\"",
                                                  .init(name), .init(text)))
            }
            return amount
        case .index:
            guard let n = Int(text), n >= 1 else { throw TransitError(.usage, L10n.words("%1$s takes a card's number in the file, 1 or more, not \"%2$s\"", .init(name), .init(text))) }
            return n
        case .count:
            guard let n = Int(text), n >= 0 else { throw TransitError(.usage, L10n.words("%1$s takes a whole number, 0 or more, not \"%2$s\"", .init(name), .init(text))) }
            return n
        case .port:
            guard let port = UInt16(text), port > 0 else { throw TransitError(.usage, L10n.words("%1$s takes a TCP port, 1 to 65535, not \"%2$s\"", .init(name), .init(text))) }
            return port
        case .month:
            if text == "last" { return Month.last }
            guard let period = ReportPeriod(month: text) else {
                throw TransitError(.usage, L10n.words("%1$s takes a month that exists, YYYY-MM (2026-11), or last, not \"%2$s\"", .init(name), .init(text)))
            }
            return Month.month(period)
        case .day:
            guard let day = CalendarDay(text) else { throw TransitError(.usage, L10n.words("%1$s takes a date that exists, YYYY-MM-DD, not \"%2$s\"", .init(name), .init(text))) }
            return day
        case .choice(let words, let what):
            guard words.contains(text) else {
                // TRANSLATORS: %1$s is what the option chooses ("dialect", "export format", "report format").
                throw TransitError(.usage, L10n.words("unknown %1$s %2$s: %3$s must be one of %4$s", L10n.Words(english: what, said: L10n.translated(what)),
                                                      .init(text), .init(name),
                                                      .init(words.joined(separator: ", "))))
            }
            return text
        }
    }
}

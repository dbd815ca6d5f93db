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
                throw TransitError(.usage, "\(name) takes a number of seconds\(positive ? " above 0" : ""), not \"\(text)\"")
            }
            return s
        case .amount:
            guard let amount = Int64(text) else {
                throw TransitError(.usage, "\(name) takes an amount in the card's minor units (1000 for ¥1,000, 500 for S$5.00), not \"\(text)\"")
            }
            return amount
        case .index:
            guard let n = Int(text), n >= 1 else { throw TransitError(.usage, "\(name) takes a card's number in the file, 1 or more, not \"\(text)\"") }
            return n
        case .count:
            guard let n = Int(text), n >= 0 else { throw TransitError(.usage, "\(name) takes a whole number, 0 or more, not \"\(text)\"") }
            return n
        case .port:
            guard let port = UInt16(text), port > 0 else { throw TransitError(.usage, "\(name) takes a TCP port, 1 to 65535, not \"\(text)\"") }
            return port
        case .month:
            if text == "last" { return Month.last }
            guard let period = ReportPeriod(month: text) else {
                throw TransitError(.usage, "\(name) takes a month that exists, YYYY-MM (2026-11), or last, not \"\(text)\"")
            }
            return Month.month(period)
        case .day:
            guard let day = CalendarDay(text) else { throw TransitError(.usage, "\(name) takes a date that exists, YYYY-MM-DD, not \"\(text)\"") }
            return day
        case .choice(let words, let what):
            guard words.contains(text) else {
                throw TransitError(.usage, "unknown \(what) \(text): \(name) must be one of \(words.joined(separator: ", "))")
            }
            return text
        }
    }
}

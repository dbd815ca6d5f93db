import TransitModel

/// Test values written as the ABI and `--json` write them ("2026-11-05", "2026-11-05T07:30:00+09:00");
/// text that is not a real date stops the test at once.
public func day(_ text: String) -> CalendarDay {
    guard let day = CalendarDay(text) else { preconditionFailure("not a YYYY-MM-DD day: \(text)") }
    return day
}

public func date(_ text: String) -> CardDate {
    guard let date = CardDate(text) else { preconditionFailure("not a card date: \(text)") }
    return date
}

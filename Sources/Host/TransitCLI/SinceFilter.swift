import TransitModel

/// `--since DAY` over a timeline, oldest first: from the first record dated on or after the day;
/// undated records after it stay, dated ones before the day go. Fed one record at a time, as a
/// listing written as it is read feeds it, or an array's records in turn.
struct SinceFilter {
    private let since: CalendarDay?
    private var begun = false

    init(_ since: CalendarDay?) { self.since = since }

    mutating func keeps(_ t: CardReading.TransactionRecord) -> Bool {
        guard let since else { return true }
        let day = t.date?.day
        guard begun else {
            guard let day, day >= since else { return false }
            begun = true
            return true
        }
        return day.map { $0 >= since } ?? true
    }
}

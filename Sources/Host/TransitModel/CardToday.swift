import Foundation

extension CardReading {
    /// The card's zone in minutes east of UTC: that of its newest record or pass that holds a time
    /// of day; nil when none does (the machine's zone then stands in).
    public var utcOffsetMinutes: Int? {
        let dates = transactions.compactMap(\.date) + passes.flatMap { [$0.validFrom, $0.validUntil].compactMap { $0 } }
        return dates.compactMap(\.clock).first?.utcOffsetMinutes
    }

    /// Today in the card's zone (`utcOffsetMinutes`), the day a pass's expiry is told against.
    public func today(now: Date = Date()) -> CalendarDay? {
        let offset = utcOffsetMinutes.map { $0 * 60 } ?? TimeZone.current.secondsFromGMT(for: now)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: offset) ?? .current
        let c = calendar.dateComponents([.year, .month, .day], from: now)
        guard let year = c.year, let month = c.month, let day = c.day else { return nil }
        return CalendarDay(year: year, month: month, day: day)
    }
}

import CardProtocol

/// The days a report covers, both ends included: a month (`--month 2026-11`) or a range
/// (`--from 2026-10-15 --to 2026-11-14`). Records are kept by their day in the card's own zone,
/// as the card dated them (`CardDate.day`), so a Singapore trip at 00:20 on 1 November is
/// November's wherever the report is made.
public struct ReportPeriod: Equatable, Sendable {
    public let from: CalendarDay
    public let to: CalendarDay

    /// Nil when `from` is after `to`.
    public init?(from: CalendarDay, to: CalendarDay) {
        guard from <= to else { return nil }
        self.from = from; self.to = to
    }

    /// The whole month; nil for a month that does not exist (`2026-13`).
    public init?(year: Int, month: Int) {
        guard let first = CalendarDay(year: year, month: month, day: 1),
              let last = CalendarDay(year: year, month: month, day: Gregorian.daysIn(month: month, year: year)) else { return nil }
        self.init(from: first, to: last)
    }

    /// The calendar month `back` months before the one an instant falls in (`seconds` since
    /// 1970-01-01 UTC) where the clock is `zone` minutes east of UTC: `--month last` is `back: 1`
    /// in the card's zone. Nil outside years 0001–9999.
    public init?(monthOf seconds: Int64, zone: Int, back: Int = 0) {
        let local = seconds + Int64(zone) * 60
        let days = Int((local - ((local % 86_400) + 86_400) % 86_400) / 86_400)
        let c = Gregorian.civil(fromDays: days)
        let index = c.year * 12 + c.month - 1 - back
        self.init(year: index / 12, month: index % 12 + 1)
    }

    /// `YYYY-MM` exactly; nil for any other text or a month that does not exist.
    public init?(month text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 7, bytes[4] == 0x2D, bytes.enumerated().allSatisfy({ $0.offset == 4 || (0x30 ... 0x39).contains($0.element) }),
              let year = Int(text.prefix(4)), let month = Int(text.suffix(2)) else { return nil }
        self.init(year: year, month: month)
    }

    public func contains(_ day: CalendarDay) -> Bool { from <= day && day <= to }

    /// How many days it spans.
    public var dayCount: Int { to.daysSinceEpoch - from.daysSinceEpoch + 1 }

    /// How many months it touches (2026-10-31 to 2026-11-01: two).
    public var monthCount: Int { (to.year - from.year) * 12 + to.month - from.month + 1 }
}

extension CalendarDay {
    /// Days since 1970-01-01.
    public var daysSinceEpoch: Int { Gregorian.daysFromUnixEpoch(year: year, month: month, day: day) }

    /// The day `n` days later (earlier when negative); nil outside years 0001–9999.
    public func adding(days n: Int) -> CalendarDay? {
        let c = Gregorian.civil(fromDays: daysSinceEpoch + n)
        return CalendarDay(year: c.year, month: c.month, day: c.day)
    }
}

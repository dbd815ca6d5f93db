import CardProtocol

/// A date, and optionally a time of day, on a card's own clock in a fixed UTC offset
/// (cards keep local time: Japan and Korea +09:00, Singapore and China +08:00).
public struct CivilTime: Equatable, Sendable {
    public let year: Int, month: Int, day: Int
    /// Time of day, or nil when the card holds only a date.
    public let time: (hour: Int, minute: Int, second: Int)?
    /// The zone's offset from UTC in seconds.
    public let utcOffset: Int

    /// A validated date (and time): nil when any field is out of range.
    public init?(year: Int, month: Int, day: Int, hour: Int? = nil, minute: Int = 0, second: Int = 0,
                 utcOffset: Int) {
        guard Gregorian.isDay(year: year, month: month, day: day) else { return nil }
        if let hour {
            guard (0 ... 23).contains(hour), (0 ... 59).contains(minute), (0 ... 59).contains(second) else { return nil }
            time = (hour, minute, second)
        } else {
            time = nil
        }
        self.year = year; self.month = month; self.day = day; self.utcOffset = utcOffset
    }

    /// The civil time `seconds` after an epoch given as a civil date at midnight in the same zone.
    public init?(seconds: Int64, sinceYear epochYear: Int, month epochMonth: Int, day epochDay: Int,
                 utcOffset: Int) {
        let days = Gregorian.daysFromUnixEpoch(year: epochYear, month: epochMonth, day: epochDay)
        let total = Int64(days) * 86_400 + seconds
        let (dayNumber, secondOfDay) = (Int(total.floorDiv(86_400)), Int(total - total.floorDiv(86_400) * 86_400))
        let (y, m, d) = Gregorian.civil(fromDays: dayNumber)
        self.init(year: y, month: m, day: d, hour: secondOfDay / 3600, minute: secondOfDay % 3600 / 60,
                  second: secondOfDay % 60, utcOffset: utcOffset)
    }

    /// `YYYY-MM-DD`, or `YYYY-MM-DDTHH:MM:SS±HH:MM` when the time is known.
    public var iso8601: String {
        let date = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
        guard let time else { return date }
        let sign = utcOffset < 0 ? "-" : "+"
        let off = abs(utcOffset)
        return "\(date)T\(pad(time.hour, 2)):\(pad(time.minute, 2)):\(pad(time.second, 2))"
            + "\(sign)\(pad(off / 3600, 2)):\(pad(off % 3600 / 60, 2))"
    }

    public static func == (a: CivilTime, b: CivilTime) -> Bool { a.iso8601 == b.iso8601 }

    public static func daysIn(month: Int, year: Int) -> Int { Gregorian.daysIn(month: month, year: year) }

    private func pad(_ v: Int, _ width: Int) -> String {
        let s = String(v)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }
}

extension Int64 {
    func floorDiv(_ d: Int64) -> Int64 {
        let q = self / d
        return (self % d != 0 && (self < 0) != (d < 0)) ? q - 1 : q
    }
}

extension CivilTime {
    /// The same day without its time of day.
    public var dateOnly: CivilTime? { CivilTime(year: year, month: month, day: day, utcOffset: utcOffset) }

    /// The years a transit card's date can hold: no family here ran before 1980 (the oldest, Octopus,
    /// 1997; the oldest epoch, Clipper's 1900, is only a counter's zero), none is dated past 2100.
    public static let plausibleYears = 1980 ... 2100

    /// This date, or nil ("no date") outside `plausibleYears`: one rule for every family (issue 45),
    /// applied as a result leaves the plugin, so a counter of zero (1900, 1970) or an absurd year
    /// (a validity year of 6017) is never shown as a date.
    public var plausible: CivilTime? { Self.plausibleYears.contains(year) ? self : nil }
}

/// UTC offsets of the zones cards keep their clocks in (none of them has summer time).
public enum Zone {
    /// Japan Standard Time.
    public static let japan = 9 * 3600
    /// Korea Standard Time.
    public static let korea = 9 * 3600
    /// Singapore Time.
    public static let singapore = 8 * 3600
    /// China Standard Time.
    public static let china = 8 * 3600
}

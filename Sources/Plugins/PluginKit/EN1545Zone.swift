import CardProtocol

/// A European zone with the EU's summer-time rule, for cards that keep local wall-clock time
/// (EN 1545 times are minutes since local midnight). Directive 2000/84/EC: summer time runs from
/// 01:00 UTC on the last Sunday of March to 01:00 UTC on the last Sunday of October.
public struct EuropeanZone: Sendable {
    /// The zone's name (for logs and tests).
    public let name: String
    /// Winter-time offset from UTC in seconds.
    public let standardOffset: Int

    /// Europe/Paris: CET (+01:00), CEST (+02:00) in summer.
    public static let paris = EuropeanZone(name: "Europe/Paris", standardOffset: 3600)
    /// Europe/Brussels: CET (+01:00), CEST (+02:00) in summer.
    public static let brussels = EuropeanZone(name: "Europe/Brussels", standardOffset: 3600)

    /// The UTC offset of a local wall-clock time. The hour the clocks skip in March (02:00–02:59 CET)
    /// takes the winter offset; the hour they repeat in October (02:00–02:59) the summer one, its
    /// first occurrence (a card cannot tell which).
    public func offset(year: Int, month: Int, day: Int, minuteOfDay: Int) -> Int {
        let local = Gregorian.daysFromUnixEpoch(year: year, month: month, day: day) * 1440 + minuteOfDay
        // 01:00 UTC is 03:00 local summer time on both change days: summer time starts at 03:00 local
        // (after the skipped hour) and ends at 03:00 local summer time.
        let shift = 60 + standardOffset / 60 + 60 // 01:00 UTC in local summer time, in minutes
        let start = Self.lastSunday(year: year, month: 3) * 1440 + shift
        let end = Self.lastSunday(year: year, month: 10) * 1440 + shift
        return local >= start && local < end ? standardOffset + 3600 : standardOffset
    }

    /// A local date and time (minutes since midnight; nil for a date only) with this zone's offset.
    public func civilTime(year: Int, month: Int, day: Int, minuteOfDay: Int?) -> CivilTime? {
        guard let minute = minuteOfDay else { return CivilTime(year: year, month: month, day: day, utcOffset: standardOffset) }
        guard (0 ..< 1440).contains(minute) else { return nil }
        return CivilTime(year: year, month: month, day: day, hour: minute / 60, minute: minute % 60,
                         utcOffset: offset(year: year, month: month, day: day, minuteOfDay: minute))
    }

    /// An EN 1545 date (days since 1997-01-01) and time (minutes since local midnight) in this zone.
    public func civilTime(en1545Date days: UInt64, minutes: UInt64?) -> CivilTime? {
        let d = EN1545.civilDay(days)
        return civilTime(year: d.year, month: d.month, day: d.day, minuteOfDay: minutes.map { Int(clamping: $0) })
    }

    /// Days since 1970-01-01 of the month's last Sunday (1970-01-01 was a Thursday).
    static func lastSunday(year: Int, month: Int) -> Int {
        let last = Gregorian.daysFromUnixEpoch(year: year, month: month, day: Gregorian.daysIn(month: month, year: year))
        let weekday = ((last + 4) % 7 + 7) % 7 // 0 = Sunday
        return last - weekday
    }
}

import CardProtocol

/// Local wall-clock times in a zone with summer time, as EN 1545 cards keep them (Calypso, HSL:
/// times are minutes since local midnight), and the European zones of the Calypso networks.
extension SummerTimeZone {
    /// A zone under the EU's rule (Directive 2000/84/EC): summer time from the last Sunday of March
    /// to the last Sunday of October, both at 01:00 UTC, one hour ahead of `standardOffset`.
    public static func europeanUnion(standardOffset: Int) -> SummerTimeZone {
        SummerTimeZone(standardOffset: standardOffset, summerOffset: standardOffset + 3600,
                       start: .init(month: 3, sunday: -1, utcSecondsAfterMidnight: 3600),
                       end: .init(month: 10, sunday: -1, utcSecondsAfterMidnight: 3600))
    }

    /// Europe/Paris: CET (+01:00), CEST (+02:00) in summer.
    public static let paris = europeanUnion(standardOffset: 3600)
    /// Europe/Brussels: CET (+01:00), CEST (+02:00) in summer.
    public static let brussels = europeanUnion(standardOffset: 3600)

    /// A local date and time (minutes since midnight; nil for a date only) with this zone's offset
    /// then. The hour the clocks skip takes the winter offset; the hour they repeat the summer one,
    /// its first occurrence (a card cannot tell which).
    public func civilTime(year: Int, month: Int, day: Int, minuteOfDay: Int?) -> CivilTime? {
        guard let minute = minuteOfDay else { return CivilTime(year: year, month: month, day: day, utcOffset: standardOffset) }
        guard (0 ..< 1440).contains(minute), Gregorian.isDay(year: year, month: month, day: day) else { return nil }
        return civilTime(localSeconds: Self.localSeconds(year: year, month: month, day: day, minutes: minute))
    }

    /// An EN 1545 date (days since 1997-01-01) and time (minutes since local midnight) in this zone;
    /// nil for day 0, a date never written (Metrodroid's En1545FixedInteger.parseDate: 0 is null).
    public func civilTime(en1545Date days: UInt64, minutes: UInt64?) -> CivilTime? {
        guard days != 0 else { return nil }
        let d = EN1545.civilDay(days)
        return civilTime(year: d.year, month: d.month, day: d.day, minuteOfDay: minutes.map { Int(clamping: $0) })
    }
}

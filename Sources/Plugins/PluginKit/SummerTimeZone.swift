import CardProtocol

/// A zone with summer time, for cards that keep UTC instants (Clipper, ORCA) or local time (Opal,
/// HSL) where the zone changes its offset: PluginKit has no Foundation and no tz database, so each
/// rule is written out from the law that sets it. A transition is the nth Sunday (−1: the last) of
/// a month, at a number of seconds after that Sunday's 00:00 UTC.
public struct SummerTimeZone: Sendable {
    public struct Transition: Sendable {
        public let month: Int, sunday: Int, utcSecondsAfterMidnight: Int
        public init(month: Int, sunday: Int, utcSecondsAfterMidnight: Int) {
            self.month = month; self.sunday = sunday; self.utcSecondsAfterMidnight = utcSecondsAfterMidnight
        }
    }

    public init(standardOffset: Int, summerOffset: Int, start: Transition, end: Transition) {
        self.standardOffset = standardOffset; self.summerOffset = summerOffset; self.start = start; self.end = end
    }
    public let standardOffset: Int
    public let summerOffset: Int
    public let start: Transition
    public let end: Transition

    /// America/Los_Angeles since 2007 (US Energy Policy Act of 2005): PST −8, PDT −7 from the second
    /// Sunday of March 02:00 PST (10:00 UTC) to the first Sunday of November 02:00 PDT (09:00 UTC).
    public static let losAngeles = SummerTimeZone(standardOffset: -8 * 3600, summerOffset: -7 * 3600,
                                                  start: .init(month: 3, sunday: 2, utcSecondsAfterMidnight: 10 * 3600),
                                                  end: .init(month: 11, sunday: 1, utcSecondsAfterMidnight: 9 * 3600))
    /// America/New_York since 2007 (US Energy Policy Act of 2005): EST −5, EDT −4 from the second
    /// Sunday of March 02:00 EST (07:00 UTC) to the first Sunday of November 02:00 EDT (06:00 UTC).
    public static let newYork = SummerTimeZone(standardOffset: -5 * 3600, summerOffset: -4 * 3600,
                                               start: .init(month: 3, sunday: 2, utcSecondsAfterMidnight: 7 * 3600),
                                               end: .init(month: 11, sunday: 1, utcSecondsAfterMidnight: 6 * 3600))
    /// America/New_York 1987–2006 (Uniform Time Act as amended in 1986): EDT from the first Sunday of
    /// April 02:00 EST (07:00 UTC) to the last Sunday of October 02:00 EDT (06:00 UTC).
    public static let newYork1987to2006 = SummerTimeZone(standardOffset: -5 * 3600, summerOffset: -4 * 3600,
                                                         start: .init(month: 4, sunday: 1, utcSecondsAfterMidnight: 7 * 3600),
                                                         end: .init(month: 10, sunday: -1, utcSecondsAfterMidnight: 6 * 3600))
    /// America/Vancouver: British Columbia keeps Pacific time (Interpretation Act, RSBC 1996 c. 238,
    /// s. 26) and has followed the US summer-time dates since 2007 (the same rule as `losAngeles`):
    /// PST −8, PDT −7 from the second Sunday of March 10:00 UTC to the first Sunday of November 09:00 UTC.
    public static let vancouver = SummerTimeZone(standardOffset: -8 * 3600, summerOffset: -7 * 3600,
                                                 start: .init(month: 3, sunday: 2, utcSecondsAfterMidnight: 10 * 3600),
                                                 end: .init(month: 11, sunday: 1, utcSecondsAfterMidnight: 9 * 3600))
    /// America/Chicago since 2007 (US Energy Policy Act of 2005, 15 U.S.C. 260a): CST −6, CDT −5 from the
    /// second Sunday of March 02:00 CST (08:00 UTC) to the first Sunday of November 02:00 CDT (07:00 UTC).
    public static let chicago = SummerTimeZone(standardOffset: -6 * 3600, summerOffset: -5 * 3600,
                                               start: .init(month: 3, sunday: 2, utcSecondsAfterMidnight: 8 * 3600),
                                               end: .init(month: 11, sunday: 1, utcSecondsAfterMidnight: 7 * 3600))
    /// Europe/Helsinki (EU directive 2000/84/EC): EET +2, EEST +3 from the last Sunday of March to the
    /// last Sunday of October, both at 01:00 UTC.
    public static let helsinki = europeanUnion(standardOffset: 2 * 3600)
    /// Australia/Sydney since 2008 (NSW Standard Time Act): AEST +10, AEDT +11 from the first Sunday of
    /// October 02:00 AEST to the first Sunday of April 03:00 AEDT, both 16:00 UTC the Saturday before.
    public static let sydney = SummerTimeZone(standardOffset: 10 * 3600, summerOffset: 11 * 3600,
                                              start: .init(month: 10, sunday: 1, utcSecondsAfterMidnight: -8 * 3600),
                                              end: .init(month: 4, sunday: 1, utcSecondsAfterMidnight: -8 * 3600))

    /// The offset in force at a UTC instant (seconds since 1970-01-01T00:00Z).
    public func offset(atUTC t: Int64) -> Int {
        let year = Gregorian.civil(fromDays: Int((t + Int64(standardOffset)).floorDiv(86_400))).year
        let s = instant(start, year), e = instant(end, year)
        let summer = s < e ? (t >= s && t < e) : (t >= s || t < e) // southern zones: summer spans the new year
        return summer ? summerOffset : standardOffset
    }

    /// The civil time of a UTC instant in this zone.
    public func civilTime(utcSeconds t: Int64) -> CivilTime? {
        let offset = offset(atUTC: t)
        return CivilTime(seconds: t + Int64(offset), sinceYear: 1970, month: 1, day: 1, utcOffset: offset)
    }

    /// A local wall-clock time with this zone's offset then (in the hour a clock repeats, the summer one).
    public func civilTime(localSeconds local: Int64) -> CivilTime? {
        let offset = offset(atUTC: local - Int64(summerOffset)) == summerOffset ? summerOffset : standardOffset
        return CivilTime(seconds: local, sinceYear: 1970, month: 1, day: 1, utcOffset: offset)
    }

    /// Seconds since 1970 of a local wall-clock date and time.
    public static func localSeconds(year: Int, month: Int, day: Int, minutes: Int = 0) -> Int64 {
        Int64(Gregorian.daysFromUnixEpoch(year: year, month: month, day: day)) * 86_400 + Int64(minutes) * 60
    }

    private func instant(_ rule: Transition, _ year: Int) -> Int64 {
        let first = Gregorian.daysFromUnixEpoch(year: year, month: rule.month, day: 1)
        // 1970-01-01 was a Thursday: (days + 4) mod 7 is 0 on Sundays.
        let firstSunday = first + (7 - ((first + 4) % 7 + 7) % 7) % 7
        var day = firstSunday + 7 * (rule.sunday - 1)
        if rule.sunday < 0 {
            let next = Gregorian.daysFromUnixEpoch(year: rule.month == 12 ? year + 1 : year, month: rule.month % 12 + 1, day: 1)
            day = firstSunday + 7 * ((next - 1 - firstSunday) / 7)
        }
        return Int64(day) * 86_400 + Int64(rule.utcSecondsAfterMidnight)
    }
}

import PluginKit

/// São Paulo wall-clock time as Bilhete Único stores it (days since 2000-01-01 and minute of the
/// day, local: Metrodroid BilheteUnicoSPTrip.EPOCH = Epoch.local(2000, SAO_PAULO)), with the UTC
/// offset then in force: −03:00, or −02:00 in the summer-time seasons Brazil kept until February
/// 2019 (abolished by Decree 9.772/2019). The seasons are those of the tz database's Brazil rules
/// (file `southamerica`, zone America/Sao_Paulo), each from its first local day (clocks went from
/// 00:00 to 01:00) to the local day it ended (clocks went back at 00:00 to 23:00 the day before; that
/// repeated hour is read as summer time, as SummerTimeZone does).
enum SaoPauloTime {
    static let standard = -3 * 3600, summer = -2 * 3600

    /// Summer seasons since the card's epoch: (first day, day after the last), local dates.
    static let seasons: [((Int, Int, Int), (Int, Int, Int))] = [
        ((1999, 10, 3), (2000, 2, 27)), ((2000, 10, 8), (2001, 2, 18)), ((2001, 10, 14), (2002, 2, 17)),
        ((2002, 11, 3), (2003, 2, 16)), ((2003, 10, 19), (2004, 2, 15)), ((2004, 11, 2), (2005, 2, 20)),
        ((2005, 10, 16), (2006, 2, 19)), ((2006, 11, 5), (2007, 2, 25)), ((2007, 10, 14), (2008, 2, 17)),
        ((2008, 10, 19), (2009, 2, 15)), ((2009, 10, 18), (2010, 2, 21)), ((2010, 10, 17), (2011, 2, 20)),
        ((2011, 10, 16), (2012, 2, 26)), ((2012, 10, 21), (2013, 2, 17)), ((2013, 10, 20), (2014, 2, 16)),
        ((2014, 10, 19), (2015, 2, 22)), ((2015, 10, 18), (2016, 2, 21)), ((2016, 10, 16), (2017, 2, 19)),
        ((2017, 10, 15), (2018, 2, 18)), ((2018, 11, 4), (2019, 2, 17)),
    ]

    /// Local seconds since 1970 of `day` days after 2000-01-01 at `minute` past midnight.
    static func localSeconds(day: UInt64, minute: UInt64) -> Int64 {
        SummerTimeZone.localSeconds(year: 2000, month: 1, day: 1, minutes: Int(minute)) + Int64(day) * 86_400
    }

    /// The wall-clock time `minute` past midnight, `day` days after 2000-01-01.
    static func time(day: UInt64, minute: UInt64) -> CivilTime? {
        guard minute < 24 * 60 else { return nil }
        let local = localSeconds(day: day, minute: minute)
        return CivilTime(seconds: local, sinceYear: 1970, month: 1, day: 1, utcOffset: offset(localSeconds: local))
    }

    /// The date `day` days after 2000-01-01 (no time of day).
    static func date(day: UInt64) -> CivilTime? {
        time(day: day, minute: 0)?.dateOnly
    }

    static func offset(localSeconds local: Int64) -> Int {
        for (first, end) in seasons {
            let s = SummerTimeZone.localSeconds(year: first.0, month: first.1, day: first.2)
            let e = SummerTimeZone.localSeconds(year: end.0, month: end.1, day: end.2)
            if local >= s, local < e { return summer }
        }
        return standard
    }
}

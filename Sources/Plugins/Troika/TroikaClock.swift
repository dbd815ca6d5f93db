import PluginKit

/// Troika's dates: days counted from 1 at an epoch (1992, 2016 or 2019-01-01, Moscow), minutes
/// added to the day. A day field of 0 with minutes lands on the day before the epoch, as in
/// Metrodroid (transit/troika/TroikaBlock.kt, convertDateTime1992/2016/2019: `dayMinute(days - 1, mins)`);
/// both 0 is "never". Moscow keeps UTC+3 all year since 26 October 2014.
enum TroikaClock {
    static let moscow = 3 * 3600

    /// A day and minute since `epochYear`-01-01; nil when both are 0 (an empty field).
    static func dateTime(epochYear: Int, days: Int, minutes: Int) -> CivilTime? {
        guard days != 0 || minutes != 0 else { return nil }
        let seconds = (Int64(days) - 1) * 86_400 + Int64(minutes) * 60
        return CivilTime(seconds: seconds, sinceYear: epochYear, month: 1, day: 1, utcOffset: moscow)
    }

    /// A day since `epochYear`-01-01 (day 1 is the epoch), without its time; nil for day 0.
    static func date(epochYear: Int, days: Int) -> CivilTime? {
        guard days != 0 else { return nil }
        return dateTime(epochYear: epochYear, days: days, minutes: 0)?.dateOnly
    }

    /// `time` plus `minutes`.
    static func adding(_ minutes: Int, to time: CivilTime) -> CivilTime? {
        guard let clock = time.time else { return nil }
        let seconds = Int64(clock.hour * 3600 + clock.minute * 60 + clock.second) + Int64(minutes) * 60
        return CivilTime(seconds: seconds, sinceYear: time.year, month: time.month, day: time.day, utcOffset: time.utcOffset)
    }
}

import PluginKit
import XCTest

final class CivilTimeTests: XCTestCase {
    func testFormatsDateOnlyAndDateTimeInTheCardsZone() {
        XCTAssertEqual(CivilTime(year: 2018, month: 9, day: 17, utcOffset: 9 * 3600)?.iso8601, "2018-09-17")
        XCTAssertEqual(CivilTime(year: 2011, month: 6, day: 14, hour: 13, minute: 5, utcOffset: 9 * 3600)?.iso8601,
                       "2011-06-14T13:05:00+09:00")
        XCTAssertEqual(CivilTime(year: 2020, month: 1, day: 1, hour: 0, utcOffset: -5 * 3600 - 1800)?.iso8601,
                       "2020-01-01T00:00:00-05:30")
    }

    func testRejectsOutOfRangeFields() {
        XCTAssertNil(CivilTime(year: 2023, month: 13, day: 1, utcOffset: 0))
        XCTAssertNil(CivilTime(year: 2023, month: 0, day: 1, utcOffset: 0))
        XCTAssertNil(CivilTime(year: 2023, month: 2, day: 29, utcOffset: 0))
        XCTAssertNotNil(CivilTime(year: 2024, month: 2, day: 29, utcOffset: 0))
        XCTAssertNil(CivilTime(year: 2024, month: 4, day: 31, utcOffset: 0))
        XCTAssertNil(CivilTime(year: 2024, month: 4, day: 1, hour: 24, utcOffset: 0))
        XCTAssertNil(CivilTime(year: 2024, month: 4, day: 1, hour: 23, minute: 60, utcOffset: 0))
    }

    func testCountsSecondsFromAnEpochInLocalTime() {
        // CEPAS: seconds since 1995-01-01 00:00 Singapore time. 0 is the epoch itself.
        XCTAssertEqual(CivilTime(seconds: 0, sinceYear: 1995, month: 1, day: 1, utcOffset: 8 * 3600)?.iso8601,
                       "1995-01-01T00:00:00+08:00")
        // 1995 has 365 days: 365 days and 1 second later is 1996-01-01 00:00:01.
        XCTAssertEqual(CivilTime(seconds: 365 * 86_400 + 1, sinceYear: 1995, month: 1, day: 1, utcOffset: 8 * 3600)?.iso8601,
                       "1996-01-01T00:00:01+08:00")
        // Checked independently with Python's datetime: 2026-11-20 08:15:30 is 1006244130 s after 1995-01-01.
        XCTAssertEqual(CivilTime(seconds: 1_006_244_130, sinceYear: 1995, month: 1, day: 1, utcOffset: 8 * 3600)?.iso8601,
                       "2026-11-20T08:15:30+08:00")
    }

    /// Issue 45: a counter of zero on a 1900 epoch (Clipper: 1900-01-01, shown as 1899-12-31 in Los
    /// Angeles), the Unix epoch, and a BCD year of 6017 are no date; dates in 1980-2100 are kept.
    func testADateOutsideTheYearsACardCanHoldIsNoDate() {
        XCTAssertNil(CivilTime(seconds: 0, sinceYear: 1900, month: 1, day: 1, utcOffset: -8 * 3600)?.plausible)
        XCTAssertNil(CivilTime(seconds: -8 * 3600, sinceYear: 1970, month: 1, day: 1, utcOffset: -8 * 3600)?.plausible, "1969-12-31")
        XCTAssertNil(CivilTime(year: 6017, month: 12, day: 31, utcOffset: 8 * 3600)?.plausible)
        XCTAssertNil(CivilTime(year: 2101, month: 1, day: 1, utcOffset: 0)?.plausible)
        XCTAssertEqual(CivilTime(year: 1980, month: 1, day: 1, utcOffset: 0)?.plausible?.iso8601, "1980-01-01")
        XCTAssertEqual(CivilTime(year: 2100, month: 12, day: 31, utcOffset: 0)?.plausible?.iso8601, "2100-12-31")
        // Clipper's 1900 epoch: 46,000 days on is 2025-12-11 (Python: date(1900, 1, 1) + timedelta(46000)).
        XCTAssertEqual(CivilTime(seconds: 46_000 * 86_400, sinceYear: 1900, month: 1, day: 1, utcOffset: 0)?.plausible?.iso8601,
                       "2025-12-11T00:00:00+00:00")
    }

    /// An EN 1545 date of 0 (1997-01-01 itself) is a date never written: no date.
    func testAnEN1545DateOfZeroIsNoDate() {
        XCTAssertNil(SummerTimeZone.paris.civilTime(en1545Date: 0, minutes: 0))
        XCTAssertEqual(SummerTimeZone.paris.civilTime(en1545Date: 1, minutes: nil)?.iso8601, "1997-01-02")
    }
}

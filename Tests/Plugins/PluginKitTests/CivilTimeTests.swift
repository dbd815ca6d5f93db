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
}

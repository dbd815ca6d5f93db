import PluginKit
import XCTest

/// Summer-time rules at their 2026 transitions (2026-03-01 and 2026-11-01 are Sundays; the EU's last
/// Sundays are 29 March and 25 October; Sydney's first Sundays 5 April and 4 October).
final class SummerTimeZoneTests: XCTestCase {
    func utc(_ y: Int, _ m: Int, _ d: Int, _ h: Int, _ mi: Int = 0, _ s: Int = 0) -> Int64 {
        SummerTimeZone.localSeconds(year: y, month: m, day: d, minutes: h * 60 + mi) + Int64(s)
    }

    func testLosAngelesSpringsForwardOnTheSecondSundayOfMarchAndBackOnTheFirstOfNovember() {
        let la = SummerTimeZone.losAngeles
        XCTAssertEqual(la.civilTime(utcSeconds: utc(2026, 3, 8, 9, 59, 59))?.iso8601, "2026-03-08T01:59:59-08:00")
        XCTAssertEqual(la.civilTime(utcSeconds: utc(2026, 3, 8, 10))?.iso8601, "2026-03-08T03:00:00-07:00")
        XCTAssertEqual(la.civilTime(utcSeconds: utc(2026, 11, 1, 8, 59, 59))?.iso8601, "2026-11-01T01:59:59-07:00")
        XCTAssertEqual(la.civilTime(utcSeconds: utc(2026, 11, 1, 9))?.iso8601, "2026-11-01T01:00:00-08:00")
        XCTAssertEqual(la.civilTime(utcSeconds: utc(2027, 1, 1, 7, 30))?.iso8601, "2026-12-31T23:30:00-08:00")
    }

    func testHelsinkiFollowsTheEURule() {
        let h = SummerTimeZone.helsinki
        XCTAssertEqual(h.civilTime(utcSeconds: utc(2026, 3, 29, 0, 59))?.iso8601, "2026-03-29T02:59:00+02:00")
        XCTAssertEqual(h.civilTime(utcSeconds: utc(2026, 3, 29, 1))?.iso8601, "2026-03-29T04:00:00+03:00")
        XCTAssertEqual(h.civilTime(utcSeconds: utc(2026, 10, 25, 1))?.iso8601, "2026-10-25T03:00:00+02:00")
        XCTAssertEqual(h.civilTime(localSeconds: utc(2026, 7, 1, 12))?.iso8601, "2026-07-01T12:00:00+03:00")
        XCTAssertEqual(h.civilTime(localSeconds: utc(2026, 12, 1, 12))?.iso8601, "2026-12-01T12:00:00+02:00")
    }

    func testSydneysSummerSpansTheNewYear() {
        let s = SummerTimeZone.sydney
        XCTAssertEqual(s.civilTime(utcSeconds: utc(2026, 4, 4, 15, 59))?.iso8601, "2026-04-05T02:59:00+11:00")
        XCTAssertEqual(s.civilTime(utcSeconds: utc(2026, 4, 4, 16))?.iso8601, "2026-04-05T02:00:00+10:00")
        XCTAssertEqual(s.civilTime(utcSeconds: utc(2026, 10, 3, 16))?.iso8601, "2026-10-04T03:00:00+11:00")
        XCTAssertEqual(s.civilTime(localSeconds: utc(2026, 1, 15, 9))?.iso8601, "2026-01-15T09:00:00+11:00")
        XCTAssertEqual(s.civilTime(localSeconds: utc(2026, 7, 15, 9))?.iso8601, "2026-07-15T09:00:00+10:00")
    }

    func testNewYorkSince2007AndBefore() {
        // 2026: second Sunday of March = 8th, first Sunday of November = 1st (07:00 / 06:00 UTC).
        let ny = SummerTimeZone.newYork
        XCTAssertEqual(ny.civilTime(utcSeconds: utc(2026, 3, 8, 6, 59))?.iso8601, "2026-03-08T01:59:00-05:00")
        XCTAssertEqual(ny.civilTime(utcSeconds: utc(2026, 3, 8, 7))?.iso8601, "2026-03-08T03:00:00-04:00")
        XCTAssertEqual(ny.civilTime(utcSeconds: utc(2026, 11, 1, 5, 59))?.iso8601, "2026-11-01T01:59:00-04:00")
        XCTAssertEqual(ny.civilTime(utcSeconds: utc(2026, 11, 1, 6))?.iso8601, "2026-11-01T01:00:00-05:00")
        // 2006: first Sunday of April = 2nd, last Sunday of October = 29th.
        let old = SummerTimeZone.newYork1987to2006
        XCTAssertEqual(old.civilTime(utcSeconds: utc(2006, 3, 20, 17))?.iso8601, "2006-03-20T12:00:00-05:00")
        XCTAssertEqual(old.civilTime(utcSeconds: utc(2006, 4, 2, 7))?.iso8601, "2006-04-02T03:00:00-04:00")
        XCTAssertEqual(old.civilTime(utcSeconds: utc(2006, 10, 29, 5, 59))?.iso8601, "2006-10-29T01:59:00-04:00")
        XCTAssertEqual(old.civilTime(utcSeconds: utc(2006, 10, 29, 6))?.iso8601, "2006-10-29T01:00:00-05:00")
    }
}

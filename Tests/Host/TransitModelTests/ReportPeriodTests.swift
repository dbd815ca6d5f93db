import TransitModel
import XCTest

/// `--month last` at the edges of months, worked out by hand from the instants' UTC times.
final class ReportPeriodTests: XCTestCase {
    func testTheMonthOfAnInstantIsTheZonesMonth() throws {
        // 2026-11-30 16:30 UTC is 1 December 01:30 in Tokyo (UTC+9) and still 30 November in UTC.
        let lateNovember: Int64 = 1_796_056_200
        XCTAssertEqual(ReportPeriod(monthOf: lateNovember, zone: 540, back: 1), ReportPeriod(month: "2026-11"))
        XCTAssertEqual(ReportPeriod(monthOf: lateNovember, zone: 0, back: 1), ReportPeriod(month: "2026-10"))
        XCTAssertEqual(ReportPeriod(monthOf: lateNovember, zone: 540), ReportPeriod(month: "2026-12"))
        // 2027-01-01 03:00 UTC: January in UTC (last month: December 2026), still 2026-12-31 in New York (UTC−5).
        let newYear: Int64 = 1_798_772_400
        XCTAssertEqual(ReportPeriod(monthOf: newYear, zone: 0, back: 1), ReportPeriod(month: "2026-12"))
        XCTAssertEqual(ReportPeriod(monthOf: newYear, zone: -300, back: 1), ReportPeriod(month: "2026-11"))
        XCTAssertEqual(ReportPeriod(monthOf: newYear, zone: 0, back: 1)?.to.description, "2026-12-31")
    }
}

import TransitModel
import XCTest

/// One parser a type of option value, for transit and transit-sim: what each takes, and that
/// anything else is a usage error naming the option and the value.
final class OptionValueTests: XCTestCase {
    private func refused(_ type: OptionValue, _ text: String, option: String = "x") -> String? {
        do {
            try type.parse(text, option: option)
            return nil
        } catch let e as TransitError {
            XCTAssertEqual(e.kind, .usage, text)
            return e.message
        } catch {
            return "\(error)"
        }
    }

    func testSecondsAmountsAndCounts() throws {
        XCTAssertEqual(try OptionValue.seconds(positive: false).parse("0", option: "wait") as? Double, 0)
        XCTAssertEqual(try OptionValue.seconds(positive: true).parse("2.5", option: "read-timeout") as? Double, 2.5)
        XCTAssertEqual(refused(.seconds(positive: true), "0", option: "read-timeout"), "--read-timeout takes a number of seconds above 0, not \"0\"")
        for bad in ["-1", "nan", "inf", "soon", ""] { XCTAssertNotNil(refused(.seconds(positive: false), bad), bad) }
        XCTAssertEqual(try OptionValue.amount.parse("1000", option: "below") as? Int64, 1000)
        XCTAssertNotNil(refused(.amount, "10.50"))
        XCTAssertEqual(try OptionValue.index.parse("1", option: "index") as? Int, 1)
        XCTAssertNotNil(refused(.index, "0"))
        XCTAssertEqual(try OptionValue.count.parse("0", option: "hang-after") as? Int, 0)
        XCTAssertNotNil(refused(.count, "-1"))
        XCTAssertEqual(try OptionValue.port.parse("35963", option: "port") as? UInt16, 35963)
        for bad in ["0", "65536", "notaport"] { XCTAssertNotNil(refused(.port, bad), bad) }
    }

    func testDaysMonthsAndChoices() throws {
        XCTAssertEqual(try OptionValue.day.parse("2024-02-29", option: "since") as? CalendarDay, CalendarDay(year: 2024, month: 2, day: 29))
        XCTAssertNotNil(refused(.day, "2025-02-29"), "2025 is no leap year")
        XCTAssertNotNil(refused(.day, "2026-1-05"))
        XCTAssertEqual(try OptionValue.month.parse("last", option: "month") as? OptionValue.Month, .last)
        XCTAssertEqual(try OptionValue.month.parse("2026-11", option: "month") as? OptionValue.Month, .month(try XCTUnwrap(ReportPeriod(month: "2026-11"))))
        XCTAssertEqual(refused(.month, "2026-13", option: "month"), "--month takes a month that exists, YYYY-MM (2026-11), or last, not \"2026-13\"")
        let dialect = OptionValue.choice(["pn532", "part3"], what: "dialect")
        XCTAssertEqual(try dialect.parse("part3", option: "dialect") as? String, "part3")
        XCTAssertEqual(refused(dialect, "PN532", option: "dialect"), "unknown dialect PN532: --dialect must be one of pn532, part3")
    }
}

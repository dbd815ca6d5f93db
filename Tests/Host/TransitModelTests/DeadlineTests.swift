import Foundation
import TransitModel
import XCTest

/// A read's one deadline, on the monotonic clock.
final class DeadlineTests: XCTestCase {
    func testADeadlineInTheFutureHasTimeLeftAndHasNotPassed() {
        let d = Deadline(secondsFromNow: 60)
        XCTAssertFalse(d.hasPassed)
        XCTAssertGreaterThan(d.secondsLeft, 59)
        XCTAssertLessThanOrEqual(d.secondsLeft, 60)
    }

    func testANegativeOrNaNSpanIsNow() {
        for span in [-5.0, .nan, 0] {
            let d = Deadline(secondsFromNow: span)
            XCTAssertTrue(d.hasPassed, "\(span)")
            XCTAssertEqual(d.secondsLeft, 0, "\(span)")
        }
    }

    func testAnInfiniteSpanIsDistantAndNeverPasses() {
        XCTAssertEqual(Deadline(secondsFromNow: .infinity), .distant)
        XCTAssertEqual(Deadline(secondsFromNow: 1e300), .distant)
        XCTAssertFalse(Deadline.distant.hasPassed)
        XCTAssertEqual(Deadline.distant.dispatchTime, .distantFuture)
    }

    func testCappingKeepsTheEarlier() {
        let read = Deadline(secondsFromNow: 2)
        XCTAssertEqual(read.capped(atSecondsFromNow: 10), read)
        XCTAssertLessThan(read.capped(atSecondsFromNow: 0.5), read)
    }

    func testItSurvivesThePipeAsItIs() throws {
        let d = Deadline(secondsFromNow: 3)
        XCTAssertEqual(try JSONDecoder().decode(Deadline.self, from: JSONEncoder().encode(d)), d)
    }

    func testASpanAfterAPointIsToldFromThatPoint() {
        let start = Deadline(uptimeNanoseconds: 1_000_000_000)
        let d = Deadline(2.5, after: start)
        XCTAssertEqual(d.uptimeNanoseconds, 3_500_000_000)
        XCTAssertEqual(d.seconds(since: start), 2.5)
        XCTAssertEqual(d.secondsLeft(at: Deadline(uptimeNanoseconds: 3_000_000_000)), 0.5)
        XCTAssertFalse(d.hasPassed(at: Deadline(uptimeNanoseconds: 3_499_999_999)))
        XCTAssertTrue(d.hasPassed(at: d))
        XCTAssertEqual(Deadline(-1, after: start), start)
        XCTAssertEqual(Deadline(.infinity, after: start), .distant)
    }

    func testItPassesOnTheMonotonicClock() {
        let d = Deadline(secondsFromNow: 0.05)
        SystemClock.shared.sleep(until: d)
        XCTAssertTrue(d.hasPassed)
    }
}

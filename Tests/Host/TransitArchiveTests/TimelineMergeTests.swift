import TestSupport
import CardProtocol
import TransitModel
import TransitFiles
import TransitStations
import TransitArchive
import TransitOutput
import XCTest

/// The merge rule for records the card does not number: raw bytes and their order.
final class TimelineMergeTests: XCTestCase {
    private func records(_ ids: String) -> [TimelineMerge.Record] { ids.map { .init(identity: String($0)) } }

    func testARingThatMovedOnAppendsOnlyTheNewRecords() {
        XCTAssertEqual(TimelineMerge.plan(archive: records("abcdef"), read: records("defxyz"), whole: true),
                       .merge(matched: [3, 4, 5, nil, nil, nil]))
    }

    func testTheSameReadAgainAddsNothing() {
        XCTAssertEqual(TimelineMerge.plan(archive: records("abcdef"), read: records("cde"), whole: true), .merge(matched: [2, 3, 4]))
    }

    func testRepeatedIdenticalRecordsCountByTheirPlace() {
        // Two identical purchases already kept, a third one since.
        XCTAssertEqual(TimelineMerge.plan(archive: records("abxx"), read: records("xxx"), whole: true), .merge(matched: [2, 3, nil]))
    }

    func testAnOlderReadGoesBefore() {
        XCTAssertEqual(TimelineMerge.plan(archive: records("defg"), read: records("bcde"), whole: true), .merge(matched: [nil, nil, 0, 1]))
        XCTAssertEqual(TimelineMerge.plan(archive: records("defg"), read: records("bcde"), whole: false), .needWholeTimeline)
    }

    func testRecordsInAnotherOrderContradict() {
        guard case .contradiction = TimelineMerge.plan(archive: records("abcd"), read: records("bxc"), whole: true) else {
            return XCTFail("b and c are kept with other neighbours")
        }
    }

    func testNothingSharedIsAGapAfterOrBeforeByDate() {
        let old = [TimelineMerge.Record(identity: "x", date: date("2020-01-01"))]
        let kept = [TimelineMerge.Record(identity: "a", date: date("2026-01-01"))]
        XCTAssertEqual(TimelineMerge.plan(archive: kept, read: old, whole: true), .disjoint(older: true))
        XCTAssertEqual(TimelineMerge.plan(archive: old, read: kept, whole: true), .disjoint(older: false))
    }

    func testTheSameNumberWithOtherBytesContradicts() {
        let read = [TimelineMerge.Record(identity: "a", sequence: 7)]
        XCTAssertNil(TimelineMerge.contradiction(read: read, archived: [7: "a"]))
        XCTAssertNotNil(TimelineMerge.contradiction(read: read, archived: [7: "b"]))
    }
}

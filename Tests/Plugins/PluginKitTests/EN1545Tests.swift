import PluginKit
import XCTest

/// EN 1545 bit packing and the EU summer-time rule, against vectors written out by hand from the
/// facts (docs/research/calypso-desfire-china.md §"EN 1545 layout"; Directive 2000/84/EC), bits most significant first.
final class EN1545Tests: XCTestCase {
    /// The Intercode environment's start: version 6 · bitmap(7) {network 24, issuer 8, validity end
    /// date, pay method 11, authenticator 16, select list 32, {card status 1}}.
    static let environment: [EN1545Field] = [
        .integer("version", bits: 6),
        .bitmap([.integer("network", bits: 24), .integer("issuer", bits: 8), .date("validityEnd"),
                 .integer("payMethod", bits: 11), .integer("authenticator", bits: 16),
                 .integer("selectList", bits: 32), .container([.integer("cardStatus", bits: 1)])]),
    ]

    func testBitmapMaskBitZeroIsTheFirstFieldAndAbsentFieldsTakeNoBits() throws {
        // version 1 = 000001 · mask 0000101 (bit 0 network, bit 2 validity end) ·
        // network 0x250901 = 0010 0101 0000 1001 0000 0001 · 2027-12-31 = day 11321 = 10110000111001
        // · 5 zero bits of padding:
        // 00000100 00101001 00101000 01001000 00001101 10000111 00100000 = 04 29 28 48 0D 87 20
        let v = try EN1545.parse(Self.environment, Bytes([0x04, 0x29, 0x28, 0x48, 0x0D, 0x87, 0x20]))
        XCTAssertEqual(v.integer("version"), 1)
        XCTAssertEqual(v.integer("network"), 0x250901)
        XCTAssertNil(v.integer("issuer"))
        XCTAssertNil(v.integer("payMethod"))
        XCTAssertEqual(v.integer("validityEnd"), 11321)
        XCTAssertTrue(v.date("validityEnd").map { $0 == (2027, 12, 31) } ?? false)
    }

    func testNestedBitmaps() throws {
        // bitmap(3){a 4, bitmap(2){b 3, c 5}, d 8}: mask 011 (a, inner; no d) · a = 1010 · inner mask
        // 10 (c only) · c = 10001 · 00 padding: 01110101 01000100 = 75 44
        let layout: [EN1545Field] = [.bitmap([.integer("a", bits: 4), .bitmap([.integer("b", bits: 3), .integer("c", bits: 5)]),
                                              .integer("d", bits: 8)])]
        let v = try EN1545.parse(layout, Bytes([0x75, 0x44]))
        XCTAssertEqual(v.integers, ["a": 10, "c": 17])
    }

    func testPresentFieldPastTheDataIsMalformed() {
        // mask 1 (the 24-bit field present) then only 7 bits left.
        XCTAssertThrowsError(try EN1545.parse([.bitmap([.integer("x", bits: 24)])], Bytes([0x80]))) {
            guard case PluginError.malformedResponse = $0 else { return XCTFail("\($0)") }
        }
    }

    func testDatesCountDaysFrom1997AndTimesMinutes() throws {
        XCTAssertTrue(EN1545.civilDay(0) == (1997, 1, 1))
        XCTAssertTrue(EN1545.civilDay(10926) == (2026, 12, 1), "Python: (date(2026,12,1) - date(1997,1,1)).days")
        // date 2026-10-25 = 10889 = 10101010001001 · time 02:30 = 150 = 00010010110 · 0000000:
        // 10101010 00100100 01001011 00000000 = AA 24 4B 00
        let v = try EN1545.parse([.date("d"), .time("t")], Bytes([0xAA, 0x24, 0x4B, 0x00]))
        XCTAssertEqual(v.integer("d"), 10889)
        XCTAssertEqual(v.integer("t"), 150)
    }

    func testFiveBitStrings() throws {
        // "PARIS" + three spaces, 40 bits: P 10000 · A 00001 · R 10010 · I 01001 · S 10011 · 3 × 00000
        // = 10000000 01100100 10011001 10000000 00000000 = 80 64 99 80 00
        let v = try EN1545.parse([.string("name", bits: 40)], Bytes([0x80, 0x64, 0x99, 0x80, 0x00]))
        XCTAssertEqual(v.string("name"), "PARIS")
    }

    func testRestStopsTheWalkWhenItsFieldIsPresent() throws {
        // mask 11: x = 1111, then the unknown member: 11 1111 00 = FC
        let v = try EN1545.parse([.bitmap([.integer("x", bits: 4), .rest])], Bytes([0xFC]))
        XCTAssertEqual(v.integer("x"), 15)
        XCTAssertTrue(v.stoppedAtUnknownLayout)
    }

    func testParisSummerTimeStartsOnTheLastSundayOfMarchAt0100UTC() {
        let paris = SummerTimeZone.paris
        func at(_ y: Int, _ m: Int, _ d: Int, _ h: Int, _ min: Int) -> String? {
            paris.civilTime(year: y, month: m, day: d, minuteOfDay: h * 60 + min)?.iso8601
        }
        // 2026-03-29 is the last Sunday of March: 01:59 CET is 00:59 UTC, 03:00 CEST is 01:00 UTC.
        XCTAssertEqual(at(2026, 3, 29, 1, 59), "2026-03-29T01:59:00+01:00")
        XCTAssertEqual(at(2026, 3, 29, 3, 0), "2026-03-29T03:00:00+02:00")
        XCTAssertEqual(at(2026, 3, 29, 2, 30), "2026-03-29T02:30:00+01:00", "the skipped hour takes winter time")
        XCTAssertEqual(at(2026, 3, 22, 12, 0), "2026-03-22T12:00:00+01:00", "a Sunday, not the last")
        XCTAssertEqual(at(2026, 7, 14, 12, 0), "2026-07-14T12:00:00+02:00")
        // 2027: the last Sundays are 03-28 and 10-31.
        XCTAssertEqual(at(2027, 3, 28, 3, 0), "2027-03-28T03:00:00+02:00")
        XCTAssertEqual(at(2027, 10, 30, 12, 0), "2027-10-30T12:00:00+02:00")
        XCTAssertEqual(at(2027, 10, 31, 3, 0), "2027-10-31T03:00:00+01:00")
    }

    func testParisWinterTimeReturnsOnTheLastSundayOfOctoberAt0100UTC() {
        let paris = SummerTimeZone.paris
        func at(_ h: Int, _ min: Int) -> String? { paris.civilTime(year: 2026, month: 10, day: 25, minuteOfDay: h * 60 + min)?.iso8601 }
        XCTAssertEqual(at(1, 59), "2026-10-25T01:59:00+02:00")
        XCTAssertEqual(at(2, 30), "2026-10-25T02:30:00+02:00", "the repeated hour: its first occurrence, summer time")
        XCTAssertEqual(at(3, 0), "2026-10-25T03:00:00+01:00")
        XCTAssertEqual(paris.civilTime(year: 2026, month: 12, day: 1, minuteOfDay: 8 * 60)?.iso8601, "2026-12-01T08:00:00+01:00")
        XCTAssertEqual(SummerTimeZone.brussels.civilTime(year: 2026, month: 10, day: 24, minuteOfDay: 23 * 60)?.iso8601,
                       "2026-10-24T23:00:00+02:00")
    }

    func testEN1545DateAndTimeInParis() {
        // day 10889 (2026-10-25), 150 minutes (02:30): summer time still; 10926 (2026-12-01) 480 (08:00): winter.
        XCTAssertEqual(SummerTimeZone.paris.civilTime(en1545Date: 10889, minutes: 150)?.iso8601, "2026-10-25T02:30:00+02:00")
        XCTAssertEqual(SummerTimeZone.paris.civilTime(en1545Date: 10926, minutes: 480)?.iso8601, "2026-12-01T08:00:00+01:00")
        XCTAssertEqual(SummerTimeZone.paris.civilTime(en1545Date: 10926, minutes: nil)?.iso8601, "2026-12-01")
        XCTAssertNil(SummerTimeZone.paris.civilTime(en1545Date: 10926, minutes: 1440), "no minute 1440 in a day")
    }
}

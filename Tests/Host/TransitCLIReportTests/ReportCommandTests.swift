import Foundation
import TestSupport
import XCTest

/// `transit report` as its users check it: the totals of a month and of a range against the
/// records the test wrote, SFCard Viewer's CSV decoded as Shift_JIS, the OFX through an
/// independent parser (ofxtools), the page printed by Chromium and read back from the PDF.
final class ReportCommandTests: XCTestCase {
    var fixture: ReportFixture!
    var archive: ArchiveFixture { fixture.archive }
    override func setUpWithError() throws { fixture = try ReportFixture() }
    override func tearDown() { fixture?.remove() }

    private typealias W = ReportFixture.Written

    /// Trips, fares, purchases and top-ups of `records`, as a person adds them up.
    private func totals(_ records: [W]) -> [String: Int] {
        var t = ["trips": 0, "fares": 0, "purchases": 0, "topups": 0]
        for r in records {
            switch r.kind {
            case "trip": t["trips", default: 0] += 1; t["fares", default: 0] += r.amount ?? 0
            case "purchase": t["purchases", default: 0] += r.amount ?? 0
            default: t["topups", default: 0] += r.amount ?? 0
            }
        }
        return t
    }

    private func json(_ arguments: [String]) throws -> Any {
        let run = try archive.transit(["report"] + arguments + ["--format", "json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        return try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
    }

    private func within(_ records: [W], _ from: String, _ to: String) -> [W] { records.filter { $0.dayText >= from && $0.dayText <= to } }

    // MARK: JSON

    func testJSONTotalsAndRowsPerMonthAndForARangeSpanningBoth() throws {
        let suica = ReportFixture.suica
        for (args, from, to) in [(["--month", "2026-10"], "2026-10-01", "2026-10-31"), (["--month", "2026-11"], "2026-11-01", "2026-11-30"),
                                 (["--from", "2026-10-15", "--to", "2026-11-10"], "2026-10-15", "2026-11-10")] {
            let report = try XCTUnwrap(try json(["0114AABBCCDDEEFF"] + args) as? [String: Any])
            let expected = within(suica, from, to)
            let rows = try XCTUnwrap(report["rows"] as? [[String: Any]])
            XCTAssertEqual(rows.count, expected.count, "\(args)")
            XCTAssertEqual(report["totals"] as? [String: Int], totals(expected), "\(args)")
            XCTAssertEqual(report["period"] as? [String: String], ["from": from, "to": to])
            XCTAssertEqual(rows.map { $0["date"] as? String }, expected.map(\.dayText), "oldest first")
            XCTAssertEqual(rows.map { $0["balance"] as? Int }, expected.map(\.balance))
            XCTAssertEqual(rows.map { $0["amount"] as? Int }, expected.map(\.amount))
        }
        // Without CARD, every card: the EZ-Link's 00:20 trip on 1 November (Singapore time) is November's.
        let all = try XCTUnwrap(try json(["--month", "2026-11"]) as? [[String: Any]])
        XCTAssertEqual(all.count, 2)
        let ezlink = try XCTUnwrap(all.first { ($0["card"] as? [String: Any])?["family"] as? String == "cepas" })
        let november = within(ReportFixture.ezlink, "2026-11-01", "2026-11-30")
        XCTAssertEqual(ezlink["totals"] as? [String: Int], totals(november))
        let rows = try XCTUnwrap(ezlink["rows"] as? [[String: Any]])
        XCTAssertEqual(rows.first?["time"] as? String, "00:20:00")
        XCTAssertEqual((ezlink["card"] as? [String: Any])?["currency"] as? String, "SGD")
    }

    func testTextPrintsTheRowsAndTheTotalsGrouped() throws {
        let run = try archive.transit(["report", "0114AABBCCDDEEFF", "--from", "2026-10-01", "--to", "2026-11-30"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let t = totals(ReportFixture.suica)
        func yen(_ v: Int) -> String {
            let f = NumberFormatter()
            f.numberStyle = .decimal
            f.locale = Locale(identifier: "en_US_POSIX")
            f.usesGroupingSeparator = true
            f.groupingSeparator = ","
            f.groupingSize = 3
            return "¥" + (f.string(from: NSNumber(value: v)) ?? "")
        }
        XCTAssertGreaterThan(t["fares"] ?? 0, 999, "a total that needs grouping")
        for line in ["Trips:      \(t["trips"] ?? 0)", "Fares:      \(yen(t["fares"] ?? 0))", "Purchases:  \(yen(t["purchases"] ?? 0))",
                     "Top-ups:    \(yen(t["topups"] ?? 0))"] {
            XCTAssertTrue(run.stdout.contains(line), "\(line) in\n\(run.stdout)")
        }
        XCTAssertEqual(run.stdout.split(separator: "\n").filter { $0.hasPrefix("2026-") }.count, ReportFixture.suica.count)
    }

    // MARK: SFCard Viewer

    /// Python's strict shift_jis codec and csv module read the file; every field is the record's.
    func testSFCardIsShiftJISWithCRLFTheExactHeaderAndStableBytes() throws {
        let out = archive.directory.appendingPathComponent("suica.csv").path
        let args = ["report", "0114AABBCCDDEEFF", "--month", "2026-11", "--format", "sfcard", "--stations", fixture.stations]
        let run = try archive.transit(args + ["--out", out])
        XCTAssertEqual(run.status, 0, run.stderr)
        let first = try Data(contentsOf: URL(fileURLWithPath: out))
        XCTAssertEqual(try archive.transit(args + ["--out", out]).status, 0)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out)), first, "byte-stable")
        let script = """
            import csv,io,json,sys
            raw=open(sys.argv[1],'rb').read()
            text=raw.decode('shift_jis')
            lines=text.split('\\r\\n')
            print(json.dumps({'bare_lf': text.replace('\\r\\n','').count('\\n'), 'lines': lines, 'rows': list(csv.reader(io.StringIO(text, newline='')))}))
            """
        let parsed = try CommandRun.run("/usr/bin/python3", ["-c", script, out])
        XCTAssertEqual(parsed.status, 0, parsed.stderr)
        let result = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(parsed.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(result["bare_lf"] as? Int, 0, "CRLF line ends only")
        let lines = try XCTUnwrap(result["lines"] as? [String])
        XCTAssertEqual(lines.first, "カードID=0114AABBCCDDEEFF,,,,,,,,,")
        XCTAssertEqual(lines.dropFirst().first, "利用年月日,定期,鉄道会社名,入場駅/事業者名,定期,鉄道会社名,出場駅/降車場所,利用額(円),残額(円),メモ")
        XCTAssertEqual(lines.last, "", "the last line ends with CRLF too")
        let rows = try XCTUnwrap(result["rows"] as? [[String]]).dropFirst(2)
        let november = within(ReportFixture.suica, "2026-11-01", "2026-11-30").reversed()
        XCTAssertEqual(rows.count, november.count, "newest first, one a record")
        for (row, w) in zip(rows, november) {
            let signed = w.kind == "topup" ? -(w.amount ?? 0) : (w.amount ?? 0)
            let entry = w.stations ? ReportFixture.entryName : ""
            let exit = w.stations && w.memo.isEmpty ? "'" + ReportFixture.exitName : ""
            let op = w.stations ? ReportFixture.operatorName : ""
            XCTAssertEqual(row, [String(format: "%04d/%02d/%02d", w.year, w.month, w.day), "", op, entry, "", w.stations && w.memo.isEmpty ? op : "", exit,
                                 String(signed), String(w.balance ?? 0), w.memo], "record \(w.sequence)")
        }
        // Another currency, or several cards without CARD, is refused with the reason.
        let sgd = try archive.transit(["report", "1009123456789012", "--format", "sfcard"])
        XCTAssertEqual(sgd.status, 2)
        XCTAssertTrue(sgd.stderr.contains("for yen cards") && sgd.stderr.contains("SGD"), sgd.stderr)
        let several = try archive.transit(["report", "--format", "sfcard"])
        XCTAssertEqual(several.status, 2)
        XCTAssertTrue(several.stderr.contains("name one"), several.stderr)
    }

    // MARK: OFX

    private func ofxtools(_ file: String) throws -> [[String: Any]] {
        let script = """
            import json,sys
            from ofxtools.Parser import OFXTree
            t=OFXTree(); t.parse(sys.argv[1]); o=t.convert()
            print(json.dumps([{'acctid': s.account.acctid, 'curdef': s.curdef, 'ledgerbal': str(s.ledgerbal.balamt),
              'txs': [{'type': x.trntype, 'amount': str(x.trnamt), 'fitid': x.fitid, 'posted': x.dtposted.isoformat()} for x in s.transactions]}
              for s in o.statements]))
            """
        let run = try CommandRun.run(BuildProducts.python, ["-c", script, file])
        XCTAssertEqual(run.status, 0, run.stderr)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]], run.stdout)
    }

    func testOFXParsesWithAnIndependentParserWithSignsLedgerBalanceAndStableFITIDs() throws {
        try requireTool(BuildProducts.python, ["-c", "import ofxtools"], "ofxtools")
        let file = archive.directory.appendingPathComponent("r.ofx").path
        XCTAssertEqual(try archive.transit(["report", "--from", "2026-10-01", "--to", "2026-11-30", "--format", "ofx", "--out", file]).status, 0)
        let statements = try ofxtools(file)
        XCTAssertEqual(statements.count, 2)
        let suica = try XCTUnwrap(statements.first { $0["acctid"] as? String == "0114AABBCCDDEEFF" })
        XCTAssertEqual(suica["curdef"] as? String, "JPY")
        XCTAssertEqual(suica["ledgerbal"] as? String, String(ReportFixture.suica.last?.balance ?? 0), "the card's last balance")
        let txs = try XCTUnwrap(suica["txs"] as? [[String: Any]])
        XCTAssertEqual(txs.count, ReportFixture.suica.count)
        for (tx, w) in zip(txs, ReportFixture.suica) {
            let expected = w.kind == "topup" ? (w.amount ?? 0) : -(w.amount ?? 0)
            XCTAssertEqual(tx["amount"] as? String, String(expected), "record \(w.sequence)")
            // An amount the card does not tell (the first read's oldest record) moves no money: OTHER (README).
            XCTAssertEqual(tx["type"] as? String, w.amount == nil ? "OTHER" : w.kind == "topup" ? "CREDIT" : "DEBIT", "record \(w.sequence)")
            XCTAssertTrue((tx["posted"] as? String)?.hasPrefix(w.dayText) == true, "\(tx["posted"] ?? "") on \(w.dayText)")
        }
        let fitids = txs.compactMap { $0["fitid"] as? String }
        XCTAssertEqual(Set(fitids).count, fitids.count, "unique in the file")
        // S$ in dollars and cents; the 00:20 trip posted at 16:20 UTC on 31 October, its own zone kept.
        let ezlink = try XCTUnwrap(statements.first { $0["curdef"] as? String == "SGD" }?["txs"] as? [[String: Any]])
        XCTAssertEqual(ezlink.map { $0["amount"] as? String }, ReportFixture.ezlink.map { String(format: "%@%d.%02d", $0.kind == "topup" ? "" : "-", ($0.amount ?? 0) / 100, ($0.amount ?? 0) % 100) })
        XCTAssertEqual(ezlink[2]["posted"] as? String, "2026-10-31T16:20:00+00:00")
        // The same records in another run and another period: the same FITIDs, so importing twice adds nothing.
        let again = archive.directory.appendingPathComponent("november.ofx").path
        XCTAssertEqual(try archive.transit(["report", "0114AABBCCDDEEFF", "--month", "2026-11", "--format", "ofx", "--out", again]).status, 0)
        let november = try XCTUnwrap(try ofxtools(again).first?["txs"] as? [[String: Any]]).compactMap { $0["fitid"] as? String }
        XCTAssertEqual(november, Array(fitids.suffix(november.count)))
        XCTAssertEqual(november.count, within(ReportFixture.suica, "2026-11-01", "2026-11-30").count)
    }

    // MARK: HTML

    func testHTMLPrintsFromChromiumWithTheTotalsAndChartAndNoMarkupFromATable() throws {
        let chromium = try requireTool("/usr/bin/chromium", ["--version"], "chromium")
        let pdftotext = try requireTool("/usr/bin/pdftotext", ["-v"], "poppler-utils")
        let html = archive.directory.appendingPathComponent("r.html")
        let run = try archive.transit(["report", "0114AABBCCDDEEFF", "--month", "2026-11", "--format", "html", "--out", html.path,
                                       "--stations", fixture.stations])
        XCTAssertEqual(run.status, 0, run.stderr)
        let page = try String(contentsOf: html, encoding: .utf8)
        XCTAssertFalse(page.contains("<script"), "no script")
        XCTAssertFalse(page.contains("src=\"http") || page.contains("href=\"http"), "nothing loaded")
        let pdf = archive.directory.appendingPathComponent("r.pdf").path
        let flags = ["--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer"]
        let print = try CommandRun.run(chromium, flags + ["--print-to-pdf=\(pdf)", html.absoluteString], timeout: 120)
        XCTAssertTrue(FileManager.default.fileExists(atPath: pdf), print.stderr)
        let text = try CommandRun.run(pdftotext, ["-layout", pdf, "-"]).stdout
        let t = totals(within(ReportFixture.suica, "2026-11-01", "2026-11-30"))
        for (label, value) in [("Trips", "\(t["trips"] ?? 0)"), ("Fares", "¥\(grouped(t["fares"] ?? 0))"), ("Top-ups", "¥\(grouped(t["topups"] ?? 0))")] {
            XCTAssertTrue(text.range(of: "\(label)\\s+\(NSRegularExpression.escapedPattern(for: value))", options: .regularExpression) != nil,
                          "\(label) \(value) in the PDF:\n\(text)")
        }
        XCTAssertTrue(text.contains("Fares per day"), "the chart's caption")
        XCTAssertTrue(text.contains(ReportFixture.entryName), "the hostile name shown as text:\n\(text)")
        // The DOM Chromium built: the name is text, no element came from it; one bar a day with fares.
        let dom = try CommandRun.run(chromium, ["--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", html.absoluteString], timeout: 120).stdout
        XCTAssertTrue(dom.contains("&lt;img src=x onerror=alert(1)&gt;"), dom)
        XCTAssertFalse(dom.contains("<img"), "no element from a station name")
        let days = Set(within(ReportFixture.suica, "2026-11-01", "2026-11-30").filter { $0.kind == "trip" && $0.amount != nil }.map(\.day))
        XCTAssertEqual(dom.components(separatedBy: "<rect class=\"bar\"").count - 1, days.count)
    }

    func testAMonthOfSixtyRowsPrintsOnAtMostThreePages() throws {
        let chromium = try requireTool("/usr/bin/chromium", ["--version"], "chromium")
        let pdfinfo = try requireTool("/usr/bin/pdfinfo", ["-v"], "poppler-utils")
        let busy = ArchiveFixture()
        defer { busy.remove() }
        // 60 trips in November, two a day, read in three rings of 20.
        let records = (1 ... 60).map { n in
            ReportFixture.Written(sequence: n, kind: "trip", month: 11, day: (n + 1) / 2, balance: 10_000 - 160 * n, memo: "", stations: true)
        }
        for k in 0 ..< 3 {
            let ring = records[(20 * k) ..< (20 * k + 20)].reversed().map(ReportFixture.block)
            let path = try CardImages.write(CardImages.japanIC(history: Array(ring), balance: 10_000 - 160 * (20 * k + 20)), in: busy.directory, name: "b\(k).json")
            XCTAssertEqual(try busy.scan(path).status, 0)
        }
        let html = busy.directory.appendingPathComponent("busy.html")
        let run = try busy.transit(["report", "--month", "2026-11", "--format", "html", "--out", html.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        let pdf = busy.directory.appendingPathComponent("busy.pdf").path
        _ = try CommandRun.run(chromium, ["--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer", "--print-to-pdf=\(pdf)", html.absoluteString],
                               timeout: 120)
        let info = try CommandRun.run(pdfinfo, [pdf]).stdout
        let pages = info.split(separator: "\n").first { $0.hasPrefix("Pages:") }.flatMap { Int($0.split(separator: " ").last ?? "") }
        let count = try XCTUnwrap(pages, info)
        XCTAssertLessThanOrEqual(count, 3)
        XCTAssertTrue(info.contains("(A4)"), "A4: \(info)")
        XCTAssertEqual(try busy.transit(["report", "--month", "2026-11"]).stdout.split(separator: "\n").filter { $0.hasPrefix("2026-11") }.count, 60)
    }

    // MARK: Bad input, empty periods, an archive left as it was

    func testBadInputSaysWhatIsWrongAndAnEmptyPeriodGivesZeroTotals() throws {
        let before = try dump()
        for (args, words) in [(["--month", "2026-13"], "month that exists"), (["--from", "2026-11-02", "--to", "2026-11-01"], "is after --to"),
                              (["--format", "pdf"], "--format must be one of"), (["--from", "2026-11-01"], "go together"),
                              (["--month", "2026-11", "--to", "2026-11-30"], "not both")] {
            let run = try archive.transit(["report"] + args)
            XCTAssertEqual(run.status, 2, "\(args)")
            XCTAssertTrue(run.stderr.contains(words), "\(args): \(run.stderr)")
        }
        let unknown = try archive.transit(["report", "Nobody's card", "--month", "2026-11"])
        XCTAssertEqual(unknown.status, try archive.transit(["history", "Nobody's card"]).status)
        XCTAssertTrue(unknown.stderr.contains("no card Nobody's card"), unknown.stderr)
        let empty = try XCTUnwrap(try json(["0114AABBCCDDEEFF", "--month", "2025-01"]) as? [String: Any])
        XCTAssertEqual(empty["rows"] as? [Any] as? [NSObject], [])
        XCTAssertEqual(empty["totals"] as? [String: Int], ["trips": 0, "fares": 0, "purchases": 0, "topups": 0])
        let text = try archive.transit(["report", "0114AABBCCDDEEFF", "--month", "2025-01"])
        XCTAssertEqual(text.status, 0)
        XCTAssertTrue(text.stdout.contains("2025-01-01 to 2025-01-31") && text.stdout.contains("Trips:      0"), text.stdout)
        for format in ["sfcard", "ofx", "html"] {
            XCTAssertEqual(try archive.transit(["report", "0114AABBCCDDEEFF", "--month", "2025-01", "--format", format]).status, 0, format)
        }
        XCTAssertEqual(try dump(), before, "nothing in the archive changed")
    }

    /// Every row of every table, through python3's sqlite3 (an independent client).
    private func dump() throws -> String {
        try archive.sql("SELECT 'cards', * FROM cards") + archive.sql("SELECT 'reads', id, card, read_at, balance, merged FROM reads")
            + archive.sql("SELECT 'records', * FROM records ORDER BY id")
    }

    private func grouped(_ v: Int) -> String {
        var digits = Array(String(v))
        var i = digits.count - 3
        while i > 0 { digits.insert(",", at: i); i -= 3 }
        return String(digits)
    }

    /// The tool's path; a skip where it is missing, a failure on CI (scripts/test-setup.sh installs it).
    @discardableResult
    private func requireTool(_ path: String, _ check: [String], _ name: String) throws -> String {
        let works = FileManager.default.isExecutableFile(atPath: path) && (try? CommandRun.run(path, check, timeout: 60))?.status == 0
        try Prerequisite.require(works, "\(name) is missing: scripts/test-setup.sh installs it")
        return path
    }
}

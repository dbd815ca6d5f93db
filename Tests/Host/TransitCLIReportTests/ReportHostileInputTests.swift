import Foundation
import TestSupport
import XCTest

/// `transit report` given what a hostile station table, plugin or archive can hold: markup behind
/// a Unicode "Prepend" scalar, amounts near Int64.max, a period of the whole calendar; and what a
/// card's own records say at the edges: a bus auto-charge's memo, a trip at 00:20 on a period's
/// first day in the card's zone. Each is read back as its user reads it (a browser's parser,
/// Python's XML and csv modules, an OFX parser).
final class ReportHostileInputTests: XCTestCase {
    private var archive = ArchiveFixture()
    override func tearDown() { archive.remove() }

    private typealias W = ReportFixture.Written

    /// Scans a Japan IC card holding `records` (oldest first) into the archive.
    private func scanJapanIC(_ records: [W], name: String = "card.json") throws {
        let ring = records.reversed().map(ReportFixture.block)
        var image = CardImages.japanIC(history: Array(ring), balance: records.last?.balance ?? 0)
        image.felica?.idm = "0114AABBCCDDEEFF"
        let run = try archive.scan(try CardImages.write(image, in: archive.directory, name: name))
        XCTAssertEqual(run.status, 0, run.stderr)
    }

    /// Three rail trips in November 2026, from E33B (area 2) to E621 (area 1), 160 yen each.
    private static let trips = (1 ... 3).map { n in
        W(sequence: n, kind: "trip", month: 11, day: 2 + n, balance: 5000 - 160 * n, amount: n == 1 ? nil : 160, memo: "", stations: true)
    }

    private func bytes(_ text: String, contain part: String) -> Bool { Data(text.utf8).range(of: Data(part.utf8)) != nil }

    // MARK: Markup behind a Prepend scalar (U+0D4E forms one Character with what follows)

    func testMarkupAfterAPrependScalarInAStationNameIsTextInTheHTMLPageAndTheOFXFile() throws {
        let entry = "\u{0D4E}<img src=x onerror=alert(1)>\u{0D4E}&amp;\u{0D4E}\"\u{0D4E}'"
        // And a combining mark after `<` (one Character again, which String's own search passes over).
        let exit = "\u{0D4E}</NAME></STMTTRN><STMTTRN>\u{0D4E}><\u{0301}/MEMO>&\u{0301}"
        let stations = archive.directory.appendingPathComponent("stations.csv").path
        // Quoted as RFC 4180 says, by scalars: String's own search would not see a quote that ends a cluster.
        func csv(_ s: String) -> String { "\"" + s.unicodeScalars.map { $0 == "\"" ? "\"\"" : String($0) }.joined() + "\"" }
        try "area,line,station,operator,line_name,station_name\n2,E3,3B,JR,Line,\(csv(entry))\n1,E6,21,JR,Line,\(csv(exit))\n"
            .write(toFile: stations, atomically: true, encoding: .utf8)
        try scanJapanIC(Self.trips)

        let html = try archive.transit(["report", "--month", "2026-11", "--format", "html", "--stations", stations])
        XCTAssertEqual(html.status, 0, html.stderr)
        XCTAssertFalse(bytes(html.stdout, contain: "<img"), "no element from a station name")
        XCTAssertFalse(bytes(html.stdout, contain: "</NAME>") || bytes(html.stdout, contain: "<\u{0301}"), "a raw < from a name")
        XCTAssertTrue(bytes(html.stdout, contain: "\u{0D4E}&lt;img src=x onerror=alert(1)&gt;\u{0D4E}&amp;amp;\u{0D4E}&quot;\u{0D4E}&#39;"),
                      "the name as text:\n\(html.stdout)")
        // Python's HTML parser (a browser's tokenizer rules) sees no tag that came from a name.
        let tags = try python("""
            import json,sys
            from html.parser import HTMLParser
            class P(HTMLParser):
                def __init__(s): super().__init__(); s.tags=set(); s.text=''
                def handle_starttag(s, t, a): s.tags.add(t)
                def handle_endtag(s, t): s.tags.add(t)
                def handle_data(s, d): s.text+=d
            p=P(); p.feed(open(sys.argv[1],encoding='utf-8').read())
            print(json.dumps({'tags': sorted(p.tags), 'named': sys.argv[2] in p.text and sys.argv[3] in p.text}))
            """, html.stdout, [entry, exit])
        let seen = try XCTUnwrap(tags as? [String: Any])
        XCTAssertFalse((seen["tags"] as? [String] ?? ["?"]).contains { ["img", "name", "stmttrn"].contains($0) }, "\(seen)")
        XCTAssertEqual(seen["named"] as? Bool, true, "both names shown as they are")

        let ofx = try archive.transit(["report", "--month", "2026-11", "--format", "ofx", "--stations", stations])
        XCTAssertEqual(ofx.status, 0, ofx.stderr)
        XCTAssertFalse(bytes(ofx.stdout, contain: "<\u{0301}") || bytes(ofx.stdout, contain: "\u{0D4E}<"), "a raw < from a name:\n\(ofx.stdout)")
        // Python's XML parser: well-formed, one STMTTRN a record, each MEMO holding both names as text.
        let parsed = try python("""
            import json,sys
            import xml.etree.ElementTree as E
            root=E.fromstring(open(sys.argv[1],encoding='utf-8').read())
            print(json.dumps([[t.findtext('NAME'), t.findtext('MEMO')] for t in root.iter('STMTTRN')]))
            """, ofx.stdout)
        let transactions = try XCTUnwrap(parsed as? [[String]], "\(parsed)")
        XCTAssertEqual(transactions.count, Self.trips.count, "\(transactions)")
        for t in transactions {
            XCTAssertTrue(t[1].contains(entry) && t[1].contains(exit), "MEMO \(t[1])")
            XCTAssertTrue(t[0].hasPrefix("Trip"), "NAME \(t[0])")
        }
    }

    /// Runs `script` on `text` (written to a file, its path the first argument) and parses its JSON.
    private func python(_ script: String, _ text: String, _ arguments: [String] = []) throws -> Any {
        let file = archive.directory.appendingPathComponent("parsed-\(UUID().uuidString)")
        try text.write(to: file, atomically: true, encoding: .utf8)
        let run = try CommandRun.run("/usr/bin/python3", ["-c", script, file.path] + arguments)
        XCTAssertEqual(run.status, 0, run.stderr)
        return try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
    }

    // MARK: Amounts near Int64.max

    func testFaresNearInt64MaxSaturateInEveryFormatInsteadOfEndingTheProcess() throws {
        try scanJapanIC(Self.trips)
        // An archive someone else wrote (or a plugin's amounts): every trip costs Int64.max.
        _ = try archive.sql("UPDATE records SET amount = 9223372036854775807 WHERE type = 'trip'")
        let json = try archive.transit(["report", "0114AABBCCDDEEFF", "--month", "2026-11", "--format", "json"])
        XCTAssertFalse(json.crashed, json.stderr)
        XCTAssertEqual(json.status, 0, json.stderr)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], json.stdout)
        let totals = try XCTUnwrap(report["totals"] as? [String: Any])
        XCTAssertEqual((totals["fares"] as? NSNumber)?.int64Value, Int64.max, "the sum stops at the largest amount: \(totals)")
        XCTAssertEqual(totals["trips"] as? Int, Self.trips.count)
        for format in ["text", "html", "ofx", "sfcard"] {
            let run = try archive.transit(["report", "--month", "2026-11", "--format", format])
            XCTAssertFalse(run.crashed, "\(format): \(run.stderr)")
            XCTAssertEqual(run.status, 0, "\(format): \(run.stderr)")
        }
    }

    // MARK: A period of the whole calendar

    func testAnHTMLReportOfTheWholeCalendarIsQuickWithFewVisibleBars() throws {
        try scanJapanIC(Self.trips)
        // 4,000 more trips on the same days (copies of the card's, numbered on): many rows to place in bars.
        _ = try archive.sql("""
            WITH RECURSIVE k(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM k WHERE n < 1333)
            INSERT INTO records (card, position, identity, sequence, type, amount, balance, date, entry_station, entry_name, exit_station,
                                 exit_name, record, first_read, last_read, entry_name_en, exit_name_en)
            SELECT card, position + 10 * n, identity || '/' || n, NULL, type, 160, balance, date, entry_station, entry_name, exit_station,
                   exit_name, record, first_read, last_read, entry_name_en, exit_name_en FROM records, k
            """)
        let started = Date()
        let run = try archive.transit(["report", "--from", "0001-01-01", "--to", "9999-12-31", "--format", "html"])
        let seconds = Date().timeIntervalSince(started)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertLessThan(seconds, 5, "the page of 9,999 years took \(seconds) s")
        let svg = try XCTUnwrap(run.stdout.range(of: "<svg").flatMap { start in run.stdout.range(of: "</svg>").map { run.stdout[start.lowerBound ..< $0.upperBound] } })
        let bars = svg.components(separatedBy: "<rect class=\"bar\"").dropFirst()
        XCTAssertEqual(bars.count, 1, "the trips' years in one bar")
        // A bar a reader can see: the chart has a few hundred slots at most, not one a month of 9,999 years.
        let widths = bars.compactMap { bar in bar.range(of: #"width="[0-9.]+""#, options: .regularExpression).flatMap { Double(bar[$0].dropFirst(7).dropLast()) } }
        XCTAssertEqual(widths.count, 1)
        XCTAssertGreaterThanOrEqual(widths.first ?? 0, 1, "bar width \(widths) of 720")
        XCTAssertLessThanOrEqual(svg.components(separatedBy: "<text class=\"label\"").count - 1, 2 + 24, "a few axis labels")
        XCTAssertTrue(svg.contains("Fares per"), String(svg.prefix(300)))
        XCTAssertFalse(svg.contains("Fares per month"), "9,999 years are not drawn a month a bar")
        // The rows are all there.
        XCTAssertEqual(run.stdout.components(separatedBy: "<tr><td class=\"date\">").count - 1, Self.trips.count * 1334)
    }

    // MARK: SFCard Viewer's memo of a bus auto-charge

    func testABusAutoChargeIsNotedAsAnAutoChargeInSFCardViewersCSV() throws {
        // Japan IC process 17h on a bus console (05h): an auto-charge of 1,000 yen, the bus line and stop in the record.
        let trip = ReportFixture.block(W(sequence: 1, kind: "trip", month: 11, day: 3, balance: 500, memo: "", stations: true))
        let date = (2026 - 2000) << 9 | 11 << 5 | 4
        let charge = [0x05, 0x17, 0, 0, date >> 8, date & 0xFF, 0x0A, 0x12, 0x34, 0x56, 1500 & 0xFF, 1500 >> 8, 0, 0, 2, 0x90]
            .map { String(format: "%02X", $0) }.joined()
        var image = CardImages.japanIC(history: [charge, trip], balance: 1500)
        image.felica?.idm = "0114AABBCCDDEEFF"
        XCTAssertEqual(try archive.scan(try CardImages.write(image, in: archive.directory)).status, 0)
        let out = archive.directory.appendingPathComponent("sfcard.csv").path
        let run = try archive.transit(["report", "--month", "2026-11", "--format", "sfcard", "--out", out])
        XCTAssertEqual(run.status, 0, run.stderr)
        let script = "import csv,io,json,sys\nprint(json.dumps(list(csv.reader(io.StringIO(open(sys.argv[1],'rb').read().decode('shift_jis'), newline='')))))"
        let parsed = try CommandRun.run("/usr/bin/python3", ["-c", script, out])
        XCTAssertEqual(parsed.status, 0, parsed.stderr)
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(parsed.stdout.utf8)) as? [[String]]).dropFirst(2)
        XCTAssertEqual(rows.first, ["2026/11/04", "", "", "", "", "", "", "-1000", "1500", "ｵｰﾄﾁｬｰｼﾞ"], "the README's memo for 17h")
        XCTAssertEqual(rows.count, 2)
    }

    // MARK: OFX's statement period in the card's zone

    func testEveryOFXTransactionPostsWithinTheStatementsStartAndEnd() throws {
        try XCTSkipUnless((try? CommandRun.run(BuildProducts.python, ["-c", "import ofxtools"]))?.status == 0, "ofxtools is not installed (scripts/test-setup.sh)")
        // Singapore time (UTC+8): 00:20 on 1 November is 16:20 UTC on 31 October; 23:50 on 30 November is 15:50 UTC.
        let records = [W(sequence: 1, kind: "topup", month: 10, day: 31, time: "23:50:00", amount: 2000, memo: "", stations: false),
                       W(sequence: 2, kind: "trip", month: 11, day: 1, time: "00:20:00", amount: 128, memo: "", stations: false),
                       W(sequence: 3, kind: "trip", month: 11, day: 30, time: "23:50:00", amount: 99, memo: "", stations: false),
                       W(sequence: 4, kind: "trip", month: 12, day: 1, time: "00:10:00", amount: 110, memo: "", stations: false)]
        var ezlink = try CardImages.sample("ezlink.json")
        ezlink.editApplication(select: "00A40000024000") { $0.commands["90320300010000"] = records.reversed().map(ReportFixture.cepasRecord).joined() + "9000" }
        XCTAssertEqual(try archive.scan(try CardImages.write(ezlink, in: archive.directory)).status, 0)
        let file = archive.directory.appendingPathComponent("november.ofx").path
        let run = try archive.transit(["report", "--month", "2026-11", "--format", "ofx", "--out", file])
        XCTAssertEqual(run.status, 0, run.stderr)
        let script = """
            import json,sys
            from ofxtools.Parser import OFXTree
            t=OFXTree(); t.parse(sys.argv[1]); s=t.convert().statements[0]
            print(json.dumps({'start': s.banktranlist.dtstart.isoformat(), 'end': s.banktranlist.dtend.isoformat(),
              'posted': [x.dtposted.isoformat() for x in s.transactions],
              'inside': [s.banktranlist.dtstart <= x.dtposted <= s.banktranlist.dtend for x in s.transactions]}))
            """
        let parsed = try CommandRun.run(BuildProducts.python, ["-c", script, file])
        XCTAssertEqual(parsed.status, 0, parsed.stderr)
        let result = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(parsed.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(result["posted"] as? [String], ["2026-10-31T16:20:00+00:00", "2026-11-30T15:50:00+00:00"], "November's two trips")
        XCTAssertEqual(result["inside"] as? [Bool], [true, true], "\(result)")
        // The statement covers November in Singapore, not a day more: 31 October's 23:50 and 1 December's 00:10 lie outside.
        XCTAssertEqual(result["start"] as? String, "2026-10-31T16:00:00+00:00")
        XCTAssertEqual(result["end"] as? String, "2026-11-30T15:59:59+00:00")
    }

    // MARK: OFX a parser takes (issue 36 §3, issue 37 §4)

    func testOFXWithNoncharactersAndDecomposedLongNamesParsesInExpatOfxtoolsAndLibofx() throws {
        try XCTSkipUnless((try? CommandRun.run(BuildProducts.python, ["-c", "import ofxtools"]))?.status == 0, "ofxtools is not installed (scripts/test-setup.sh)")
        // A decomposed (NFD) Japanese name, as text from macOS often is: 40 kana with a voicing mark each, 80 code points.
        let decomposed = String(repeating: "\u{304B}\u{3099}", count: 40)
        let entry = "Shinjuku Sanchome Higashiguchi Exit\u{FFFF}"
        let exit = "\u{FFFE}" + decomposed
        let stations = archive.directory.appendingPathComponent("stations.csv").path
        try "area,line,station,operator,line_name,station_name\n2,E3,3B,JR,Line,\(entry)\n1,E6,21,JR,Line,\(exit)\n"
            .write(toFile: stations, atomically: true, encoding: .utf8)
        // Three trips (the oldest with no amount the card tells) and a purchase the card dates with a time (+9).
        try scanJapanIC(Self.trips + [W(sequence: 4, kind: "purchase", month: 11, day: 20, time: "13:45:00", balance: 4370,
                                          amount: 150, memo: "物販", stations: false)])
        let file = archive.directory.appendingPathComponent("hostile.ofx").path
        let run = try archive.transit(["report", "--month", "2026-11", "--format", "ofx", "--stations", stations, "--out", file])
        XCTAssertEqual(run.status, 0, run.stderr)
        // Expat (Python's XML parser) takes the whole statement.
        let parsed = try CommandRun.run("/usr/bin/python3", ["-c", """
            import json,sys
            import xml.parsers.expat
            import xml.etree.ElementTree as E
            p=xml.parsers.expat.ParserCreate(); p.Parse(open(sys.argv[1],'rb').read(), True)
            root=E.parse(sys.argv[1]).getroot()
            l=next(root.iter('BANKTRANLIST'))
            print(json.dumps({'start': l.findtext('DTSTART'), 'end': l.findtext('DTEND'),
              'txs': [[t.findtext('TRNTYPE'), t.findtext('TRNAMT'), t.findtext('NAME'), t.findtext('MEMO')] for t in root.iter('STMTTRN')]}))
            """, file])
        XCTAssertEqual(parsed.status, 0, "expat refused it: \(parsed.stderr)")
        let result = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(parsed.stdout.utf8)) as? [String: Any], parsed.stdout)
        let txs = try XCTUnwrap(result["txs"] as? [[String]])
        XCTAssertEqual(txs.count, 4, "\(txs)")
        XCTAssertEqual(txs.first?[0], "OTHER", "an amount the card does not tell moves no money: \(txs)")
        XCTAssertEqual(txs.dropFirst().map { $0[0] }, ["DEBIT", "DEBIT", "DEBIT"])
        for t in txs {
            XCTAssertLessThanOrEqual(t[2].unicodeScalars.count, 32, "NAME in code points: \(t[2])")
            XCTAssertLessThanOrEqual(t[3].unicodeScalars.count, 255, "MEMO in code points: \(t[3])")
            XCTAssertFalse(t[2].unicodeScalars.contains { $0.value == 0xFFFF || $0.value == 0xFFFE } || t[3].unicodeScalars.contains { $0.value == 0xFFFF || $0.value == 0xFFFE })
        }
        // The trips' NAME, too long, is cut after a whole word, with an ellipsis.
        let name = try XCTUnwrap(txs.first?[2])
        XCTAssertTrue(name.hasSuffix("…"), name)
        let words = "Trip: \(entry)".split(separator: " ").map(String.init)
        let kept = String(name.dropLast()).split(separator: " ").map(String.init)
        XCTAssertEqual(kept, Array(words.prefix(kept.count)), "whole words: \(name)")
        // The decomposed name composed: 40 code points of it in the MEMO, not 80.
        XCTAssertTrue(txs.first?[3].contains(String(repeating: "\u{304C}", count: 40)) == true, "\(txs.first?[3] ?? "")")
        // DTSTART and DTEND in one zone, the card's (+9: the purchase's), covering November there.
        XCTAssertEqual(result["start"] as? String, "20261101000000.000[+9]")
        XCTAssertEqual(result["end"] as? String, "20261130235959.000[+9]")
        // ofxtools (beancount's and ledger's importers), strict, takes every length.
        let strict = try CommandRun.run(BuildProducts.python, ["-W", "error", "-c", """
            import sys
            from ofxtools.Parser import OFXTree
            t=OFXTree(); t.parse(sys.argv[1]); s=t.convert().statements[0]
            print(len(s.transactions), s.banktranlist.dtstart.isoformat(), s.banktranlist.dtend.isoformat())
            """, file])
        XCTAssertEqual(strict.status, 0, strict.stderr)
        XCTAssertEqual(strict.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "4 2026-10-31T15:00:00+00:00 2026-11-30T14:59:59+00:00")
        // libofx (GnuCash, KMyMoney, HomeBank) reads every transaction: Tests/Fixtures/ofx_read.c, built against Debian's libofx-dev.
        if FileManager.default.fileExists(atPath: "/usr/include/libofx/libofx.h") {
            let reader = archive.directory.appendingPathComponent("ofx_read").path
            let source = BuildProducts.packageRoot.appendingPathComponent("Tests/Fixtures/ofx_read.c").path
            let built = try CommandRun.run("/usr/bin/gcc", ["-o", reader, source, "-lofx"])
            XCTAssertEqual(built.status, 0, built.stderr)
            let read = try CommandRun.run(reader, [file])
            XCTAssertEqual(read.status, 0, read.stderr)
            let rows = read.stdout.split(separator: "\n").map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
            XCTAssertEqual(rows.map { $0.first ?? "" }, ["16", "1", "1", "1"], "OFX_OTHER, then three OFX_DEBIT (libofx.h): \(read.stdout)")
            XCTAssertEqual(rows.map { $0.count > 1 ? $0[1] : "" }, ["0.00", "-160.00", "-160.00", "-150.00"], read.stdout)
            XCTAssertEqual(rows.first.map { $0.count > 3 ? $0[3] : "" }, txs.first?[2], "libofx reads the NAME expat read")
        } else if ProcessInfo.processInfo.environment["CI"] == "true" {
            XCTFail("libofx-dev is needed to build the libofx reader; scripts/setup.sh installs it")
        }
    }
}

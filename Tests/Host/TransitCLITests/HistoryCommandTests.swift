import Foundation
import TestSupport
import XCTest

/// `transit cards`, `history`, `export` and `forget` as a user sees them.
final class HistoryCommandTests: XCTestCase {
    var archive: ArchiveFixture!
    override func setUp() {
        archive = ArchiveFixture()
        for name in ["suica", "ezlink", "tmoney"] { _ = try? archive.scan(BuildProducts.sample("\(name).json")) }
    }
    override func tearDown() { archive.remove() }

    func testCardsListsEachCardWithItsBalanceAndRecords() throws {
        let run = try archive.transit(["cards"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 4, run.stdout)
        XCTAssertTrue(lines[1].contains("012E4CD8A1B2C3D4") && lines[1].contains("¥2,010") && lines[1].hasSuffix(" 5"), String(lines[1]))
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(archive.transit(["cards", "--json"]).stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(json.map { $0["family"] as? String }, ["japan-ic", "cepas", "ksx6924"])
        XCTAssertEqual(json.first?["records"] as? Int, 5)
    }

    func testACardIsNamedByItsNumberAPrefixOrItsIDm() throws {
        XCTAssertEqual(try archive.history("012E4CD8A1B2C3D4").count, 1)
        XCTAssertEqual(try archive.history("012e4c").first?["family"] as? String, "japan-ic")
        let none = try archive.transit(["history", "99999"])
        XCTAssertEqual(none.status, 2)
        XCTAssertTrue(none.stderr.contains("no card 99999"), none.stderr)
        XCTAssertEqual(try archive.transit(["history", "0"]).status, 0, "only the Suica's number starts with 0")
    }

    /// Edy (number 1234…, IDm 0116A0…) and nanaco (7100…, IDm 0116C0…): "01" begins the Suica's
    /// number and the two IDms, and the list says which cards matched by their IDm.
    func testAnAmbiguousPrefixSaysWhichCardsMatchedByTheirIDm() throws {
        for name in ["edy", "nanaco"] { XCTAssertEqual(try archive.scan(BuildProducts.sample("\(name).json")).status, 0) }
        let run = try archive.transit(["history", "01"])
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertTrue(run.stderr.contains("(japan-ic 012E4CD8A1B2C3D4)"), "matched by its number: \(run.stderr)")
        XCTAssertTrue(run.stderr.contains("(edy 1234567890123456, matched by its IDm 0116A0B1C2D3E4F5)"), run.stderr)
        XCTAssertTrue(run.stderr.contains("(nanaco 7100001234567890, matched by its IDm 0116C0D1E2F30415)"), run.stderr)
    }

    /// `history` prints scan's rows for the same card: type words (top-up), one date-time format,
    /// the details (CEPAS's BGB-TPG, BUS 174), and the number grouped as printed.
    func testHistoryRowsAreScansRowsForTheSameCard() throws {
        for (sample, number) in [("ezlink", "1009 1234 5678 9012"), ("suica", "IDm 012E4CD8A1B2C3D4")] {
            let scan = try CommandRun.transit(["scan", "--card", BuildProducts.sample("\(sample).json"), "--no-save"])
            let history = try archive.transit(["history", number.replacingOccurrences(of: "IDm ", with: "").replacingOccurrences(of: " ", with: "")])
            XCTAssertEqual(history.status, 0, history.stderr)
            let scanLines = scan.stdout.split(separator: "\n").map(String.init)
            let historyLines = history.stdout.split(separator: "\n").map(String.init)
            XCTAssertTrue(historyLines.first?.contains(number) == true, "\(historyLines.first ?? "")")
            // The table: the same header, and every row of the scan among history's (oldest first).
            let header = try XCTUnwrap(scanLines.first { $0.hasPrefix("Date") }, scan.stdout)
            XCTAssertTrue(historyLines.contains(header), "\(header) in \(history.stdout)")
            let rows = scanLines.drop { $0 != header }.dropFirst()
            XCTAssertFalse(rows.isEmpty)
            for row in rows { XCTAssertTrue(historyLines.contains(row), "scan's row \(row) not in history:\n\(history.stdout)") }
        }
        let cards = try archive.transit(["cards"]).stdout
        XCTAssertTrue(cards.contains("1009 1234 5678 9012"), cards)
        let ezlink = try archive.transit(["history", "1009123456789012"]).stdout
        for words in ["top-up", "BGB-TPG", "BUS 174", "2026-11-20 08:15:30"] { XCTAssertTrue(ezlink.contains(words), "\(words) in \(ezlink)") }
        XCTAssertFalse(ezlink.contains("topup"), ezlink)
    }

    func testHistoryPrintsTheTimelineOldestFirstAndSince() throws {
        let run = try archive.transit(["history", "012E4CD8A1B2C3D4"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let rows = run.stdout.split(separator: "\n").filter { $0.hasPrefix("2026-") }
        XCTAssertEqual(rows.count, 5)
        XCTAssertTrue(rows.last?.contains("E33B → E621") ?? false, run.stdout)
        XCTAssertTrue(rows.last?.contains("-¥160") ?? false, run.stdout)
        let since = try archive.transit(["history", "012E4CD8A1B2C3D4", "--since", "2026-11-04"])
        XCTAssertEqual(since.stdout.split(separator: "\n").filter { $0.hasPrefix("2026-") }.count, 2)
        XCTAssertEqual(try archive.transit(["history", "--since", "yesterday"]).status, 2)
        // The JSON, written as the records are read, keeps the same two (the sample's trips of
        // 2026-11-04 and 2026-11-05) and every card's head before them.
        let json = try archive.transit(["history", "012E4CD8A1B2C3D4", "--since", "2026-11-04", "--json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let cards = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(cards.count, 1)
        XCTAssertEqual(cards.first?["serialNumber"] as? String, "012E4CD8A1B2C3D4")
        let dates = (cards.first?["transactions"] as? [[String: Any]])?.compactMap { ($0["date"] as? String)?.prefix(10) }
        XCTAssertEqual(dates, ["2026-11-04", "2026-11-05"])
        let everyCard = try archive.transit(["history", "--json"])
        XCTAssertEqual((try JSONSerialization.jsonObject(with: Data(everyCard.stdout.utf8)) as? [Any])?.count, 3)
    }

    func testCSVReadsBackToTheSameRows() throws {
        let out = archive.directory.appendingPathComponent("history.csv").path
        let run = try archive.transit(["export", "--format", "csv", "--out", out])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual((try FileManager.default.attributesOfItem(atPath: out)[.posixPermissions] as? Int), 0o600)
        // Python's csv module, an independent RFC 4180 reader.
        let script = "import csv,json,sys\nprint(json.dumps(list(csv.reader(open(sys.argv[1], newline='')))))"
        let parsed = try CommandRun.run("/usr/bin/python3", ["-c", script, out])
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(parsed.stdout.utf8)) as? [[String]])
        XCTAssertEqual(rows.first, ["card", "date", "time", "type", "amount", "balance", "entry_station", "entry_station_name",
                                    "exit_station", "exit_station_name", "currency", "nickname",
                                    "entry_station_name_local", "exit_station_name_local", "details"])
        let history = try archive.history()
        XCTAssertEqual(rows.count - 1, history.reduce(0) { $0 + (($1["transactions"] as? [Any])?.count ?? 0) })
        let suica = rows.filter { $0[0] == "012E4CD8A1B2C3D4" }
        // Balances as the card stored them (bytes 10–11): 2010 after the 160 trip, 2170 before it.
        XCTAssertEqual(suica.last, ["012E4CD8A1B2C3D4", "2026-11-05", "", "trip", "-160", "2010", "E33B", "", "E621", "", "JPY", "", "", "", ""])
        XCTAssertEqual(suica[3], ["012E4CD8A1B2C3D4", "2026-11-04", "13:45:00", "purchase", "-120", "2170", "", "", "", "", "JPY", "", "", "", ""])
        XCTAssertEqual(rows.filter { $0[10] == "SGD" }.map { $0[4] }, ["", "20.00", "-0.99", "-1.28"], "S$ in dollars and cents")
        // The same rows on stdout.
        let stdout = try archive.transit(["export"])
        XCTAssertEqual(stdout.stdout, try String(contentsOfFile: out, encoding: .utf8))
    }

    func testExportAsJSONIsWhatHistoryPrints() throws {
        XCTAssertEqual(try archive.transit(["export", "--format", "json"]).stdout, try archive.transit(["history", "--json"]).stdout)
        let json = try archive.transit(["export", "--format", "json"])
        XCTAssertEqual(json.status, 0)
        XCTAssertEqual((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [Any])?.count, 3)
        XCTAssertEqual(try archive.transit(["export", "--format", "xml"]).status, 2)
    }

    func testExportNeverWritesThroughASymlink() throws {
        let target = archive.directory.appendingPathComponent("victim")
        try "victim".write(to: target, atomically: true, encoding: .utf8)
        let link = archive.directory.appendingPathComponent("out.csv").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target.path)
        XCTAssertEqual(try archive.transit(["export", "--out", link]).status, 0)
        XCTAssertEqual(try String(contentsOf: target, encoding: .utf8), "victim")
    }

    func testForgetRemovesTheCardAndItsReads() throws {
        XCTAssertEqual(try archive.scan(BuildProducts.sample("suica.json")).status, 0)
        // A prefix would remove a card unasked: the whole number, the id, or --yes.
        let prefix = try archive.transit(["forget", "012E4CD8"])
        XCTAssertEqual(prefix.status, 2, prefix.stderr)
        XCTAssertTrue(prefix.stderr.contains("it begins the number of #1 (japan-ic 012E4CD8A1B2C3D4)"), prefix.stderr)
        XCTAssertEqual(try archive.history().count, 3, "nothing removed")
        let run = try archive.transit(["forget", "012E4CD8", "--yes"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("2 reads and 5 records removed"), run.stdout)
        XCTAssertEqual(try archive.history().map { $0["family"] as? String }, ["cepas", "ksx6924"])
        XCTAssertEqual(try archive.sql("SELECT COUNT(*) FROM reads WHERE reading LIKE '%012E4CD8A1B2C3D4%'"), "0\n")
        let raw = try Data(contentsOf: URL(fileURLWithPath: archive.database))
        XCTAssertNil(raw.range(of: Data("012E4CD8A1B2C3D4".utf8)), "overwritten, not left in free pages")
        XCTAssertEqual(try archive.transit(["forget", "012E4CD8A1B2C3D4"]).status, 2, "already gone")
        XCTAssertEqual(try archive.transit(["forget"]).status, 2)
    }
}

extension HistoryCommandTests {
    func testExportNamesStationsFromATableLoadedAtExportTime() throws {
        // A table written now names the codes of records read before it existed (area 2 for E33B,
        // area 1 for E621, as the sample's region bits say); the names are made up.
        let table = archive.directory.appendingPathComponent("stations.csv")
        try "area,line,station,operator,line_name,station_name\n2,E3,3B,Op,Line,Alpha\n1,E6,21,Op,Line,Beta\n"
            .write(to: table, atomically: true, encoding: .utf8)
        let run = try archive.transit(["export", "012E4CD8A1B2C3D4", "--stations", table.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        let last = run.stdout.split(separator: "\r\n").last.map(String.init) ?? ""
        XCTAssertEqual(last, "012E4CD8A1B2C3D4,2026-11-05,,trip,-160,2010,E33B,Alpha,E621,Beta,JPY,,Alpha,Beta,", run.stdout)
    }

    /// history names stations from the tables there are now, as export does; history follows
    /// scan's locale rule (English where the table has it, unless the locale is Japanese), the CSV
    /// gives both names in every locale: English (else the table's) and the table's own.
    func testHistoryAndExportNameStationsInTheLanguageScanWould() throws {
        let table = archive.directory.appendingPathComponent("stations.csv")
        try "area,line,station,operator,line_name,station_name,station_name_en\n2,E3,3B,Op,Line,新宿,Shinjuku\n1,E6,21,Op,Line,品川,Shinagawa\n"
            .write(to: table, atomically: true, encoding: .utf8)
        let english = ["LANG": "en_US.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""], japanese = try Self.japanese()
        let history = try archive.transit(["history", "012E4CD8A1B2C3D4", "--stations", table.path], english)
        XCTAssertEqual(history.status, 0, history.stderr)
        XCTAssertTrue(history.stdout.contains("Shinjuku") && history.stdout.contains("Shinagawa"), history.stdout)
        let scan = try archive.transit(["scan", "--card", BuildProducts.sample("suica.json"), "--no-save", "--stations", table.path], english)
        let row = try XCTUnwrap(scan.stdout.split(separator: "\n").first { $0.contains("Shinjuku") }, scan.stdout)
        XCTAssertTrue(history.stdout.contains(row), "scan's row \(row) in history:\n\(history.stdout)")
        let csv = try archive.transit(["export", "012E4CD8A1B2C3D4", "--stations", table.path], english)
        XCTAssertTrue(csv.stdout.contains(",E33B,Shinjuku,E621,Shinagawa,"), csv.stdout)
        let csvJapanese = try archive.transit(["export", "012E4CD8A1B2C3D4", "--stations", table.path], japanese)
        XCTAssertTrue(csvJapanese.stdout.contains(",E33B,Shinjuku,E621,Shinagawa,JPY,,新宿,品川,"), csvJapanese.stdout)
        XCTAssertEqual(csvJapanese.stdout, csv.stdout, "a machine format never changes with the locale")
        let historyJapanese = try archive.transit(["history", "012E4CD8A1B2C3D4", "--stations", table.path], japanese)
        XCTAssertTrue(historyJapanese.stdout.contains("新宿"), historyJapanese.stdout)
    }

    /// The archive keeps both names a read carried: with the table gone, history and export
    /// still give the English one to an English locale and the Japanese one to a Japanese locale;
    /// export gives both in both.
    func testTheArchiveKeepsTheEnglishNamesTheReadCarried() throws {
        let other = ArchiveFixture()
        defer { other.remove() }
        let table = other.directory.appendingPathComponent("stations.csv")
        try "area,line,station,operator,line_name,station_name,station_name_en\n2,E3,3B,Op,Line,新宿,Shinjuku\n1,E6,21,Op,Line,品川,Shinagawa\n"
            .write(to: table, atomically: true, encoding: .utf8)
        XCTAssertEqual(try other.scan(BuildProducts.sample("suica.json"), ["--stations", table.path]).status, 0)
        try FileManager.default.removeItem(at: table)
        let english = ["LANG": "en_US.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""], japanese = try Self.japanese()
        XCTAssertTrue(try other.transit(["history"], english).stdout.contains("Shinjuku (Op Line) → Shinagawa"))
        XCTAssertTrue(try other.transit(["history"], japanese).stdout.contains("新宿 (Op Line) → 品川"))
        XCTAssertTrue(try other.transit(["export"], english).stdout.contains(",E33B,Shinjuku,E621,Shinagawa,"))
        XCTAssertTrue(try other.transit(["export"], japanese).stdout.contains(",E33B,Shinjuku,E621,Shinagawa,JPY,,新宿,品川,"))
        XCTAssertEqual(try other.sql("SELECT entry_name_en FROM records WHERE entry_station = 'E33B' LIMIT 1"), "Shinjuku\n")
    }
}

/// What the report of the last round found: cards that share a number, `--out`, the JSON export,
/// a forget the write-ahead log kept busy.
extension HistoryCommandTests {
    /// A Japan IC and an Octopus card both print their IDm: two cards of one number.
    private func octopusWithSuicasNumber() throws -> String {
        var image = try CardImages.sample("octopus.json")
        image.felica?.idm = "012E4CD8A1B2C3D4"
        return try CardImages.write(image, in: archive.directory)
    }

    func testCardsThatShareANumberAreNamedByTheirIds() throws {
        XCTAssertEqual(try archive.scan(try octopusWithSuicasNumber()).status, 0)
        let cards = try archive.transit(["cards"])
        XCTAssertTrue(cards.stdout.hasPrefix("Id"), cards.stdout)
        XCTAssertTrue(cards.stdout.contains("#1  Suica (japan-ic)"), cards.stdout)
        XCTAssertTrue(cards.stdout.contains("#4  Octopus (octopus)"), cards.stdout)
        let both = try archive.transit(["forget", "012E4CD8A1B2C3D4"])
        XCTAssertEqual(both.status, 2)
        XCTAssertTrue(both.stderr.contains("is the number of 2 cards: #1 (japan-ic 012E4CD8A1B2C3D4), #4 (octopus 012E4CD8A1B2C3D4); name one by its id"),
                      both.stderr)
        XCTAssertEqual(try archive.history("octopus:012E4CD8A1B2C3D4").first?["family"] as? String, "octopus")
        XCTAssertEqual(try archive.history("#4").first?["id"] as? String, "#4")
        let forgot = try archive.transit(["forget", "#4"])
        XCTAssertEqual(forgot.status, 0, forgot.stderr)
        XCTAssertEqual(try archive.history().map { $0["family"] as? String }, ["japan-ic", "cepas", "ksx6924"])
        XCTAssertEqual(try archive.transit(["forget", "0"]).status, 2, "one character of a prefix removes nothing")
        XCTAssertEqual(try archive.history().count, 3)
    }

    func testOutDashIsStandardOutputAndADeviceIsNeverReplaced() throws {
        let stdout = try archive.transit(["export", "--out", "-"])
        XCTAssertEqual(stdout.status, 0, stdout.stderr)
        XCTAssertTrue(stdout.stdout.hasPrefix("card,date,time,type"), stdout.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "-"), "no file named -")
        let fifo = archive.directory.appendingPathComponent("fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        for target in [fifo, "/dev/null"] {
            let run = try archive.transit(["export", "--out", target])
            XCTAssertEqual(run.status, 2, run.stderr)
            XCTAssertTrue(run.stderr.contains("is not a regular file; nothing was replaced"), run.stderr)
        }
        var st = stat()
        XCTAssertEqual(lstat(fifo, &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFIFO, "the FIFO is still there")
        XCTAssertEqual(lstat("/dev/null", &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFCHR, "/dev/null is still the device")
    }

    /// An edited or restored archive cannot splice text into the export: each record is encoded
    /// again from its typed form, and every escape is \u00XX.
    func testTheJSONExportEncodesEachRecordAnew() throws {
        _ = try archive.sql("UPDATE records SET record = '{\"type\":\"trip\",\"metadata\":{}}]},{\"family\":\"forged\",\"transactions\":[{\"x\":1' WHERE id = 1")
        _ = try archive.sql("UPDATE records SET record = '{\"type\":\"topup\",\"metadata\":{\"note\":\"' || char(1) || '\"}}' WHERE id = 2")
        let run = try archive.transit(["export", "--format", "json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertFalse(run.stdout.contains("\\u001\""), "no short escape")
        let cards = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]], run.stdout)
        XCTAssertEqual(cards.map { $0["family"] as? String }, ["japan-ic", "cepas", "ksx6924"], "no card object spliced in")
        let suica = try XCTUnwrap(cards.first?["transactions"] as? [[String: Any]])
        XCTAssertEqual(suica.count, 5)
        XCTAssertEqual(suica.first?["type"] as? String, "trip", "the record the text could not give is its columns'")
        XCTAssertNil(suica.first?["x"])
    }

    /// Another transit keeps the write-ahead log busy: the forget says a copy may remain, and the
    /// next one finishes it and says so, the log then empty of the card.
    func testAForgetTheLogKeptBusyIsFinishedByTheNext() throws {
        let release = archive.directory.appendingPathComponent("release").path
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        let script = "import sqlite3,sys,os,time\nc=sqlite3.connect(sys.argv[1],isolation_level=None)\nc.execute('BEGIN')\n"
            + "c.execute('SELECT COUNT(*) FROM records').fetchone()\nprint('holding',flush=True)\n"
            + "while not os.path.exists(sys.argv[2]): time.sleep(0.05)\nc.execute('COMMIT')"
        reader.arguments = ["-c", script, archive.database, release]
        let out = Pipe()
        reader.standardOutput = out
        try reader.run()
        _ = out.fileHandleForReading.readData(ofLength: 8) // "holding": its snapshot is taken
        let busy = try archive.transit(["forget", "012E4CD8A1B2C3D4"])
        XCTAssertEqual(busy.status, 2, busy.stderr)
        XCTAssertTrue(busy.stderr.contains("kept its write-ahead log busy"), busy.stderr)
        _ = FileManager.default.createFile(atPath: release, contents: nil)
        reader.waitUntilExit()
        let again = try archive.transit(["forget", "012E4CD8A1B2C3D4"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stderr.contains("finished an earlier forget"), again.stderr)
        let wal = (try? Data(contentsOf: URL(fileURLWithPath: archive.database + "-wal"))) ?? Data()
        XCTAssertNil(wal.range(of: Data("012E4CD8A1B2C3D4".utf8)), "the log no longer holds the card")
        XCTAssertEqual(try archive.history().map { $0["family"] as? String }, ["cepas", "ksx6924"])
    }
}

extension HistoryCommandTests {
    /// LANG=ja_JP.UTF-8 with the locale installed (a private LOCPATH): what gettext takes for Japanese.
    static func japanese() throws -> [String: String] {
        do { return try JapaneseLocale.environment() } catch { throw XCTSkip("\(error)") }
    }
}

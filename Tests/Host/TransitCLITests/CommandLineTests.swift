import CardSimulation
import TestSupport
import XCTest

/// The CLI contract scripts depend on: JSON shapes, error kinds, exit codes.
final class CommandLineTests: XCTestCase {
    func testScansTheBundledSampleCardImage() throws {
        let run = try CommandRun.transit(["scan", "--card", BuildProducts.sample("suica.json"), "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let json = try XCTUnwrap(run.json)
        XCTAssertEqual(json["family"] as? String, "japan-ic")
        XCTAssertEqual(json["balance"] as? Int, 2010)
        XCTAssertEqual(json["currency"] as? String, "JPY")
        XCTAssertEqual((json["transactions"] as? [Any])?.count, 5)
    }

    func testTextOutputShowsBalanceInItsCurrencyAndATable() throws {
        let run = try CommandRun.transit(["scan", "--card", BuildProducts.sample("ezlink.json")])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("Balance: S$8.97"), run.stdout)
        // One date-time column in the card's zone (Singapore, +08:00, named once in the title).
        XCTAssertTrue(run.stdout.contains("Date (UTC+08:00)     Type       Amount  Details"), run.stdout)
        XCTAssertTrue(run.stdout.contains("2026-11-18 12:00:00  top-up   +S$20.00  TOP-UP"), run.stdout)
    }

    func testUnknownFamilyIsTagNotSupportedExit4() throws {
        let run = try CommandRun.transit(["scan", "--card", BuildProducts.sample("unknown-iso.json"), "--json"])
        XCTAssertEqual(run.status, 4)
        let error = try XCTUnwrap(run.json?["error"] as? [String: Any])
        XCTAssertEqual(error["kind"] as? String, "tagNotSupported")
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, "one line on stderr")
    }

    func testUsageAndConfigErrorsExit2() throws {
        let bad = try CommandRun.transit(["scan", "--dialect", "morse", "--json"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertEqual((bad.json?["error"] as? [String: Any])?["kind"] as? String, "config")
        XCTAssertEqual(try CommandRun.transit(["frobnicate"]).status, 2)
        XCTAssertEqual(try CommandRun.transit(["scan", "--bogus"]).status, 2)

        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let conf = dir.appendingPathComponent("plugins.conf")
        try "japan-ic libTransitJapanIC.so\noops\n".write(to: conf, atomically: true, encoding: .utf8)
        let run = try CommandRun.transit(["scan", "--config", conf.path, "--card", BuildProducts.sample("suica.json"), "--json"])
        XCTAssertEqual(run.status, 2)
        let error = try XCTUnwrap(run.json?["error"] as? [String: Any])
        XCTAssertEqual(error["kind"] as? String, "config")
        XCTAssertEqual(error["message"] as? String, "\(conf.path):2: expected `name library [key=value …]`")
    }

    func testHelpAndVersion() throws {
        XCTAssertTrue(try CommandRun.transit(["--version"]).stdout.hasPrefix("transit "))
        for command in ["scan", "readers", "plugins"] {
            let run = try CommandRun.transit([command, "--help"])
            XCTAssertEqual(run.status, 0)
            XCTAssertTrue(run.stdout.hasPrefix("transit \(command)"), run.stdout)
        }
        XCTAssertTrue(try CommandRun.transit(["--help"]).stdout.contains("Exit codes"))
    }

    func testPluginsListsTheDefaultOrderWithPathsAndABI() throws {
        let run = try CommandRun.transit(["plugins", "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let rows = try XCTUnwrap((try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8))) as? [[String: Any]])
        // The default order: the repository's plugins.conf, the one list of the families.
        XCTAssertEqual(rows.map { $0["name"] as? String }, ShippedPlugins.names)
        XCTAssertGreaterThan(ShippedPlugins.names.count, 10)
        // Troika's cards come as MIFARE Classic and as Ultralight: its line names both (ABI release 5).
        XCTAssertEqual(rows.first { $0["name"] as? String == "troika" }?["technology"] as? String, "mifareClassic, mifareUltralight")
        XCTAssertEqual(rows.first { $0["name"] as? String == "hsl-ul" }?["technology"] as? String, "mifareUltralight")
        XCTAssertEqual(Set(rows.map { $0["state"] as? String }), ["loaded"])
        XCTAssertEqual(Set(rows.map { $0["abiVersion"] as? Int }), [1])
        XCTAssertEqual(rows.first?["path"] as? String, BuildProducts.plugin("TransitJapanIC"))
    }
}

/// `--verbose` says what the README promises: each plugin's outcome in probe order, the dialect
/// that worked, the exchanges and the time; `transit help COMMAND` is `transit COMMAND --help`.
extension CommandLineTests {
    func testVerboseNamesEachPluginsOutcomeTheDialectTheExchangesAndTheTime() throws {
        // WAON's sample: Japan IC's systems are absent (skipped), Edy shares FE00 (not this card).
        let run = try CommandRun.transit(["scan", "--card", BuildProducts.sample("waon.json"), "--no-save", "--verbose"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("transit: plugins, in probe order: japan-ic skipped (the card has none of its systems); edy not this card; waon read"),
                      run.stderr)
        let summary = try XCTUnwrap(run.stderr.split(separator: "\n").first { $0.hasPrefix("transit: read by waon: ") }, run.stderr)
        XCTAssertTrue(summary.contains(" exchanges with the reader, dialect part3, ") && summary.hasSuffix(" ms"), String(summary))
        let dump = try CommandRun.transit(["dump", "--card", BuildProducts.sample("ezlink.json"), "--out", "-", "--verbose"])
        XCTAssertTrue(dump.stderr.contains("transit: read by cepas: 4 exchanges"), dump.stderr)
        let quiet = try CommandRun.transit(["scan", "--card", BuildProducts.sample("waon.json"), "--no-save"])
        XCTAssertFalse(quiet.stderr.contains("probe order"), quiet.stderr)
    }

    func testHelpCommandIsTheCommandsOwnHelp() throws {
        for command in ["scan", "history", "watch"] {
            let help = try CommandRun.transit(["help", command]), own = try CommandRun.transit([command, "--help"])
            XCTAssertEqual(help.status, 0, help.stderr)
            XCTAssertEqual(help.stdout, own.stdout)
        }
        XCTAssertEqual(try CommandRun.transit(["help", "nosuch"]).status, 2)
        XCTAssertTrue(try CommandRun.transit(["help"]).stdout.contains("Usage:"))
    }

    func testPluginsHelpNamesTheColumnsInTheOrderTheyArePrinted() throws {
        let help = try CommandRun.transit(["plugins", "--help"]).stdout
        // (wrapped to 80 columns wherever the line breaks fall)
        XCTAssertTrue(help.replacingOccurrences(of: "\n", with: " ").contains("name, state, ABI version, path"), help)
        let first = try XCTUnwrap(try CommandRun.transit(["plugins"]).stdout.split(separator: "\n").dropFirst().first)
        let columns = first.split(separator: "\t")
        XCTAssertEqual(columns.count, 4, String(first))
        XCTAssertEqual(columns.first, "japan-ic")
        XCTAssertEqual(columns[1], "loaded")
        XCTAssertEqual(columns[2], "ABI 1")
        XCTAssertTrue(columns[3].hasSuffix("libTransitJapanIC.so"))
    }
}

/// `transit doctor` checks what a read keeps and names with: the history archive and the
/// station tables of the data folders.
extension CommandLineTests {
    func testDoctorChecksTheHistoryArchiveAndTheStationTables() throws {
        let archive = ArchiveFixture()
        defer { archive.remove() }
        func check(_ name: String) throws -> [String: Any]? {
            let run = try archive.transit(["doctor", "--json"])
            let checks = (try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8))) as? [[String: Any]] ?? []
            return checks.first { $0["check"] as? String == name }
        }
        XCTAssertEqual(try check("history archive")?["ok"] as? Bool, true)
        XCTAssertTrue((try check("history archive")?["detail"] as? String)?.contains("none yet") == true)
        XCTAssertEqual(try archive.scan(BuildProducts.sample("suica.json")).status, 0)
        XCTAssertTrue((try check("history archive")?["detail"] as? String)?.contains("1 card, private") == true)
        chmod(archive.database, 0o644)
        let loose = try check("history archive")
        XCTAssertEqual(loose?["ok"] as? Bool, false, "\(loose ?? [:])")
        XCTAssertTrue((loose?["detail"] as? String)?.contains("mode 644") == true, "\(loose ?? [:])")
        let folder = archive.folder.appendingPathComponent("stations")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "area,line,station,operator,line_name,station_name\n2,E3,3B,Op,Line,Alpha\n2,E3\n"
            .write(to: folder.appendingPathComponent("mine.csv"), atomically: true, encoding: .utf8)
        let stations = try check("station tables")
        XCTAssertEqual(stations?["ok"] as? Bool, false, "\(stations ?? [:])")
        let detail = stations?["detail"] as? String ?? ""
        XCTAssertTrue(detail.hasPrefix("1 table, 1 station; ") && detail.contains("mine.csv:3: 2 columns"), detail)
        // A table another user could write is passed over, and doctor says so too.
        let open = folder.appendingPathComponent("open.csv")
        try "2,E3,3C,Op,Line,Planted\n".write(to: open, atomically: true, encoding: .utf8)
        chmod(open.path, 0o666)
        let planted = try check("station tables")?["detail"] as? String ?? ""
        XCTAssertTrue(planted.contains("open.csv is not trusted") && planted.contains("writable by everyone"), planted)
    }
}

extension CommandLineTests {
    /// Through the plugin worker, as a read meets it: a bare library name found nowhere names
    /// every place searched; the other plugins still read.
    func testAMissingPluginNamesEveryPlaceSearchedInARead() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let conf = dir.appendingPathComponent("plugins.conf")
        try "nope libNope.so\ncepas \(BuildProducts.plugin("TransitCEPAS"))\n".write(to: conf, atomically: true, encoding: .utf8)
        let run = try CommandRun.transit(["scan", "--config", conf.path, "--card", BuildProducts.sample("ezlink.json"), "--no-save"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("libNope.so is in none of the places searched: \(dir.appendingPathComponent("libNope.so").path), "), run.stderr)
        XCTAssertTrue(run.stderr.contains("/lib/transit/plugins/libNope.so, "), run.stderr)
    }
}

import CardSimulation
import Foundation
import TestSupport
import XCTest
import CardProtocol
import TransitModel
import TransitFiles
import TransitEngine
import TransitStations
import TransitArchive
import TransitOutput

/// What `transit` writes, as a user (or an attacker sharing the folder) sees it: files created 0600
/// and never through a planted symlink, a log failure that still prints the read, control
/// characters from plugins and files escaped on the terminal, a failed stdout as an error exit.
final class OutputSafetyTests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    let suica = BuildProducts.sample("suica.json")

    /// The reference of DumpAndVerifyTests that suica.json fully verifies.
    func reference(name: String = "ref.json") throws -> String {
        let path = dir.appendingPathComponent(name)
        try """
        {"balance": 2010, "currency": "JPY", "journeys": [
          {"date": "2026-11-05", "amount": 160, "entryStation": "E33B", "exitStation": "E621"},
          {"date": "2026-11-03", "amount": 210, "busLine": "0A12", "busStop": "3456"},
          {"date": "2026-11-04", "time": "13:45", "amount": 120, "type": "purchase"}]}
        """.write(to: path, atomically: true, encoding: .utf8)
        return path.path
    }

    // MARK: files

    /// Plants `path -> victim` (a file of someone else's, in another folder) and returns the victim.
    func plantSymlink(at path: String, victimExists: Bool = true) throws -> String {
        let victim = temporaryDirectory().appendingPathComponent("victim").path
        if victimExists { try "victim's\n".write(toFile: victim, atomically: false, encoding: .utf8) }
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: victim)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: victim).deletingLastPathComponent().path) }
        return victim
    }

    /// The victim is as it was, and `path` is now transit's own private regular file.
    func assertNotWrittenThrough(_ path: String, victim: String, victimExisted: Bool = true,
                                 file: StaticString = #filePath, line: UInt = #line) throws {
        if victimExisted {
            XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "victim's\n", "the victim was written", file: file, line: line)
        } else {
            XCTAssertFalse(FileManager.default.fileExists(atPath: victim), "the victim was created", file: file, line: line)
        }
        var st = stat()
        XCTAssertEqual(lstat(path, &st), 0, file: file, line: line)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFREG, "\(path) is not a regular file", file: file, line: line)
        XCTAssertEqual(st.st_mode & 0o7777, 0o600, "\(path) mode", file: file, line: line)
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))), file: file, line: line)
    }

    func testVerifyReplacesASymlinkPlantedAtTheLogBesideTheReference() throws {
        let ref = try reference()
        let log = dir.appendingPathComponent("ref.log.json").path
        let victim = try plantSymlink(at: log)
        let run = try CommandRun.transit(["verify", "--reference", ref, "--card", suica])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("Log: \(log)"), run.stdout)
        try assertNotWrittenThrough(log, victim: victim)
    }

    func testVerifyLogAndScanLogAndDumpOutNeverWriteThroughASymlink() throws {
        let ref = try reference()
        let commands: [(String, [String])] = [
            ("verify.log", ["verify", "--reference", ref, "--card", suica, "--log"]),
            ("scan.log", ["scan", "--card", suica, "--log"]),
            ("dump.json", ["dump", "--card", suica, "--out"]),
        ]
        for (name, args) in commands {
            for victimExists in [true, false] {
                let path = dir.appendingPathComponent("\(victimExists)-\(name)").path
                let victim = try plantSymlink(at: path, victimExists: victimExists)
                let run = try CommandRun.transit(args + [path])
                XCTAssertEqual(run.status, 0, "\(args): \(run.stderr)")
                try assertNotWrittenThrough(path, victim: victim, victimExisted: victimExists)
            }
        }
    }

    func testAHardLinkOrAnOldFileAtTheTargetIsReplacedNotWrittenInto() throws {
        let victim = temporaryDirectory().appendingPathComponent("victim").path
        addTeardownBlock { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: victim).deletingLastPathComponent().path) }
        try "victim's\n".write(toFile: victim, atomically: false, encoding: .utf8)
        let log = dir.appendingPathComponent("scan.log").path
        try FileManager.default.linkItem(atPath: victim, toPath: log)
        XCTAssertEqual(try CommandRun.transit(["scan", "--card", suica, "--log", log]).status, 0)
        try assertNotWrittenThrough(log, victim: victim)
        // An earlier log of the user's own (0644) is replaced by the new one, 0600.
        let out = dir.appendingPathComponent("dump.json").path
        try "old".write(toFile: out, atomically: false, encoding: .utf8)
        XCTAssertEqual(chmod(out, 0o644), 0)
        XCTAssertEqual(try CommandRun.transit(["dump", "--card", suica, "--out", out]).status, 0)
        try assertNotWrittenThrough(out, victim: victim)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".tmp") }, [])
    }

    // MARK: a log that cannot be written

    func testScanPrintsTheReadAndSaysTheLogCouldNotBeWritten() throws {
        let log = dir.appendingPathComponent("missing-folder/scan.log").path
        let text = try CommandRun.transit(["scan", "--card", suica, "--log", log])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.contains("Balance: ¥2,010"), text.stdout)
        XCTAssertTrue(text.stderr.contains("transit: cannot write the log \(log): No such file or directory"), text.stderr)
        // A directory where the log should go: the rename is refused, the read still printed.
        let json = try CommandRun.transit(["scan", "--card", suica, "--json", "--log", dir.path])
        XCTAssertEqual(json.status, 0, json.stderr)
        XCTAssertEqual(json.json?["balance"] as? Int, 2010)
        XCTAssertTrue(json.stderr.contains("transit: cannot write the log \(dir.path): "), json.stderr)
    }

    func testVerifyPrintsTheVerificationAndSaysTheLogWasNotWritten() throws {
        let ref = try reference()
        let log = dir.appendingPathComponent("missing-folder/ref.log.json").path
        let text = try CommandRun.transit(["verify", "--reference", ref, "--card", suica, "--log", log])
        XCTAssertEqual(text.status, 0, "the verification's code: \(text.stderr)")
        XCTAssertTrue(text.stdout.contains("Verification: fully verified"), text.stdout)
        XCTAssertTrue(text.stdout.contains("Log: not written"), text.stdout)
        XCTAssertTrue(text.stderr.contains("transit: cannot write the log \(log)"), text.stderr)
        let json = try CommandRun.transit(["verify", "--reference", ref, "--card", suica, "--log", log, "--json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        XCTAssertEqual(json.json?["status"] as? String, "fully verified")
        XCTAssertNil(json.json?["log"], "no log to point at")
    }

    // MARK: control characters

    /// The demo card of PluginABITests, read by a plugin whose every string holds control characters.
    func controlCharacterRead(_ extra: [String]) throws -> CommandRun {
        let lib = try CPluginBuilder.build(into: dir, name: "libcontrols.so", source: "control_chars_plugin.c")
        let conf = dir.appendingPathComponent("plugins.conf")
        try "controls \(lib)\n".write(to: conf, atomically: true, encoding: .utf8)
        let card = try CardImages.write(CardImages.iso(select: "00A4040008F07472616E73697400", commands: [:]), in: dir)
        return try CommandRun.transit(["scan", "--config", conf.path, "--card", card] + extra)
    }

    /// No raw ESC, CR, tab, DEL, BEL or C1 CSI byte (C2 9B) anywhere in `text`.
    func assertNoRawControls(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        let bytes = Array(text.utf8)
        for bad: UInt8 in [0x1B, 0x0D, 0x09, 0x7F, 0x07] {
            XCTAssertFalse(bytes.contains(bad), "raw 0x\(String(bad, radix: 16)) in \(text.debugDescription)", file: file, line: line)
        }
        XCTAssertFalse(zip(bytes, bytes.dropFirst()).contains { $0 == (0xC2, 0x9B) }, "raw CSI in \(text.debugDescription)", file: file, line: line)
    }

    func testPluginStringsAreEscapedInTextOutputAndCannotForgeALine() throws {
        let run = try controlCharacterRead(["--verbose"])
        XCTAssertEqual(run.status, 0, run.stderr)
        assertNoRawControls(run.stdout)
        let lines = run.stdout.split(separator: "\n")
        XCTAssertEqual(lines.filter { $0.hasPrefix("Balance:") }, ["Balance: 2.58 EUR"], run.stdout)
        XCTAssertFalse(lines.contains { $0.contains("¥999999") && !$0.contains(#"\n"#) }, run.stdout)
        XCTAssertTrue(run.stdout.contains(#"Evil\x1B[31mRed\x1B[0m  EVIL-1\nBalance: ¥999999  [controls]"#), run.stdout)
        XCTAssertTrue(run.stdout.contains(#"Note: tab\there\rcr del\x7F csi\u009B2J"#), run.stdout)
        XCTAssertTrue(run.stdout.contains(#"at A\nBalance: ¥1, line \x1B]0;title\x07"#), run.stdout)
        // The plugin's log line (--verbose) is one escaped line on stderr.
        assertNoRawControls(run.stderr)
        XCTAssertTrue(run.stderr.contains(#"log line\x1B[2J\nBalance: forged"#), run.stderr)
        XCTAssertFalse(run.stderr.contains("\nBalance: forged"), run.stderr)
    }

    func testJSONStaysValidAndCarriesTheExactStringsWithoutRawDELOrC1() throws {
        let run = try controlCharacterRead(["--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        assertNoRawControls(run.stdout)
        XCTAssertEqual(run.stdout.split(separator: "\n").count, 1, run.stdout)
        let card = try XCTUnwrap(run.json, run.stdout)
        XCTAssertEqual(card["serialNumber"] as? String, "EVIL-1\nBalance: ¥999999")
        XCTAssertEqual((card["metadata"] as? [String: String])?["note"], "tab\there\rcr del\u{7F} csi\u{9B}2J")
    }

    func testFileNamesAndReplayedErrorsAreEscapedOnStderr() throws {
        let name = dir.appendingPathComponent("card\n\u{1B}[2Jtransit: forged\u{9B}.json").path
        let run = try CommandRun.transit(["scan", "--card", name])
        XCTAssertEqual(run.status, 2)
        assertNoRawControls(run.stderr)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
        XCTAssertTrue(run.stderr.contains(#"card\n\x1B[2Jtransit: forged\u009B.json"#), run.stderr)
        // A replayed log whose recorded exchange failed with a hostile message.
        let conf = dir.appendingPathComponent("plugins.conf")
        try "demo \(try CPluginBuilder.build(into: dir))\n".write(to: conf, atomically: true, encoding: .utf8)
        let card = try CardImages.write(CardImages.iso(select: "00A4040008F07472616E73697400", commands: ["805C000004": "000001029000"]), in: dir)
        let logPath = dir.appendingPathComponent("demo.log").path
        XCTAssertEqual(try CommandRun.transit(["scan", "--config", conf.path, "--card", card, "--log", logPath]).status, 0)
        var log = try JSONDecoder().decode(LogBundle.self, from: Data(contentsOf: URL(fileURLWithPath: logPath)))
        let balance = try XCTUnwrap(log.exchanges.firstIndex { $0.command == "805C000004" })
        log.exchanges[balance].response = nil
        log.exchanges[balance].error = TransitError(.communication, "gone\n\u{1B}[2Jtransit: forged\u{7F}")
        try JSONEncoder().encode(log).write(to: URL(fileURLWithPath: logPath))
        let replay = try CommandRun.transit(["replay", logPath, "--config", conf.path, "--verbose"])
        XCTAssertEqual(replay.status, 5, replay.stderr)
        assertNoRawControls(replay.stderr)
        XCTAssertTrue(replay.stderr.contains(#"gone\n\x1B[2Jtransit: forged\x7F"#), replay.stderr)
        XCTAssertFalse(replay.stderr.contains("\ntransit: forged"), replay.stderr)
    }

    func testWatchLinesAreOneEscapedLine() {
        let card = CardReading(family: "x\u{1B}[2J", cardName: nil, serialNumber: "1\nBalance: ¥9", balance: 5, currency: "JPY",
                               validFrom: nil, validUntil: nil, metadata: [:], transactions: [])
        let at = Date(timeIntervalSince1970: 1_796_083_200) // 2026-12-01 00:00:00 UTC
        let local = WatchLine.local(at)
        XCTAssertEqual(WatchLine.text("Reader\u{9B}", .success(card), json: false, at: at),
                       local + #" Reader\u009B: x\x1B[2J 1\nBalance: ¥9 ¥5"#)
        XCTAssertEqual(WatchLine.text("R", .failure(TransitError(.plugin, "boom\r\nR: ok")), json: false, at: at),
                       local + #" R: plugin: boom\r\nR: ok"#)
    }

    /// Each watch line says when the tap was, in this machine's zone (TZ), to the second.
    func testWatchLinesCarryTheTimeOfTheTap() throws {
        let card = CardReading(family: "cepas", cardName: "EZ-Link", serialNumber: "1009123456789012", balance: 897, currency: "SGD",
                               validFrom: nil, validUntil: nil, metadata: [:], transactions: [])
        let at = Date(timeIntervalSince1970: 1_796_083_200) // 2026-12-01 00:00:00 UTC
        let saved = ProcessInfo.processInfo.environment["TZ"]
        setenv("TZ", "Asia/Tokyo", 1); tzset(); NSTimeZone.resetSystemTimeZone()
        defer {
            if let saved { setenv("TZ", saved, 1) } else { unsetenv("TZ") }
            tzset(); NSTimeZone.resetSystemTimeZone()
        }
        XCTAssertTrue(WatchLine.text("R", .success(card), json: false, at: at).hasPrefix("2026-12-01 09:00:00 R: EZ-Link "))
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(WatchLine.text("R", .success(card), json: true, at: at).utf8)) as? [String: Any])
        XCTAssertEqual(json["time"] as? String, "2026-12-01T09:00:00+09:00")
    }

    // MARK: format controls (bidi, zero-width, tags) and separators

    /// One of each: a bidi override, isolates, marks, zero-width and tag characters, the separators.
    let spoofs = "\u{202E}\u{2066}\u{2069}\u{200E}\u{200F}\u{061C}\u{200B}\u{FEFF}\u{E0041}\u{2028}\u{2029}"
    let spoofsEscaped = #"\u202E\u2066\u2069\u200E\u200F\u061C\u200B\uFEFF\U000E0041\u2028\u2029"#

    /// None of the format controls and separators of `spoofs`, raw, in `text`.
    func assertNoRawFormatControls(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        let raw = Set(spoofs.unicodeScalars)
        XCTAssertFalse(text.unicodeScalars.contains { raw.contains($0) }, "raw format control in \(text.debugDescription)", file: file, line: line)
    }

    func testFormatControlsAreEscapedInTextOutputWatchLinesAndJSON() throws {
        let record = CardReading.TransactionRecord(type: .trip, amount: 160, entryStation: "E3\(spoofs)", exitStation: "E621",
                                                   metadata: ["note\(spoofs)": "v\(spoofs)"])
        let card = CardReading(family: "japan-ic", cardName: "Suica\(spoofs)", serialNumber: "0123\(spoofs)", balance: 2010, currency: "JPY",
                               metadata: ["idm": "01\(spoofs)"], transactions: [record])
        let text = TextOutput.render(card, style: .init(verbose: true))
        assertNoRawFormatControls(text)
        XCTAssertTrue(text.contains("Suica" + spoofsEscaped), text)
        XCTAssertTrue(text.contains("E3" + spoofsEscaped), text)
        let at = Date(timeIntervalSince1970: 1_796_083_200)
        let watch = WatchLine.text("Reader\(spoofs)", .success(card), json: false, at: at)
        assertNoRawFormatControls(watch)
        XCTAssertTrue(watch.contains("Reader\(spoofsEscaped): Suica\(spoofsEscaped)"), watch)
        let failed = WatchLine.text("R", .failure(TransitError(.plugin, "boom\(spoofs)")), json: false, at: at)
        XCTAssertTrue(failed.hasSuffix(" R: plugin: boom" + spoofsEscaped), failed)
        // JSON: escaped as \uXXXX (a tag character as its surrogate pair), decoding to the exact strings.
        for json in [JSONOutput.encode(card), WatchLine.text("Reader\(spoofs)", .success(card), json: true, at: at)] {
            assertNoRawFormatControls(json)
            XCTAssertTrue(json.contains(#"Suica\u202E\u2066\u2069\u200E\u200F\u061C\u200B\uFEFF\uDB40\uDC41\u2028\u2029"#), json)
        }
        XCTAssertEqual(try JSONDecoder().decode(CardReading.self, from: Data(JSONOutput.encode(card).utf8)), card)
    }

    /// A card file whose text (its format, a service code) holds bidi controls: the error on stderr
    /// is one line with them escaped, and decode's JSON line escapes them and decodes to the exact text.
    func testFormatControlsFromCardFilesAreEscapedOnStderrAndInJSON() throws {
        var image = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: suica))) as? [String: Any] ?? [:]
        image["format"] = "transit-card\(spoofs)"
        let card = dir.appendingPathComponent("spoof\u{202E}nosj.json")
        try JSONSerialization.data(withJSONObject: image).write(to: card)
        let run = try CommandRun.transit(["scan", "--card", card.path])
        XCTAssertEqual(run.status, 2, run.stderr)
        assertNoRawFormatControls(run.stderr)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
        XCTAssertTrue(run.stderr.contains(#"spoof\u202Enosj.json"#), run.stderr)
        XCTAssertTrue(run.stderr.contains("transit-card" + spoofsEscaped), run.stderr)
        let decode = try CommandRun.transit(["decode", card.path])
        XCTAssertEqual(decode.status, 2, decode.stderr)
        assertNoRawFormatControls(decode.stdout)
        let message = (decode.json?["error"] as? [String: Any])?["message"] as? String
        XCTAssertTrue(message?.contains("transit-card" + spoofs) == true, decode.stdout)
        XCTAssertEqual(decode.json?["file"] as? String, card.path)
    }

    func testThePluginsListEscapesFormatControls() throws {
        let conf = dir.appendingPathComponent("plugins.conf")
        // U+2028 and U+2029 end a line of plugins.conf: the name holds the rest.
        let library = dir.appendingPathComponent("lib\u{202E}\u{2066}\u{200B}\u{E0041}os.x").path
        try "demo \(library)\n".write(to: conf, atomically: true, encoding: .utf8)
        let run = try CommandRun.transit(["plugins", "--config", conf.path])
        XCTAssertEqual(run.status, 2, run.stderr)
        assertNoRawFormatControls(run.stdout)
        XCTAssertTrue(run.stdout.contains(#"lib\u202E\u2066\u200B\U000E0041os.x"# + "\t(cannot be loaded: "), run.stdout)
    }

    /// A replayed log whose ATR is 4 MB of junk: the error quotes 80 characters of it, then "…".
    func testAnErrorAboutA4MBValueQuotesAnExcerpt() throws {
        let logPath = dir.appendingPathComponent("scan.log").path
        XCTAssertEqual(try CommandRun.transit(["scan", "--card", suica, "--log", logPath, "--no-save"]).status, 0)
        var log = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: logPath))) as? [String: Any] ?? [:]
        log["atr"] = String(repeating: "\u{202E}Z", count: 2 << 20)
        try JSONSerialization.data(withJSONObject: log).write(to: URL(fileURLWithPath: logPath))
        let json = try CommandRun.transit(["replay", logPath, "--json"])
        XCTAssertEqual(json.status, 2, json.stderr)
        let message = try XCTUnwrap((json.json?["error"] as? [String: Any])?["message"] as? String, json.stdout)
        XCTAssertEqual(message, "the log's ATR is not hex: " + String(repeating: "\u{202E}Z", count: 40) + "…")
        let text = try CommandRun.transit(["replay", logPath])
        XCTAssertEqual(text.status, 2)
        XCTAssertEqual(text.stderr, "transit: the log's ATR is not hex: " + String(repeating: #"\u202EZ"#, count: 40) + "…\n")
    }

    // MARK: stdout

    func testAFullStdoutIsAnErrorExitWithOneLineOnStderr() throws {
        let full = try XCTUnwrap(FileHandle(forWritingAtPath: "/dev/full"))
        for args in [["--version"], ["scan", "--card", suica], ["scan", "--card", suica, "--json"]] {
            let run = try CommandRun.transit(args, standardOutput: full)
            XCTAssertEqual(run.status, 2, "\(args)")
            XCTAssertEqual(run.stderr, "transit: cannot write the output: No space left on device\n", "\(args)")
        }
        // An error that cannot be printed as JSON is still said on stderr.
        let missing = try CommandRun.transit(["scan", "--card", "/nonexistent.json", "--json"], standardOutput: full)
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("/nonexistent.json"), missing.stderr)
        XCTAssertTrue(missing.stderr.hasSuffix("transit: cannot write the output: No space left on device\n"), missing.stderr)
    }

    func testAClosedPipeAsStdoutIsAnErrorExit() throws {
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        let run = try CommandRun.transit(["scan", "--card", suica], standardOutput: pipe.fileHandleForWriting)
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stderr, "transit: cannot write the output: Broken pipe\n")
    }
}

import Foundation
import TestSupport
import XCTest

/// `--keys FILE` on the commands that read a card, and the keys folder, as a user meets them: the
/// option in each command's usage and help, a key file refused with its fix, a bad line named by its
/// number, and no key ever in the output. Every key here is made up.
final class KeyFileCommandTests: XCTestCase {
    /// Made up for this test; searched for in every output, in both cases.
    private let secret = "5EC12E7C0DE5", other = "0DDBA11C0FFE"
    private let commands = ["scan", "decode", "dump", "verify", "watch"]
    var dir: URL!

    override func setUpWithError() throws {
        dir = temporaryDirectory()
        XCTAssertEqual(chmod(dir.path, 0o700), 0)
    }

    override func tearDown() { if let dir { try? FileManager.default.removeItem(at: dir) } }

    /// The environment with a config folder of the test's own (no developer's keys folder is read).
    var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["XDG_CONFIG_HOME"] = dir.appendingPathComponent("config").path
        return env
    }

    var keysFolder: String { dir.appendingPathComponent("config/transit/keys").path }

    @discardableResult
    func write(_ text: String, _ path: String, mode: mode_t = 0o600) throws -> String {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        XCTAssertEqual(chmod(path, mode), 0)
        return path
    }

    func file(_ name: String) -> String { dir.appendingPathComponent(name).path }

    func transit(_ args: [String]) throws -> CommandRun { try CommandRun.transit(args, environment: environment) }

    /// Neither stream holds either made-up key, in any case.
    func assertNoKey(_ run: CommandRun, file: StaticString = #filePath, line: UInt = #line) {
        for key in [secret, other] {
            for stream in [run.stdout, run.stderr] {
                XCTAssertNil(stream.range(of: key, options: .caseInsensitive), "a key was shown: \(stream)", file: file, line: line)
            }
        }
    }

    func testKeysIsARepeatableOptionOfEachReadingCommand() throws {
        let main = try CommandRun.transit(["--help"])
        XCTAssertEqual(main.status, 0)
        for command in commands {
            let help = try CommandRun.transit([command, "--help"])
            XCTAssertEqual(help.status, 0, command)
            XCTAssertTrue(help.stdout.contains("--keys"), "\(command) --help: \(help.stdout)")
            // Its usage line in transit --help, continuation lines included, marks it repeatable.
            let usage = main.stdout.components(separatedBy: "  transit \(command) ").dropFirst().first?
                .components(separatedBy: "\n  transit ").first ?? ""
            XCTAssertTrue(usage.contains("[--keys FILE]..."), "\(command)'s usage: \(usage)")
        }
        for command in ["replay", "history", "readers"] {
            XCTAssertFalse(try CommandRun.transit([command, "--help"]).stdout.contains("--keys"), command)
        }
    }

    func testKeysAreLoadedAndCountedButNeverShownEvenVerbose() throws {
        let one = try write("# the office\n\(secret)\n\(other.lowercased())  # the gym\n", file("office.dic"))
        let two = try write("\(secret)\r\n", file("again.keys"))
        try write("\(other)\n", keysFolder + "/mine.dic")
        let run = try transit(["scan", "--card", BuildProducts.sample("suica.json"), "--keys", one, "--keys", two,
                               "--verbose", "--no-save"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("Suica"), run.stdout)
        // office.dic gives 2 keys; again.keys its 1, already loaded; the folder's 1, already loaded.
        XCTAssertTrue(run.stderr.contains("transit: 2 keys from office.dic\n"), run.stderr)
        XCTAssertTrue(run.stderr.contains("transit: 1 key from again.keys (1 already loaded from an earlier line or file)\n"), run.stderr)
        XCTAssertTrue(run.stderr.contains("transit: 1 key from mine.dic in the keys folder (1 already loaded"), run.stderr)
        assertNoKey(run)
        let json = try transit(["scan", "--card", BuildProducts.sample("suica.json"), "--keys", one, "--json", "--verbose", "--no-save"])
        XCTAssertEqual(json.status, 0, json.stderr)
        XCTAssertEqual(json.json?["balance"] as? Int, 2010)
        assertNoKey(json)
    }

    func testABadLineEndsEachCommandNamedByNumberNeverShown() throws {
        // Line 3 is the key with its last digit lost: most of a key, never to be shown.
        let bad = try write("# keys\n\(secret)\n\(other.dropLast())\n", file("bad.dic"))
        let reference = try write(#"{"balance": 2010, "journeys": []}"#, file("ref.json"))
        let card = BuildProducts.sample("suica.json")
        let runs: [(String, [String])] = [
            ("scan", ["scan", "--card", card, "--keys", bad, "--verbose", "--no-save"]),
            ("scan --json", ["scan", "--card", card, "--keys", bad, "--json", "--no-save"]),
            ("decode", ["decode", card, "--keys", bad]),
            ("dump", ["dump", "--card", card, "--out", file("image.json"), "--keys", bad, "--verbose"]),
            ("verify", ["verify", "--reference", reference, "--card", card, "--keys", bad, "--verbose", "--no-save"]),
            ("watch", ["watch", "--keys", bad, "--verbose", "--no-save"]),
        ]
        for (name, args) in runs {
            let run = try transit(args)
            XCTAssertEqual(run.status, 2, "\(name): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains("transit: \(bad) line 3 is not a key: a key is 12 hex digits"), "\(name): \(run.stderr)")
            XCTAssertNil(run.stderr.range(of: String(other.dropLast()), options: .caseInsensitive), name)
            assertNoKey(run)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: file("image.json")), "dump ends before it writes")
    }

    func testAKeyFileOthersMayReadIsRefusedWithTheChmod() throws {
        let open = try write("\(secret)\n", file("keys.dic"), mode: 0o644)
        let run = try transit(["scan", "--card", BuildProducts.sample("suica.json"), "--keys", open, "--no-save"])
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertEqual(run.stderr, "transit: key file refused: \(open) may be read or written by its group or others (mode 0644): "
                       + "a key file must be yours alone; run chmod 600 \(open)\n")
        assertNoKey(run)
        // A link to a good file is refused too.
        XCTAssertEqual(chmod(open, 0o600), 0)
        let link = file("link.dic")
        XCTAssertEqual(symlink(open, link), 0)
        let linked = try transit(["scan", "--card", BuildProducts.sample("suica.json"), "--keys", link, "--no-save"])
        XCTAssertEqual(linked.status, 2)
        XCTAssertTrue(linked.stderr.contains("\(link) is a symbolic link, which a key file may not be"), linked.stderr)
    }

    func testAFolderFileThatCannotBeUsedIsSaidAndTheReadGoesOn() throws {
        try write("\(secret)\n", keysFolder + "/a-open.dic", mode: 0o644)
        try write("\(other)\nnot a key\n", keysFolder + "/b-bad.dic")
        try write("\(other)\n", keysFolder + "/c-good.dic")
        let run = try transit(["scan", "--card", BuildProducts.sample("suica.json"), "--verbose", "--no-save"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("Suica"))
        XCTAssertTrue(run.stderr.contains("run chmod 600 \(keysFolder)/a-open.dic: passed over; the other key files still serve"), run.stderr)
        XCTAssertTrue(run.stderr.contains("\(keysFolder)/b-bad.dic line 2 is not a key"), run.stderr)
        XCTAssertTrue(run.stderr.contains("transit: 1 key from c-good.dic in the keys folder\n"), run.stderr)
        assertNoKey(run)
        // Without --verbose the passed-over files are still said, the counts not.
        let quiet = try transit(["scan", "--card", BuildProducts.sample("suica.json"), "--no-save"])
        XCTAssertEqual(quiet.status, 0)
        XCTAssertTrue(quiet.stderr.contains("a-open.dic"), quiet.stderr)
        XCTAssertFalse(quiet.stderr.contains("c-good.dic"), quiet.stderr)
    }

    func testDoctorCountsTheFolderKeysAndNamesAFileToFix() throws {
        func check() throws -> [String: Any]? {
            let run = try transit(["doctor", "--json"])
            assertNoKey(run)
            let checks = (try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8))) as? [[String: Any]] ?? []
            return checks.first { $0["check"] as? String == "Classic keys" }
        }
        XCTAssertEqual(try check()?["detail"] as? String, "no key file in \(keysFolder) (transit ships no key)")
        try write("\(secret)\n\(other)\n", keysFolder + "/mine.dic")
        XCTAssertEqual(try check()?["detail"] as? String, "1 file in \(keysFolder), 2 keys, private")
        XCTAssertEqual(chmod(keysFolder + "/mine.dic", 0o640), 0)
        let open = try check()
        XCTAssertEqual(open?["ok"] as? Bool, false)
        XCTAssertTrue((open?["detail"] as? String)?.contains("(mode 0640): a key file must be yours alone; run chmod 600 \(keysFolder)/mine.dic") == true,
                      "\(open ?? [:])")
    }
}

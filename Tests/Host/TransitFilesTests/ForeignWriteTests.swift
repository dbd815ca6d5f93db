import Foundation
import TestSupport
import XCTest

/// Root's `--out` and `--log` through another user's folders, run with the built `transit` and
/// `transit-sim`: every refusal is `config` (exit 2) naming the folder and why, comes before the
/// card is read (or vpcd reached), and writes nothing anywhere; the normal case writes a 0600 file
/// of the running user's.
final class ForeignWriteTests: XCTestCase {
    var dir: URL!
    let nobody: uid_t = 65534
    let suica = BuildProducts.sample("suica.json")

    override func setUpWithError() throws {
        try XCTSkipUnless(geteuid() == 0, "the tests play root and another user")
        dir = temporaryDirectory()
        XCTAssertEqual(chmod(dir.path, 0o755), 0)
    }

    override func tearDown() { if let dir { try? FileManager.default.removeItem(at: dir) } }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    func transit(_ arguments: [String], in folder: URL? = nil) throws -> CommandRun {
        try CommandRun.run(BuildProducts.transit, arguments, currentDirectory: folder ?? BuildProducts.packageRoot, timeout: 30)
    }

    /// The folders of the report and its kin: (a target in them, the folder and why said).
    func hostileTargets() throws -> [(target: String, said: String)] {
        let fm = FileManager.default
        // Root's own folder, the one the attacker wants written.
        try fm.createDirectory(atPath: path("root-own"), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        // Mallory's folder, with `dumps` a link to it.
        try fm.createDirectory(atPath: path("mallory"), withIntermediateDirectories: true)
        XCTAssertEqual(chown(path("mallory"), nobody, 65534), 0)
        XCTAssertEqual(symlink(path("root-own"), path("mallory/dumps")), 0)
        XCTAssertEqual(lchown(path("mallory/dumps"), nobody, 65534), 0)
        // A folder anyone may write, not sticky; one its group (nogroup) may write.
        try fm.createDirectory(atPath: path("open"), withIntermediateDirectories: true)
        XCTAssertEqual(chmod(path("open"), 0o777), 0)
        try fm.createDirectory(atPath: path("group"), withIntermediateDirectories: true)
        XCTAssertEqual(chmod(path("group"), 0o775), 0)
        XCTAssertEqual(chown(path("group"), 0, 65534), 0)
        // A link of root's own as the last folder of the path.
        XCTAssertEqual(symlink(path("root-own"), path("last")), 0)
        XCTAssertEqual(mkfifo(path("fifo"), 0o600), 0)
        return [
            (path("mallory/dumps/card.json"), "\(path("mallory")) is owned by user 65534, neither root nor you"),
            (path("open/card.json"), "\(path("open")) is writable by everyone"),
            (path("group/card.json"), "\(path("group")) is writable by its group"),
            (path("last/card.json"), "\(path("last")) is a symbolic link or not a folder: not followed"),
            (path("fifo"), "it exists and is not a regular file; nothing was replaced"),
        ]
    }

    /// Nothing but the planted nodes anywhere under the test's folder.
    func assertNothingWritten(file: StaticString = #filePath, line: UInt = #line) throws {
        let all = try FileManager.default.subpathsOfDirectory(atPath: dir.path).sorted()
        XCTAssertEqual(all, ["fifo", "group", "last", "mallory", "mallory/dumps", "open", "root-own"], file: file, line: line)
    }

    func testDumpOutAndScanLogAreRefusedNamingTheFolderBeforeTheRead() throws {
        // verify's reference, in a folder of its own.
        let refs = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: refs) }
        let reference = refs.appendingPathComponent("ref.json").path
        try #"{"balance": 2010, "currency": "JPY", "journeys": []}"#.write(toFile: reference, atomically: false, encoding: .utf8)
        for (target, said) in try hostileTargets() {
            let started = Date()
            for (args, what) in [(["dump", "--card", suica, "--out", target], "cannot write \(target): "),
                                 (["scan", "--card", suica, "--log", target], "cannot write the log \(target): "),
                                 (["verify", "--reference", reference, "--card", suica, "--log", target], "cannot write the log \(target): ")] {
                let run = try transit(args)
                XCTAssertEqual(run.status, 2, "\(args): \(run.stderr)")
                XCTAssertEqual(run.stderr, "transit: \(what)\(said)\n", "\(args)")
                XCTAssertEqual(run.stdout, "", "no read printed: \(args)")
                guard args[0] != "dump" else { continue } // dump has no --json
                let json = try transit(args + ["--json"])
                XCTAssertEqual(json.status, 2, "\(args): \(json.stderr)")
                let error = json.json?["error"] as? [String: Any]
                XCTAssertEqual(error?["kind"] as? String, "config", json.stdout)
                XCTAssertEqual(error?["message"] as? String, what + said, json.stdout)
            }
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: refs.path), ["ref.json"], "no log beside the reference")
            XCTAssertLessThan(Date().timeIntervalSince(started), 20, "\(target): no command waited on a FIFO")
            try assertNothingWritten()
        }
    }

    func testExportOutIsRefusedNamingTheFolder() throws {
        let env = ProcessInfo.processInfo.environment.merging(["XDG_DATA_HOME": path("data")]) { $1 }
        for (target, said) in try hostileTargets() {
            let run = try CommandRun.run(BuildProducts.transit, ["export", "--out", target], environment: env, timeout: 30)
            XCTAssertEqual(run.status, 2, run.stderr)
            XCTAssertEqual(run.stderr, "transit: cannot write \(target): \(said)\n")
        }
        try assertNothingWritten()
    }

    func testTheNormalCaseWritesA0600FileOfTheRunningUserAlsoFromARelativePath() throws {
        try FileManager.default.createDirectory(atPath: path("work"), withIntermediateDirectories: true)
        let work = dir.appendingPathComponent("work")
        for (args, file) in [(["dump", "--card", suica, "--out", "card.json"], "card.json"),
                             (["scan", "--card", suica, "--log", "./scan.log", "--no-save"], "scan.log"),
                             (["dump", "--card", suica, "--out", path("work/absolute.json")], "absolute.json")] {
            let run = try transit(args, in: work)
            XCTAssertEqual(run.status, 0, "\(args): \(run.stderr)")
            var st = stat()
            XCTAssertEqual(lstat(path("work/\(file)"), &st), 0, file)
            XCTAssertEqual(st.st_mode & S_IFMT, S_IFREG, file)
            XCTAssertEqual(st.st_mode & 0o7777, 0o600, file)
            XCTAssertEqual(st.st_uid, geteuid(), file)
        }
        // A relative path whose current folder lies in another user's tree is refused all the same.
        XCTAssertEqual(chown(path("work"), nobody, 65534), 0)
        let run = try transit(["dump", "--card", suica, "--out", "again.json"], in: work)
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertTrue(run.stderr.contains("\(path("work")) is owned by user 65534"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("work/again.json")))
    }

    // MARK: transit-sim --log

    /// transit-sim refuses its log before it reaches for vpcd: port 9 has no listener, and the
    /// refusal comes at once instead of after ten seconds of retries.
    func testTheSimulatorsLogIsRefusedBeforeVPCDIsReached() throws {
        var targets = try hostileTargets()
        try "theirs\n".write(toFile: path("theirs.log"), atomically: false, encoding: .utf8)
        XCTAssertEqual(chown(path("theirs.log"), nobody, 65534), 0)
        XCTAssertEqual(chmod(path("theirs.log"), 0o600), 0)
        XCTAssertEqual(symlink(path("theirs.log"), path("soft.log")), 0)
        targets[4].said = "fifo is a FIFO or socket, not a regular file"
        targets += [(path("theirs.log"), "theirs.log belongs to user 65534, not to the user running transit (0)"), (path("soft.log"), "soft.log is a symbolic link: not followed")]
        for (target, said) in targets {
            let started = Date()
            let run = try CommandRun.run(BuildProducts.simulator, ["--card", suica, "--log", target, "--port", "9"], timeout: 30)
            XCTAssertEqual(run.status, 2, "\(target): \(run.stderr)")
            XCTAssertEqual(run.stderr, "transit-sim: cannot append to the log \(target): \(said)\n")
            XCTAssertLessThan(Date().timeIntervalSince(started), 5, "\(target): refused before vpcd")
        }
        XCTAssertEqual(try String(contentsOfFile: path("theirs.log"), encoding: .utf8), "theirs\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path("root-own")), [])
        // Its stderr line is escaped as transit's are.
        let spoof = try CommandRun.run(BuildProducts.simulator, ["--card", suica, "--log", path("open/\u{202E}gol.x"), "--port", "9"], timeout: 30)
        XCTAssertEqual(spoof.stderr, "transit-sim: cannot append to the log \(path("open"))/\\u202Egol.x: \(path("open")) is writable by everyone\n")
    }

    /// A vpcd of the test's own on 127.0.0.1 asks the ATR and sends one APDU; the log gets one line
    /// a run, appended to a new 0600 file.
    func testTheSimulatorAppendsOneLineAnExchangeToA0600Log() throws {
        let log = path("sim.log")
        for run in 1 ... 2 {
            let vpcd = try FakeVPCD()
            let sim = Process()
            sim.executableURL = URL(fileURLWithPath: BuildProducts.simulator)
            sim.arguments = ["--card", suica, "--log", log, "--port", "\(vpcd.port)"]
            try sim.run()
            let atr = try vpcd.exchange([4])
            XCTAssertFalse(atr.isEmpty)
            let uid = try vpcd.exchange([0xFF, 0xCA, 0x00, 0x00, 0x00])
            XCTAssertEqual(uid.suffix(2), [0x90, 0x00])
            vpcd.close()
            sim.waitUntilExit()
            XCTAssertEqual(sim.terminationStatus, 0)
            let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
            XCTAssertEqual(lines.count, run, "\(lines)")
            XCTAssertTrue(lines.last?.hasPrefix("FFCA000000 -> ") == true, "\(lines)")
        }
        var st = stat()
        XCTAssertEqual(lstat(log, &st), 0)
        XCTAssertEqual(st.st_mode & 0o7777, 0o600)
        XCTAssertEqual(st.st_uid, geteuid())
    }
}

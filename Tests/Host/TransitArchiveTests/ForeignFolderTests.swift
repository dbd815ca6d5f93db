import Foundation
import TestSupport
import XCTest

/// Root (under `sudo -E`, or a kiosk's service) never writes into or obeys another user's folders:
/// their XDG values are ignored, their confs passed over, the archive's folder is walked from `/`
/// and held by descriptor, and a write-ahead log another user planted is refused.
final class ForeignFolderTests: XCTestCase {
    var dir: URL!
    /// Another user's folder (`nobody`'s) and root's own home.
    var alice: URL { dir.appendingPathComponent("alice") }
    var rootHome: URL { dir.appendingPathComponent("root") }
    let nobody: uid_t = 65534

    override func setUpWithError() throws {
        try XCTSkipUnless(geteuid() == 0, "the tests play root and another user")
        dir = temporaryDirectory()
        chmod(dir.path, 0o755)
        for folder in [alice.appendingPathComponent("data"), alice.appendingPathComponent("other"), alice.appendingPathComponent("config/transit")] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        try FileManager.default.createDirectory(at: rootHome, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        for path in ["", "data", "other", "config", "config/transit"] { chown(alice.appendingPathComponent(path).path, nobody, 65534) }
    }

    override func tearDown() { if let dir { try? FileManager.default.removeItem(at: dir) } }

    private func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = rootHome.path
        env["XDG_DATA_HOME"] = alice.appendingPathComponent("data").path
        env["XDG_CONFIG_HOME"] = alice.appendingPathComponent("config").path
        return env.merging(extra) { $1 }
    }

    private var rootArchive: String { rootHome.appendingPathComponent(".local/share/transit/history.db").path }

    func testAnotherUsersXDGFoldersAreIgnoredAndSaidOnce() throws {
        // Their transit.conf would turn off the audit trail.
        try "save = no\n".write(to: alice.appendingPathComponent("config/transit/transit.conf"), atomically: true, encoding: .utf8)
        let run = try CommandRun.transit(["scan", "--card", BuildProducts.sample("suica.json")], environment: environment())
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("XDG_DATA_HOME=\(alice.path)/data is ignored: \(alice.path) belongs to user 65534; using \(rootHome.path)"), run.stderr)
        XCTAssertEqual(run.stderr.components(separatedBy: "XDG_DATA_HOME=").count, 2, "said once: \(run.stderr)")
        XCTAssertTrue(run.stderr.contains("XDG_CONFIG_HOME="), run.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: rootArchive), "root's own archive keeps the read")
        XCTAssertFalse(FileManager.default.fileExists(atPath: alice.appendingPathComponent("data/transit").path), "nothing made in theirs")
    }

    func testAnUntrustedConfFallsThroughToTheNextAndSaysSo() throws {
        // A transit.conf in root's own config folder that another user may write is passed over.
        let config = rootHome.appendingPathComponent(".config/transit")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        let conf = config.appendingPathComponent("transit.conf")
        try "save = no\n".write(to: conf, atomically: true, encoding: .utf8)
        chown(conf.path, nobody, 65534)
        let run = try CommandRun.transit(["scan", "--card", BuildProducts.sample("suica.json")],
                                         environment: environment(["XDG_CONFIG_HOME": "", "XDG_DATA_HOME": ""]))
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("\(conf.path) is not trusted (\(conf.path) is owned by user 65534, neither root nor you): passed over"), run.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: rootArchive), "its save = no was not obeyed")
        // The same for plugins.conf: the next in the lookup order (the package's own) reads the card.
        let plugins = config.appendingPathComponent("plugins.conf")
        try "bad /nonexistent.so\n".write(to: plugins, atomically: true, encoding: .utf8)
        chmod(plugins.path, 0o666)
        let read = try CommandRun.transit(["scan", "--card", BuildProducts.sample("ezlink.json"), "--no-save"],
                                          environment: environment(["XDG_CONFIG_HOME": "", "XDG_DATA_HOME": ""]))
        XCTAssertEqual(read.status, 0, read.stderr)
        XCTAssertTrue(read.stderr.contains("\(plugins.path) is not trusted (\(plugins.path) is writable by everyone): passed over for the next plugins.conf"), read.stderr)
    }

    /// The attack of the report: another user swaps folders in a loop (renameat2 RENAME_EXCHANGE)
    /// while root scans. No read lands anywhere but root's own archive, which stays whole.
    func testAFolderSwappedInALoopNeverReceivesARead() throws {
        let swapper = """
        import ctypes,os,sys
        libc=ctypes.CDLL(None,use_errno=True)
        a,b=sys.argv[1].encode(),sys.argv[2].encode()
        while not os.path.exists(sys.argv[3]):
            libc.renameat2(-100,a,-100,b,2)
        """
        let stop = dir.appendingPathComponent("stop").path
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        p.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", swapper,
                       alice.appendingPathComponent("data").path, alice.appendingPathComponent("other").path, stop]
        try p.run()
        defer { _ = FileManager.default.createFile(atPath: stop, contents: nil); p.waitUntilExit() }
        for _ in 0 ..< 40 {
            let run = try CommandRun.transit(["scan", "--card", BuildProducts.sample("suica.json")], environment: environment())
            XCTAssertEqual(run.status, 0, run.stderr)
        }
        _ = FileManager.default.createFile(atPath: stop, contents: nil)
        p.waitUntilExit()
        for folder in ["data", "other"] {
            let names = (try? FileManager.default.subpathsOfDirectory(atPath: alice.appendingPathComponent(folder).path)) ?? []
            XCTAssertFalse(names.contains { $0.hasSuffix("history.db") }, "\(folder): \(names)")
        }
        let check = "import sqlite3,sys\nc=sqlite3.connect(sys.argv[1])\nprint(c.execute('PRAGMA integrity_check').fetchone()[0], c.execute('SELECT COUNT(*) FROM reads').fetchone()[0])"
        XCTAssertEqual(try CommandRun.run("/usr/bin/python3", ["-c", check, rootArchive]).stdout, "ok 40\n")
    }

    func testAFolderOnTheWayThatOthersMayWriteIsRefused() throws {
        let open = dir.appendingPathComponent("open")
        try FileManager.default.createDirectory(at: open, withIntermediateDirectories: true)
        chmod(open.path, 0o777) // not sticky: anyone may rename what is inside
        let run = try CommandRun.transit(["scan", "--card", BuildProducts.sample("suica.json")],
                                         environment: environment(["XDG_DATA_HOME": open.appendingPathComponent("data").path]))
        XCTAssertEqual(run.status, 0, "the read is printed: \(run.stderr)")
        XCTAssertTrue(run.stderr.contains("\(open.path) is writable by everyone"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: open.appendingPathComponent("data").path), "nothing made in it")
    }

    func testAWriteAheadLogPlantedByAnotherUserIsRefused() throws {
        let env = environment(["XDG_DATA_HOME": rootHome.appendingPathComponent("share").path])
        XCTAssertEqual(try CommandRun.transit(["scan", "--card", BuildProducts.sample("suica.json")], environment: env).status, 0)
        let folder = rootHome.appendingPathComponent("share/transit")
        for (suffix, owner, mode) in [("-wal", nobody, 0o600), ("-shm", getuid(), 0o666), ("-journal", nobody, 0o600)] {
            let planted = folder.appendingPathComponent("history.db" + suffix).path
            XCTAssertTrue(FileManager.default.createFile(atPath: planted, contents: Data(), attributes: [.posixPermissions: mode]))
            chown(planted, owner, 65534)
            let run = try CommandRun.transit(["scan", "--card", BuildProducts.sample("suica.json")], environment: env)
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertTrue(run.stderr.contains("history.db\(suffix)") && run.stderr.contains("may have been read"), "\(suffix): \(run.stderr)")
            XCTAssertTrue(FileManager.default.fileExists(atPath: planted), "left for the user to look at")
            try FileManager.default.removeItem(atPath: planted)
        }
    }
}

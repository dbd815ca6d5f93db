import Foundation
import Synchronization
import TestSupport
import XCTest

/// The archive never costs a read: whatever is wrong with it, the read is printed with its own exit
/// code and one line on stderr. Private files, no symlink followed, versioned schema.
final class HistoryArchiveSafetyTests: XCTestCase {
    var archive: ArchiveFixture!
    let suica = BuildProducts.sample("suica.json")
    override func setUp() { archive = ArchiveFixture() }
    override func tearDown() { archive.remove() }

    private func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }

    /// The read was printed in full, exit 0, and stderr says the archive's trouble.
    private func assertReadPrintedDespite(_ run: CommandRun, _ words: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(run.status, 0, run.stderr, file: file, line: line)
        XCTAssertTrue(run.stdout.contains("Balance: ¥2,010"), run.stdout, file: file, line: line)
        XCTAssertTrue(run.stderr.contains("not saved"), run.stderr, file: file, line: line)
        XCTAssertTrue(run.stderr.contains(words), run.stderr, file: file, line: line)
    }

    func testTheFolderIs0700AndTheFile0600() throws {
        XCTAssertEqual(try archive.scan(suica).status, 0)
        XCTAssertEqual(try mode(archive.folder.path), 0o700)
        for name in try FileManager.default.contentsOfDirectory(atPath: archive.folder.path) {
            XCTAssertEqual(try mode(archive.folder.appendingPathComponent(name).path), 0o600, name)
        }
    }

    /// A looser mode may mean others read the archive: refused and said, never quietly tightened.
    func testALooserFolderOrFileIsRefusedAndSaidNotRepaired() throws {
        try archive.makeFolder()
        chmod(archive.folder.path, 0o755)
        assertReadPrintedDespite(try archive.scan(suica), "has mode 755: others may have read it")
        XCTAssertEqual(try mode(archive.folder.path), 0o755, "left as it was")
        chmod(archive.folder.path, 0o700)
        XCTAssertEqual(try archive.scan(suica).status, 0)
        chmod(archive.database, 0o644)
        assertReadPrintedDespite(try archive.scan(suica), "history.db has mode 644")
        XCTAssertEqual(try mode(archive.database), 0o644)
    }

    func testASymlinkPlantedAtTheDatabaseIsNotFollowed() throws {
        try archive.makeFolder()
        let target = archive.directory.appendingPathComponent("precious")
        try "precious".write(to: target, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: archive.database, withDestinationPath: target.path)
        assertReadPrintedDespite(try archive.scan(suica), "symbolic link")
        XCTAssertEqual(try String(contentsOf: target, encoding: .utf8), "precious")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: archive.database), target.path)
    }

    func testADatabaseFromANewerTransitIsRefusedAndLeftAlone() throws {
        try archive.makeFolder()
        _ = try archive.sql("PRAGMA user_version = 99")
        assertReadPrintedDespite(try archive.scan(suica), "newer transit (schema version 99")
        XCTAssertEqual(try archive.sql("PRAGMA user_version"), "99\n")
        XCTAssertEqual(try archive.transit(["cards"]).status, 2, "the listings refuse it too")
    }

    func testAReadOnlyDatabaseIsAnErrorAndTheReadIsPrinted() throws {
        XCTAssertEqual(try archive.scan(suica).status, 0)
        chmod(archive.database, 0o400)
        assertReadPrintedDespite(try archive.scan(BuildProducts.sample("suica.json")), "read-only")
        let cards = try archive.transit(["cards"])
        XCTAssertEqual(cards.status, 0, cards.stderr)
        XCTAssertTrue(cards.stdout.contains("012E4CD8A1B2C3D4"), "still listed")
    }

    func testACorruptDatabaseIsAnErrorAndTheReadIsPrinted() throws {
        try archive.makeFolder()
        let garbage = Data((0 ..< 4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try garbage.write(to: URL(fileURLWithPath: archive.database))
        chmod(archive.database, 0o600)
        assertReadPrintedDespite(try archive.scan(suica), "not a database")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: archive.database)), garbage, "left as it was")
        XCTAssertEqual(try archive.transit(["history"]).status, 2)
    }

    // MARK: Every archive failure a kind with the file's name (issue 36 §6)

    /// Every command that uses the archive, as a person would run them on card 012E4CD8A1B2C3D4.
    private let archiveCommands: [[String]] = [["cards"], ["history"], ["report", "--month", "2026-11"], ["export"],
                                               ["forget", "012E4CD8A1B2C3D4"], ["cards", "--name", "012E4CD8A1B2C3D4", "Mine"]]

    private func assertEveryCommandSaysTheFileIsDamaged(_ how: String, file: StaticString = #filePath, line: UInt = #line) throws {
        for command in archiveCommands {
            let run = try archive.transit(command)
            XCTAssertEqual(run.status, 2, "\(how): \(command) is config, not internal: \(run.stderr)", file: file, line: line)
            XCTAssertTrue(run.stderr.contains(archive.database) && run.stderr.contains("damaged"), "\(how): \(command): \(run.stderr)",
                          file: file, line: line)
            XCTAssertFalse(run.stderr.contains("please report"), "\(how): \(command): \(run.stderr)", file: file, line: line)
        }
        let scan = try archive.scan(suica)
        assertReadPrintedDespite(scan, "damaged", file: file, line: line)
        XCTAssertTrue(scan.stderr.contains(archive.database), "scan's \"not saved\" names the file: \(scan.stderr)", file: file, line: line)
    }

    func testRandomBytesOverThePagesPastTheHeaderAreADamagedArchiveNamedByEveryCommand() throws {
        XCTAssertEqual(try archive.scan(suica).status, 0)
        XCTAssertEqual(try archive.scan(BuildProducts.sample("edy.json")).status, 0)
        let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: archive.database))
        let size = try handle.seekToEnd()
        XCTAssertGreaterThan(size, 8192, "more than the first page")
        var random = SplitMix64(seed: 36)
        // The first page (the header and the schema) kept: every page after it overwritten.
        try handle.seek(toOffset: 4096)
        try handle.write(contentsOf: Data((4096 ..< Int(size)).map { _ in random.byte() }))
        try handle.close()
        try assertEveryCommandSaysTheFileIsDamaged("random pages")
    }

    func testADroppedTableIsADamagedArchiveNamedByEveryCommand() throws {
        XCTAssertEqual(try archive.scan(suica).status, 0)
        _ = try archive.sql("DROP TABLE records")
        try assertEveryCommandSaysTheFileIsDamaged("no records table")
    }

    /// A full filesystem (a tmpfs of 1 MB filled up, root only): a scan says "the disk is full" with
    /// the file's name and loses nothing it printed; the listings still read the archive.
    func testOnAFullDiskAScanSaysSoAndTheListingsStillRead() throws {
        try XCTSkipUnless(geteuid() == 0, "mounting a small tmpfs needs root")
        try archive.makeFolder()
        let mounted = try CommandRun.run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", archive.folder.path])
        try XCTSkipUnless(mounted.status == 0, "no tmpfs here: \(mounted.stderr)")
        defer { _ = try? CommandRun.run("/bin/umount", [archive.folder.path]) }
        XCTAssertEqual(try archive.scan(suica).status, 0)
        let fill = archive.folder.appendingPathComponent("filler").path
        _ = try CommandRun.run("/bin/dd", ["if=/dev/zero", "of=\(fill)", "bs=4k"])
        let full = try CommandRun.run("/bin/df", ["--output=avail", archive.folder.path])
        XCTAssertTrue(full.stdout.split(separator: "\n").last?.trimmingCharacters(in: .whitespaces) == "0", full.stdout)

        let scan = try archive.scan(BuildProducts.sample("edy.json"))
        XCTAssertEqual(scan.status, 0, scan.stderr)
        XCTAssertTrue(scan.stdout.contains("Balance:"), "the read is printed: \(scan.stdout)")
        XCTAssertTrue(scan.stderr.contains("not saved") && scan.stderr.contains("the disk is full") && scan.stderr.contains(archive.database),
                      scan.stderr)
        for command in [["cards"], ["history"], ["report", "--month", "2026-11"], ["export"]] {
            let run = try archive.transit(command)
            XCTAssertEqual(run.status, 0, "\(command) reads on a full disk: \(run.stderr)")
            XCTAssertFalse(run.stderr.contains("disk I/O error"), "\(command): \(run.stderr)")
        }
        XCTAssertTrue(try archive.transit(["cards"]).stdout.contains("012E4CD8A1B2C3D4"), "the card is listed")
        let history = try archive.transit(["history", "--json"])
        XCTAssertTrue(history.stdout.contains("012E4CD8A1B2C3D4"), history.stdout)
        // Space again: the archive takes the next read, none lost.
        try FileManager.default.removeItem(atPath: fill)
        XCTAssertEqual(try archive.scan(BuildProducts.sample("edy.json")).stderr, "")
        XCTAssertEqual(try archive.history().count, 2)
    }

    func testAnEmptyFileAndAVersionZeroDatabaseAreMigrated() throws {
        try archive.makeFolder()
        for prepare in ["", "CREATE TABLE IF NOT EXISTS unrelated_but_harmless (x)"] {
            try? FileManager.default.removeItem(atPath: archive.database)
            _ = FileManager.default.createFile(atPath: archive.database, contents: Data(), attributes: [.posixPermissions: 0o600])
            if !prepare.isEmpty { _ = try archive.sql(prepare) }
            XCTAssertEqual(try archive.scan(suica).stderr, "")
            XCTAssertEqual(try archive.sql("PRAGMA user_version"), "6\n")
            XCTAssertEqual(try archive.sql("SELECT COUNT(*) FROM records"), "5\n")
        }
    }

    func testAVersionOneDatabaseOpensAndGrows() throws {
        try archive.makeFolder()
        let dump = try String(contentsOf: BuildProducts.packageRoot.appendingPathComponent("Tests/Fixtures/archive-v1.sql"), encoding: .utf8)
        let script = "import sqlite3,sys\nc=sqlite3.connect(sys.argv[1])\nc.executescript(sys.argv[2])\nc.close()"
        XCTAssertEqual(try CommandRun.run("/usr/bin/python3", ["-c", script, archive.database, dump]).status, 0)
        chmod(archive.database, 0o600)
        XCTAssertEqual((try archive.history().first?["transactions"] as? [Any])?.count, 5)
        XCTAssertEqual(try archive.scan(BuildProducts.sample("edy.json")).stderr, "")
        XCTAssertEqual(try archive.history().count, 2)
    }

    func testScansWritingAtOnceNeverCorruptOrWaitForever() throws {
        let cards = [suica, BuildProducts.sample("edy.json")]
        let runs = 25
        let failures = Failures(), archive = archive!
        DispatchQueue.concurrentPerform(iterations: 2) { lane in
            for _ in 0 ..< runs {
                let run = try? archive.scan(cards[lane])
                if run?.status != 0 || run?.stderr.isEmpty != true { failures.add("lane \(lane): exit \(run?.status ?? -1) \(run?.stderr ?? "")") }
            }
        }
        XCTAssertEqual(failures.all, [])
        XCTAssertEqual(try archive.sql("PRAGMA integrity_check"), "ok\n")
        XCTAssertEqual(try archive.sql("SELECT COUNT(*) FROM reads"), "\(2 * runs)\n")
        let timelines = try archive.history().map { ($0["transactions"] as? [Any])?.count ?? 0 }
        XCTAssertEqual(timelines.count, 2)
        XCTAssertEqual(timelines.first, 5, "every Suica record once")
    }

    func testNoSaveAndTheConfigKeepNothing() throws {
        XCTAssertEqual(try archive.scan(suica, ["--no-save"]).status, 0)
        XCTAssertEqual(try archive.transit(["decode", suica]).status, 0, "decode keeps nothing without --save")
        XCTAssertFalse(FileManager.default.fileExists(atPath: archive.database))
        try archive.configure("# a kiosk that keeps nothing\nsave = no\n")
        XCTAssertEqual(try archive.scan(suica).stderr, "")
        XCTAssertFalse(FileManager.default.fileExists(atPath: archive.database))
        try archive.configure("save = maybe\n")
        let unclear = try archive.scan(suica)
        XCTAssertEqual(unclear.status, 0)
        XCTAssertTrue(unclear.stderr.contains("transit.conf line 1"), unclear.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: archive.database))
        try archive.configure("save = yes\n")
        XCTAssertEqual(try archive.transit(["decode", "--save", suica]).status, 0)
        XCTAssertEqual(try archive.sql("SELECT command FROM reads"), "decode\n")
    }

    func testTestsKeepTheirArchiveAwayFromTheDevelopersOwn() throws {
        // A transit started with no environment of its own inherits the tests' XDG_DATA_HOME.
        XCTAssertEqual(ProcessInfo.processInfo.environment["XDG_DATA_HOME"], BuildProducts.testDataHome.path)
        XCTAssertEqual(try CommandRun.transit(["scan", "--card", suica]).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: BuildProducts.testDataHome.appendingPathComponent("transit/history.db").path))
    }
}

/// What failed, collected from several threads.
private final class Failures: Sendable {
    private let failures = Mutex([String]())
    func add(_ failure: String) { failures.withLock { $0.append(failure) } }
    var all: [String] { failures.withLock { $0 } }
}

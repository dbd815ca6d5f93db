import Foundation
import TestSupport
import TransitFiles
import XCTest

/// `PrivateFile`, the one way `transit` and `transit-sim` write a file: its folder walked from `/`
/// without following a link, each folder root's or the user's and writable by nobody else unless
/// sticky (`TrustedFile.problem`, StrictModes' rule), the file written 0600 beside the target and
/// renamed over it, or opened for appending with `O_APPEND | O_NOFOLLOW | O_CREAT`.
final class PrivateFileTests: XCTestCase {
    var dir: URL!
    let nobody: uid_t = 65534

    override func setUpWithError() throws {
        dir = temporaryDirectory()
        XCTAssertEqual(chmod(dir.path, 0o755), 0)
    }

    override func tearDown() { if let dir { try? FileManager.default.removeItem(at: dir) } }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    func folder(_ name: String, mode: mode_t = 0o755, owner: uid_t? = nil) throws -> String {
        try FileManager.default.createDirectory(atPath: path(name), withIntermediateDirectories: true)
        XCTAssertEqual(chmod(path(name), mode), 0)
        if let owner { XCTAssertEqual(chown(path(name), owner, 65534), 0) }
        return path(name)
    }

    /// `write` throws a refusal whose text holds `said`, and `refusal` (asked before a read) says the same.
    func assertRefused(_ target: String, _ said: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try PrivateFile.write(Data("card".utf8), to: target), file: file, line: line) { error in
            let failure = error as? PrivateFile.Failure
            XCTAssertEqual(failure?.refused, true, "\(error)", file: file, line: line)
            XCTAssertTrue("\(error)".contains(said), "\(error)", file: file, line: line)
        }
        XCTAssertTrue(PrivateFile.refusal(target)?.contains(said) == true, "\(PrivateFile.refusal(target) ?? "nil")", file: file, line: line)
        XCTAssertThrowsError(try PrivateFile.openForAppending(target), file: file, line: line) {
            XCTAssertTrue("\($0)".contains(said), "\($0)", file: file, line: line)
        }
    }

    /// The file at `target` is a regular file of the running user's, 0600, holding `content`.
    func assertPrivate(_ target: String, _ content: String = "card", file: StaticString = #filePath, line: UInt = #line) {
        var st = stat()
        XCTAssertEqual(lstat(target, &st), 0, target, file: file, line: line)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFREG, file: file, line: line)
        XCTAssertEqual(st.st_mode & 0o7777, 0o600, file: file, line: line)
        XCTAssertEqual(st.st_uid, geteuid(), file: file, line: line)
        XCTAssertEqual(try? String(contentsOfFile: target, encoding: .utf8), content, file: file, line: line)
    }

    func testTheNormalCaseWritesA0600FileOfTheRunningUser() throws {
        let target = path("card.json")
        XCTAssertNil(PrivateFile.refusal(target))
        try PrivateFile.write(Data("card".utf8), to: target)
        assertPrivate(target)
        // ".." and "." are resolved by name: the folder they lead to once no link is followed.
        try FileManager.default.createDirectory(atPath: path("sub"), withIntermediateDirectories: true)
        try PrivateFile.write(Data("up".utf8), to: path("sub/.././up.json"))
        assertPrivate(path("up.json"), "up")
        XCTAssertThrowsError(try PrivateFile.write(Data(), to: path("sub") + "/")) { XCTAssertTrue("\($0)".contains("names a folder")) }
    }

    /// /tmp is root's, sticky and writable by everyone: a file directly in it is allowed.
    func testAFileDirectlyInTmpIsWritten() throws {
        let target = "/tmp/transit-files-test-\(UUID().uuidString).json"
        defer { unlink(target) }
        var tmp = stat()
        XCTAssertEqual(stat("/tmp", &tmp), 0)
        XCTAssertNotEqual(tmp.st_mode & S_ISVTX, 0, "/tmp is sticky here")
        try PrivateFile.write(Data("card".utf8), to: target)
        assertPrivate(target)
        let fd = try PrivateFile.openForAppending(target)
        close(fd)
    }

    func testAFolderOfAnotherUserOnTheWayIsRefusedAndNamed() throws {
        try XCTSkipUnless(geteuid() == 0, "plays root and another user")
        let mallory = try folder("mallory", owner: nobody)
        _ = try folder("mallory/dumps", owner: nobody)
        assertRefused(mallory + "/dumps/card.json", "\(mallory) is owned by user 65534, neither root nor you")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: mallory + "/dumps"), [])
    }

    /// The report's attack: `dumps`, a link another user made to a folder of root's. Whoever owns
    /// the link, no folder on the way is ever followed through one.
    func testASymlinkedFolderIsNotFollowedWhereverItLeads() throws {
        try XCTSkipUnless(geteuid() == 0, "plays root and another user")
        let rootOwn = try folder("root-own", mode: 0o700)
        let mallory = try folder("mallory", owner: nobody)
        XCTAssertEqual(symlink(rootOwn, mallory + "/dumps"), 0)
        XCTAssertEqual(lchown(mallory + "/dumps", nobody, 65534), 0)
        assertRefused(mallory + "/dumps/card.json", "\(mallory) is owned by user 65534")
        // The same link in a folder of root's own, in the middle of the path or as its last folder.
        XCTAssertEqual(symlink(dir.path, path("link")), 0)
        assertRefused(path("link/root-own/card.json"), "\(path("link")) is a symbolic link or not a folder: not followed")
        XCTAssertEqual(symlink(rootOwn, path("last")), 0)
        assertRefused(path("last/card.json"), "\(path("last")) is a symbolic link or not a folder: not followed")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: rootOwn), [], "nothing written through a link")
    }

    func testAFolderOthersMayWriteIsRefusedUnlessSticky() throws {
        try XCTSkipUnless(geteuid() == 0, "plays root and another user")
        let open = try folder("open", mode: 0o777)
        assertRefused(open + "/card.json", "\(open) is writable by everyone")
        _ = try folder("open/inner")
        assertRefused(open + "/inner/card.json", "\(open) is writable by everyone")
        let group = try folder("group", mode: 0o775)
        XCTAssertEqual(chown(group, 0, 65534), 0) // nogroup: not root's own private group
        assertRefused(group + "/card.json", "\(group) is writable by its group")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: open), ["inner"])
        // Sticky, as /tmp: others cannot rename or remove what is not theirs.
        let sticky = try folder("sticky", mode: 0o1777)
        try PrivateFile.write(Data("card".utf8), to: sticky + "/card.json")
        assertPrivate(sticky + "/card.json")
    }

    func testADeviceFIFOOrSocketAtTheTargetIsRefusedAndKept() throws {
        let fifo = path("fifo")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        for target in [fifo, "/dev/null"] {
            XCTAssertEqual(PrivateFile.refusal(target), "it exists and is not a regular file; nothing was replaced")
            XCTAssertThrowsError(try PrivateFile.write(Data("card".utf8), to: target))
        }
        var st = stat()
        XCTAssertEqual(lstat(fifo, &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFIFO, "the FIFO is still there")
        XCTAssertEqual(lstat("/dev/null", &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFCHR)
    }

    /// A symbolic link or a hard link planted at the target itself is replaced, never written through.
    func testALinkAtTheTargetIsReplacedNotWrittenThrough() throws {
        let victims = try folder("victims", mode: 0o700)
        let victim = victims + "/victim"
        try "victim's".write(toFile: victim, atomically: false, encoding: .utf8)
        XCTAssertEqual(symlink(victim, path("soft.json")), 0)
        XCTAssertEqual(link(victim, path("hard.json")), 0)
        for name in ["soft.json", "hard.json"] {
            XCTAssertNil(PrivateFile.refusal(path(name)))
            try PrivateFile.write(Data("card".utf8), to: path(name))
            assertPrivate(path(name))
        }
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "victim's")
    }

    /// What only the write can tell is no refusal: the command still reads, and says it after.
    func testAMissingFolderIsAFailureNotARefusal() {
        let target = path("missing/card.json")
        XCTAssertNil(PrivateFile.refusal(target))
        XCTAssertThrowsError(try PrivateFile.write(Data(), to: target)) {
            XCTAssertEqual("\($0)", "No such file or directory")
            XCTAssertEqual(($0 as? PrivateFile.Failure)?.refused, false)
        }
    }

    func testAppendingCreates0600AndAppends() throws {
        let log = path("sim.log")
        for line in ["one\n", "two\n"] {
            let fd = try PrivateFile.openForAppending(log)
            XCTAssertTrue(Array(line.utf8).withUnsafeBytes { Descriptor.writeAll(fd, $0) })
            close(fd)
        }
        assertPrivate(log, "one\ntwo\n")
    }

    func testAppendingRefusesALinkAFIFOAnOpenFileAndAnotherUsersFile() throws {
        let victim = path("victim")
        try "victim's".write(toFile: victim, atomically: false, encoding: .utf8)
        XCTAssertEqual(chmod(victim, 0o600), 0)
        XCTAssertEqual(symlink(victim, path("soft.log")), 0)
        XCTAssertEqual(link(victim, path("hard.log")), 0)
        XCTAssertEqual(mkfifo(path("fifo.log"), 0o600), 0)
        XCTAssertTrue(FileManager.default.createFile(atPath: path("open.log"), contents: nil, attributes: [.posixPermissions: 0o644]))
        var cases = [("soft.log", "soft.log is a symbolic link: not followed"),
                     ("hard.log", "hard.log has 2 hard links"),
                     ("fifo.log", "fifo.log is a FIFO or socket, not a regular file"),
                     ("open.log", "open.log has mode 644: others may have read it")]
        if geteuid() == 0 {
            XCTAssertTrue(FileManager.default.createFile(atPath: path("theirs.log"), contents: nil, attributes: [.posixPermissions: 0o600]))
            XCTAssertEqual(chown(path("theirs.log"), nobody, 65534), 0)
            cases.append(("theirs.log", "theirs.log belongs to user 65534"))
        }
        let started = Date()
        for (name, said) in cases {
            XCTAssertThrowsError(try PrivateFile.openForAppending(path(name)), name) {
                XCTAssertTrue("\($0)".contains(said), "\(name): \($0)")
                XCTAssertEqual(($0 as? PrivateFile.Failure)?.refused, true, name)
            }
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "the FIFO was not waited on")
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "victim's")
    }

    /// What sits at the target is looked at before it is opened: a FIFO someone reads (`open` would
    /// succeed, and the reader see a writer come and go) or a device (`/dev/watchdog` as root) is
    /// refused unopened.
    func testAppendingRefusesAFIFOWithAReaderAndADeviceWithoutOpeningThem() throws {
        let fifo = path("read.log")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        XCTAssertGreaterThanOrEqual(reader, 0)
        defer { close(reader) }
        XCTAssertThrowsError(try PrivateFile.openForAppending(fifo)) {
            XCTAssertTrue("\($0)".contains("read.log is a FIFO or socket, not a regular file"), "\($0)")
            XCTAssertEqual(($0 as? PrivateFile.Failure)?.refused, true)
        }
        // Linux marks a FIFO's read end POLLHUP once a writer has opened it and gone: none did.
        var p = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&p, 1, 0), 0, "the FIFO was opened (revents \(p.revents))")
        XCTAssertThrowsError(try PrivateFile.openForAppending("/dev/null")) {
            XCTAssertTrue("\($0)".contains("null is a device, not a regular file"), "\($0)")
            XCTAssertEqual(($0 as? PrivateFile.Failure)?.refused, true)
        }
    }
}

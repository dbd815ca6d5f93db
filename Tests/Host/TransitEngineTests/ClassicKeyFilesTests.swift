import Foundation
import TestSupport
import TransitEngine
import TransitModel
import TransitTransport
import XCTest

/// The keys a read tries: each `--keys` file in order, then the keys folder of the user's config
/// (`$XDG_CONFIG_HOME/transit/keys`) in name order. Every key here is made up.
final class ClassicKeyFilesTests: XCTestCase {
    var dir: URL!
    var config: String { dir.appendingPathComponent("config").path }
    var folder: String { config + "/transit/keys" }

    override func setUpWithError() throws {
        dir = temporaryDirectory()
        XCTAssertEqual(chmod(dir.path, 0o700), 0)
    }

    override func tearDown() { if let dir { try? FileManager.default.removeItem(at: dir) } }

    @discardableResult
    func write(_ text: String, to path: String, mode: mode_t = 0o600) throws -> String {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        XCTAssertEqual(chmod(path, mode), 0)
        return path
    }

    /// The ring, with what `--verbose` would say and what is said whatever the verbosity.
    func load(_ explicit: [String] = []) throws -> (ring: ClassicKeyRing, log: [String], warnings: [String]) {
        var files = ClassicKeyFiles(explicit: explicit, environment: ["XDG_CONFIG_HOME": config, "HOME": dir.path])
        var log = [String](), warnings = [String]()
        files.log = { log.append($0) }
        files.warn = { warnings.append($0) }
        let ring = try files.load()
        return (ring, log, warnings)
    }

    func testTheFolderIsReadInNameOrderAfterTheExplicitFiles() throws {
        let explicit = try write("C0FFEE000001\n", to: dir.appendingPathComponent("door.dic").path)
        try write("C0FFEE0000B1\nC0FFEE000001 # also in door.dic\n", to: folder + "/b-second.dic")
        try write("# first by name\nC0FFEE0000A1\n", to: folder + "/a-first.keys")
        try write("C0FFEE0000C1\n", to: folder + "/.hidden.swp")  // an editor's swap file: not read
        try FileManager.default.createDirectory(atPath: folder + "/old", withIntermediateDirectories: true)
        let (ring, log, warnings) = try load([explicit])
        XCTAssertEqual(ring.keys.map(\.source), ["door.dic line 1", "a-first.keys line 2", "b-second.dic line 1"])
        XCTAssertEqual(ring.keys.map { $0.bytes.last }, [0x01, 0xA1, 0xB1])
        XCTAssertEqual(warnings, [])
        // The folder is listed (its subfolder said) after the explicit files are read.
        XCTAssertEqual(log, ["1 key from door.dic", "\(folder)/old is a folder: not read for keys",
                             "1 key from a-first.keys in the keys folder",
                             "2 keys from b-second.dic in the keys folder (1 already loaded from an earlier line or file)"])
        // No line said holds a key, in either case.
        for line in log { XCTAssertNil(line.range(of: "C0FFEE", options: .caseInsensitive), line) }
    }

    func testNoFolderIsNoKeyAndNoWarning() throws {
        let (ring, log, warnings) = try load()
        XCTAssertEqual(ring.count, 0)
        XCTAssertEqual(warnings, [])
        XCTAssertEqual(log, ["no keys folder (\(folder))"])
    }

    func testAnExplicitFileThatCannotBeUsedEndsTheLoad() throws {
        let open = try write("C0FFEE000001\n", to: dir.appendingPathComponent("open.dic").path, mode: 0o644)
        XCTAssertThrowsError(try load([open])) {
            XCTAssertEqual(($0 as? TransitError)?.kind, .config)
            XCTAssertEqual(($0 as? TransitError)?.message, "key file refused: \(open) may be read or written by its group or others "
                           + "(mode 0644): a key file must be yours alone; run chmod 600 \(open)")
        }
        let bad = try write("C0FFEE000001\nC0FFEE00001\n", to: dir.appendingPathComponent("bad.dic").path)
        XCTAssertThrowsError(try load([bad])) {
            let message = ($0 as? TransitError)?.message ?? ""
            XCTAssertTrue(message.hasPrefix("\(bad) line 2 is not a key"), message)
            XCTAssertFalse(message.contains("C0FFEE"), message)
        }
        let missing = dir.appendingPathComponent("missing.dic").path
        XCTAssertThrowsError(try load([missing])) {
            XCTAssertEqual(($0 as? TransitError)?.message, "key file \(missing): No such file or directory")
        }
    }

    func testAFolderFileThatCannotBeUsedIsPassedOverAndSaid() throws {
        try write("C0FFEE0000A1\n", to: folder + "/a.dic")
        let open = try write("C0FFEE0000B1\n", to: folder + "/b-open.dic", mode: 0o644)
        let bad = try write("C0FFEE0000C1\nnot a key\n", to: folder + "/c-bad.dic")
        XCTAssertEqual(symlink(folder + "/a.dic", folder + "/d-link.dic"), 0)
        try write("C0FFEE0000E1\n", to: folder + "/e.dic")
        let (ring, _, warnings) = try load()
        XCTAssertEqual(ring.keys.map(\.source), ["a.dic line 1", "e.dic line 1"])
        XCTAssertEqual(warnings, [
            "key file refused: \(open) may be read or written by its group or others (mode 0644): a key file must be yours alone; "
                + "run chmod 600 \(open): passed over; the other key files still serve",
            "\(bad) line 2 is not a key: a key is 12 hex digits, alone on its line, and # begins a comment (the line is not shown: "
                + "it may hold a key): passed over; the other key files still serve",
            "key file refused: \(folder)/d-link.dic is a symbolic link, which a key file may not be: name the file itself: "
                + "passed over; the other key files still serve",
        ])
    }

    func testAFolderOthersMayWriteIsNotRead() throws {
        try write("C0FFEE0000A1\n", to: folder + "/a.dic")
        XCTAssertEqual(chmod(folder, 0o777), 0)
        let (ring, _, warnings) = try load()
        XCTAssertEqual(ring.count, 0)
        XCTAssertEqual(warnings, ["the keys folder \(folder) is writable by everyone: none of its keys are read; run chmod 700 \(folder)"])
    }

    func testOneReadHoldsAtMost100000Keys() throws {
        // Two files of 60,000 made-up keys each (780,000 bytes, under 1 MiB): 120,000 in all is
        // past the bound, so the second explicit file is refused; the first alone is fine.
        func keys(from first: Int) -> String { (first ..< first + 60_000).map { String(format: "%012llX\n", 0xC0_0000_0000 + $0) }.joined() }
        let one = try write(keys(from: 0), to: dir.appendingPathComponent("one.dic").path)
        let two = try write(keys(from: 60_000), to: dir.appendingPathComponent("two.dic").path)
        XCTAssertEqual(try load([one]).ring.count, 60_000)
        XCTAssertThrowsError(try load([one, two])) {
            XCTAssertEqual(($0 as? TransitError)?.message, "key file \(two) brings the keys past 100000, the most one read may try")
        }
        XCTAssertEqual(try load([one, one]).ring.count, 60_000, "the same keys twice count once")
    }
}

import Foundation
import TestSupport
import TransitFiles
import XCTest

/// A key file is trusted as a secret (`TrustedFile.open(_:secret:)`): StrictModes' rule for the
/// file and its folders, and besides, no symbolic link and no permission for group or others,
/// refused with the file's name, its mode and `chmod 600`.
final class SecretFileTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = temporaryDirectory()
        XCTAssertEqual(chmod(dir.path, 0o700), 0)
    }

    override func tearDown() { if let dir { try? FileManager.default.removeItem(at: dir) } }

    /// A file of made-up keys at `name`, with `mode`.
    func keyFile(_ name: String, mode: mode_t) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try "A1B2C3D4E5F6\n".write(toFile: path, atomically: false, encoding: .utf8)
        XCTAssertEqual(chmod(path, mode), 0)
        return path
    }

    func refusal(_ path: String, secret: Bool = true) -> String? {
        switch TrustedFile.open(path, secret: secret) {
        case .success: return nil
        case .failure(let why): return why.description
        }
    }

    func testA0600FileOfTheUserIsTrusted() throws {
        let path = try keyFile("keys.dic", mode: 0o600)
        XCTAssertNil(refusal(path))
        XCTAssertNil(refusal(try keyFile("owner-only.dic", mode: 0o400)), "read-only for its owner is fine too")
    }

    func testAFileOthersMayReadIsRefusedWithItsModeAndTheChmod() throws {
        for (mode, shown) in [(mode_t(0o644), "0644"), (0o640, "0640"), (0o604, "0604"), (0o620, "0620"), (0o601, "0601")] {
            let path = try keyFile("keys-\(shown).dic", mode: mode)
            let why = refusal(path)
            XCTAssertEqual(why, "\(path) may be read or written by its group or others (mode \(shown)): "
                           + "a key file must be yours alone; run chmod 600 \(path)")
            // The same file is fine where no secret is asked for (a station table, plugins.conf).
            if mode & 0o022 == 0 { XCTAssertNil(refusal(path, secret: false), shown) }
        }
        // Writable by everyone: still the key file's message, with its fix.
        let open = try keyFile("open.dic", mode: 0o666)
        XCTAssertTrue(refusal(open)?.hasSuffix("(mode 0666): a key file must be yours alone; run chmod 600 \(open)") == true,
                      refusal(open) ?? "trusted")
    }

    func testASymbolicLinkIsRefusedEvenToAGoodFile() throws {
        let target = try keyFile("keys.dic", mode: 0o600)
        let link = dir.appendingPathComponent("link.dic").path
        XCTAssertEqual(symlink(target, link), 0)
        XCTAssertEqual(refusal(link), "\(link) is a symbolic link, which a key file may not be: name the file itself")
        XCTAssertNil(refusal(link, secret: false), "a conf may be reached through a link; a key file may not")
    }

    func testAFolderOthersMayWriteIsRefused() throws {
        let folder = dir.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        XCTAssertEqual(chmod(folder.path, 0o777), 0)
        let path = folder.appendingPathComponent("keys.dic").path
        try "A1B2C3D4E5F6\n".write(toFile: path, atomically: false, encoding: .utf8)
        XCTAssertEqual(chmod(path, 0o600), 0)
        XCTAssertEqual(refusal(path), "its folder \(folder.path) is writable by everyone")
    }

    func testAFIFOIsRefusedWithoutBlocking() throws {
        let path = dir.appendingPathComponent("fifo.dic").path
        XCTAssertEqual(mkfifo(path, 0o600), 0)
        XCTAssertEqual(refusal(path), "\(path) is not a regular file")
    }

    func testAnotherUsersFileIsRefused() throws {
        try XCTSkipUnless(geteuid() == 0, "plays another user")
        let path = try keyFile("theirs.dic", mode: 0o600)
        XCTAssertEqual(chown(path, 65534, 65534), 0)
        XCTAssertEqual(refusal(path), "\(path) is owned by user 65534, neither root nor you")
    }
}

import Foundation

/// The one way `transit` writes a file (log bundles, `dump --out`): they hold the card's number and
/// history, and `transit` may run as root in a folder someone else controls.
///
/// The bytes go to a new temporary file beside the target, created with
/// `O_CREAT | O_EXCL | O_NOFOLLOW` and mode 0600 (never an existing file, never through a symlink),
/// synced, then `renameat`ed over the target. The rename replaces what sits at the target — a
/// regular file from an earlier run, a planted symlink or a hard link to someone else's file — as a
/// directory entry and never writes through it; a target that is (or leads to) a device, FIFO or
/// socket is refused instead. Opening the target itself with `O_EXCL` would be as
/// safe but would refuse every second run with the same `--log`. Both steps use one descriptor of
/// the folder, so a folder swapped in between cannot redirect the rename. The replaced file is
/// gone and the new one belongs to whoever ran `transit`, 0600. A crash leaves the old file whole
/// (and at worst a `.NAME.*.tmp` beside it).
package enum PrivateFile {
    /// Writes `data` to `path`, replacing what was there; throws a `Failure`.
    package static func write(_ data: Data, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let name = url.lastPathComponent
        let folder = open(url.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { throw failure() }
        defer { close(folder) }
        // A device, FIFO or socket at the target (or a symlink to one: `--out /dev/stdout` as root)
        // is refused: renaming over it would replace a node that is not ours to replace.
        var existing = stat()
        if fstatat(folder, name, &existing, 0) == 0, existing.st_mode & S_IFMT != S_IFREG {
            throw Failure(description: "it exists and is not a regular file; nothing was replaced")
        }
        var temporary = "", fd: Int32 = -1
        for _ in 0 ..< 8 where fd < 0 {
            temporary = ".\(name).\(UInt32.random(in: .min ... .max)).tmp"
            fd = openat(folder, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if fd < 0, errno != EEXIST { break }
        }
        guard fd >= 0 else { throw failure() }
        do {
            defer { close(fd) }
            guard fchmod(fd, 0o600) == 0 else { throw failure() } // whatever the umask
            guard data.withUnsafeBytes({ Descriptor.writeAll(fd, $0) }) else { throw failure() }
            guard fsync(fd) == 0 else { throw failure() }
            guard renameat(folder, temporary, folder, name) == 0 else { throw failure() }
        } catch {
            unlinkat(folder, temporary, 0)
            throw error
        }
    }

    /// Why the file could not be written: errno's text, e.g. "Permission denied".
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    private static func failure() -> Failure { Failure(description: String(cString: strerror(errno))) }
}

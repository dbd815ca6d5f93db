import Foundation
import TransitModel

/// The one way `transit` and `transit-sim` write a file (log bundles, `dump --out`, `export --out`,
/// the simulator's `--log`): they hold the card's number and history, and either may run as root
/// with a path in a folder someone else controls.
///
/// The target's folder is reached by `FolderWalk`: from `/`, no symbolic link followed, every
/// folder owned by root or the user running transit and writable by nobody else unless sticky
/// (StrictModes' rule, `TrustedFile.problem`), so `/home/mallory/dumps/card.json` with `dumps` a
/// link to a root-owned folder is refused, naming the folder and why, while a file directly in
/// /tmp (root's, sticky) is not. A relative path is taken from the current folder as `getcwd`
/// names it (its real path) and walked from `/` like any other; ".." is resolved by name, which is
/// the folder it leads to once no link is followed.
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
    package static func write(_ data: Data, to path: String) throws(Failure) {
        let (folder, name) = try openFolder(of: path)
        defer { close(folder) }
        if let why = targetRefusal(folder, name) { throw Failure(why, refused: true) }
        var temporary = "", fd: Int32 = -1
        for _ in 0 ..< 8 where fd < 0 {
            temporary = ".\(name).\(UInt32.random(in: .min ... .max)).tmp"
            fd = openat(folder, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if fd < 0, errno != EEXIST { break }
        }
        guard fd >= 0 else { throw failure() }
        do throws(Failure) {
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

    /// Why `path` may not be written, as far as can be told before anything is: a folder on the
    /// way that breaks the rule, or a device, FIFO or socket at the target. Nil otherwise, also
    /// when a folder is missing or cannot be read (the write itself says so). Commands ask this
    /// before they read the card, so a refused `--out` or `--log` costs no read.
    package static func refusal(_ path: String) -> String? { refusalWords(path)?.english }

    /// `refusal` in English and in the chosen language.
    package static func refusalWords(_ path: String) -> L10n.Words? {
        do {
            let (folder, name) = try openFolder(of: path)
            defer { close(folder) }
            return targetRefusal(folder, name)
        } catch {
            return error.refused ? error.words : nil
        }
    }

    /// Opens `path` for appending (`transit-sim --log`): its folder walked as for `write`, the file
    /// opened with `O_APPEND | O_NOFOLLOW | O_CREAT`, created 0600. What is at the target is looked
    /// at first (`fstatat` through the folder, no link followed): anything but a regular file is
    /// refused unopened — opening is an act on a FIFO someone reads or a device (`/dev/watchdog`,
    /// as root). An existing file must then be a regular file with no other hard link, the user's
    /// own and private (`PrivateFolder.privateProblem`), checked again on the descriptor; a FIFO
    /// swapped in between is refused without waiting for a reader. The caller closes the descriptor.
    package static func openForAppending(_ path: String) throws(Failure) -> Int32 {
        let (folder, name) = try openFolder(of: path)
        defer { close(folder) }
        var existing = stat()
        if fstatat(folder, name, &existing, AT_SYMLINK_NOFOLLOW) == 0 {
            switch existing.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFLNK: throw Failure(L10n.words("%1$s is a symbolic link: not followed", .init(name)), refused: true)
            case S_IFIFO, S_IFSOCK: throw Failure(L10n.words("%1$s is a FIFO or socket, not a regular file", .init(name)), refused: true)
            case S_IFCHR, S_IFBLK: throw Failure(L10n.words("%1$s is a device, not a regular file", .init(name)), refused: true)
            case S_IFDIR: throw Failure(L10n.words("%1$s is a folder, not a regular file", .init(name)), refused: true)
            default: throw Failure(L10n.words("%1$s is not a regular file", .init(name)), refused: true)
            }
        } else if errno != ENOENT {
            throw failure()
        }
        let fd = openat(folder, name, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            switch errno {
            case ELOOP: throw Failure(L10n.words("%1$s is a symbolic link: not followed", .init(name)), refused: true)
            case ENXIO: throw Failure(L10n.words("%1$s is a FIFO or socket, not a regular file", .init(name)), refused: true) // a FIFO without a reader
            default: throw failure()
            }
        }
        var st = stat()
        guard fstat(fd, &st) == 0 else { let f = failure(); close(fd); throw f }
        let why = PrivateFolder.privateProblem(st, name, isFolder: false)
            ?? (st.st_nlink > 1 ? L10n.words("%1$s has %2$s hard links: another name may reach it", .init(name), .init(String(st.st_nlink))) : nil)
        if let why { close(fd); throw Failure(why, refused: true) }
        _ = fcntl(fd, F_SETFL, O_APPEND) // blocking again (a regular file never blocks anyway)
        return fd
    }

    /// The descriptor of `path`'s folder, reached by `FolderWalk` and itself checked by the folder
    /// rule, and the file's name in it.
    private static func openFolder(of path: String) throws(Failure) -> (fd: Int32, name: String) {
        let (folderPath, name) = try split(path)
        let opened: FolderWalk.Opened?
        do {
            opened = try FolderWalk.open(folderPath, create: false)
        } catch {
            throw Failure(error.words, refused: error.refused)
        }
        guard let opened else { throw Failure(L10n.system(ENOENT)) }
        if let why = TrustedFile.problem(opened.status, what: folderPath, isFolder: true) {
            close(opened.fd)
            throw Failure(why, refused: true)
        }
        return (opened.fd, name)
    }

    /// `path` made absolute (from the current folder) and resolved by name: its folder and its file name.
    private static func split(_ path: String) throws(Failure) -> (folder: String, name: String) {
        var absolute = path
        if !path.hasPrefix("/") {
            guard let cwd = currentFolder() else { throw Failure(L10n.words("the current folder cannot be named: %1$s", L10n.system(errno))) }
            absolute = cwd + "/" + path
        }
        var parts = [Substring]()
        for part in absolute.split(separator: "/") where part != "." {
            if part == ".." { _ = parts.popLast() } else { parts.append(part) }
        }
        let last = path.split(separator: "/").last
        guard let name = parts.popLast(), !path.hasSuffix("/"), last != ".", last != ".." else {
            throw Failure(L10n.words("names a folder, not a file"))
        }
        return ("/" + parts.joined(separator: "/"), String(name))
    }

    /// The current folder's real path, or nil (errno says why).
    private static func currentFolder() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return nil }
        let cwd = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return cwd.hasPrefix("/") ? cwd : nil // glibc's "(unreachable)": outside this root
    }

    /// A device, FIFO or socket at the target (or a symlink to one: `--out /dev/stdout` as root)
    /// is refused: renaming over it would replace a node that is not ours to replace.
    private static func targetRefusal(_ folder: Int32, _ name: String) -> L10n.Words? {
        var existing = stat()
        guard fstatat(folder, name, &existing, 0) == 0 else { return nil }
        let kind = existing.st_mode & S_IFMT
        // A folder is left to the rename, which refuses to replace it (EISDIR).
        return kind == S_IFREG || kind == S_IFDIR ? nil : L10n.words("it exists and is not a regular file; nothing was replaced")
    }

    /// Why the file could not be written: errno's text ("Permission denied"), or the folder or
    /// target the rule refuses and why.
    package struct Failure: SaidError {
        package let words: L10n.Words
        /// Refused by the rule (a folder, a link, a kind of file), not a system error.
        package let refused: Bool
        package init(_ words: L10n.Words, refused: Bool = false) { self.words = words; self.refused = refused }
    }

    private static func failure() -> Failure { Failure(L10n.system(errno)) }
}

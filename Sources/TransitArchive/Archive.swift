import CSQLite
import Foundation
import TransitModel

/// The history archive: one SQLite database (WAL, busy timeout) holding every card read, each
/// card's merged timeline, and the reads themselves. The file and its folder are private: the
/// folder must belong to the user running `transit` (made 0700), the file too (made 0600 by
/// dropping group and other bits; a file its owner made read-only stays read-only and is opened
/// so), and a symlink at either is refused, never followed.
package final class Archive {
    package let db: SQLiteDatabase
    package let path: String
    /// False when the file is read-only (its owner's write bit is off).
    package let writable: Bool

    /// How long a writer waits for another (`watch` and `scan` at once) before giving up.
    package static let busyTimeoutMilliseconds: Int32 = 5000

    private init(db: SQLiteDatabase, path: String, writable: Bool) {
        self.db = db; self.path = path; self.writable = writable
    }

    /// Opens the archive of `settings`; with `create`, makes the folder and an empty database when
    /// missing. Nil when there is no archive and `create` is false. Throws a `TransitError` (config)
    /// whose message says what is wrong with the file.
    package static func open(_ settings: ArchiveSettings, create: Bool) throws -> Archive? {
        let file = settings.databasePath
        func fail(_ why: String) -> TransitError { TransitError(.config, "\(file): \(why)") }
        if create { try makeFolder(settings.folder) }
        let folder = Foundation.open(settings.folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard folder >= 0 else {
            if errno == ENOENT, !create { return nil }
            throw fail(errno == ELOOP || errno == ENOTDIR ? "its folder is a symbolic link or not a folder: not followed" : "its folder cannot be opened: \(errorText())")
        }
        defer { close(folder) }
        try checkPrivate(folder, isFolder: true, fail)
        // The folder's real path: SQLite is given a path without symlinks, so that its own
        // SQLITE_OPEN_NOFOLLOW check refuses only a link planted at the file.
        guard let real = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(folder)") else {
            throw fail("its folder's path cannot be resolved")
        }
        for suffix in ["-wal", "-shm"] {
            var st = stat()
            if fstatat(folder, ArchiveSettings.fileName + suffix, &st, AT_SYMLINK_NOFOLLOW) == 0, st.st_mode & S_IFMT != S_IFREG {
                throw fail("\(ArchiveSettings.fileName + suffix) is a symbolic link or not a regular file: not followed")
            }
        }
        let fd = openat(folder, ArchiveSettings.fileName, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | (create ? O_CREAT : 0), 0o600)
        guard fd >= 0 else {
            if errno == ENOENT, !create { return nil }
            throw fail(errno == ELOOP ? "is a symbolic link: not followed" : "cannot be opened: \(errorText())")
        }
        let mode: mode_t
        do {
            defer { close(fd) }
            mode = try checkPrivate(fd, isFolder: false, fail)
        }
        let writable = mode & S_IWUSR != 0
        let flags = (writable ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY) | SQLITE_OPEN_NOFOLLOW
        do {
            let db = try SQLiteDatabase(path: real + "/" + ArchiveSettings.fileName, flags: flags,
                                        busyTimeoutMilliseconds: busyTimeoutMilliseconds)
            // Deleted records are overwritten, not left in free pages (`transit forget`).
            try db.execute("PRAGMA secure_delete = ON")
            if writable {
                if try db.prepare("PRAGMA journal_mode").stepText() != "wal" { try db.execute("PRAGMA journal_mode = WAL") }
                try db.execute("PRAGMA synchronous = NORMAL")
                try ArchiveSchema.migrate(db)
            } else {
                _ = try ArchiveSchema.version(db)
            }
            return Archive(db: db, path: file, writable: writable)
        } catch let newer as ArchiveSchema.Newer {
            throw fail("written by a newer transit (schema version \(newer.found); this transit knows up to \(ArchiveSchema.current)): left unchanged")
        } catch let e as SQLiteDatabase.Failure where !e.isBusy {
            throw fail(e.description)
        }
    }

    /// Runs `body` (an open and a store, or a forget) again while SQLite says another connection
    /// is busy in a way its busy timeout does not cover, for up to `seconds`: never forever.
    package static func retryingWhileBusy<T>(for seconds: Double = Double(busyTimeoutMilliseconds) / 1000, _ body: () throws -> T) throws -> T {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            do {
                return try body()
            } catch let e as SQLiteDatabase.Failure where e.isBusy && Date() < deadline {
                usleep(UInt32.random(in: 2_000 ... 20_000))
            }
        }
    }

    /// Creates the folder (and missing parents) 0700.
    private static func makeFolder(_ path: String) throws {
        var current = ""
        for part in path.split(separator: "/") {
            current += "/" + part
            if mkdir(current, 0o700) != 0, errno != EEXIST {
                throw TransitError(.config, "cannot create \(current): \(errorText())")
            }
        }
    }

    /// The folder or file behind `fd` must be the user's own (or root's, for the folder) and of
    /// the right kind; group and other bits are dropped. Returns the mode it has now.
    @discardableResult
    private static func checkPrivate(_ fd: Int32, isFolder: Bool, _ fail: (String) -> TransitError) throws -> mode_t {
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw fail("cannot be examined: \(errorText())") }
        let kind = st.st_mode & S_IFMT
        guard kind == (isFolder ? S_IFDIR : S_IFREG) else { throw fail(isFolder ? "its folder is not a folder" : "is not a regular file") }
        guard st.st_uid == geteuid() else {
            throw fail("\(isFolder ? "its folder belongs" : "belongs") to user \(st.st_uid), not to the user running transit (\(geteuid())): not used")
        }
        let mode = st.st_mode & 0o7777
        if mode & 0o077 != 0 {
            guard fchmod(fd, mode & 0o700) == 0 else { throw fail("cannot be made private: \(errorText())") }
            return mode & 0o700
        }
        return mode
    }

    package static func errorText() -> String { String(cString: strerror(errno)) }
}

extension SQLiteDatabase.Statement {
    /// Steps once and gives the first column as text.
    package func stepText() throws -> String? {
        defer { reset() }
        return try step() ? text(0) : nil
    }
}

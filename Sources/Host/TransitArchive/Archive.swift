import CSQLite
import Foundation
import TransitFiles
import TransitModel

/// The history archive: one SQLite database (WAL, busy timeout) holding every card read, each
/// card's merged timeline, and the reads themselves. The file and its folder are private: both
/// belong to the user running `transit`, with no group or other bits (the folder is made 0700, the
/// file 0600; a looser one is refused and said, never quietly repaired; a file its owner made
/// read-only is opened so), every folder above is root's or the user's and writable by no one
/// else, and a symlink anywhere on the way is refused, never followed.
package final class Archive {
    package let db: SQLiteDatabase
    package let path: String
    /// False when the file is read-only (its owner's write bit is off).
    package let writable: Bool
    /// The schema version the file has: a read-only file of an older `transit` is read as it is.
    package let schemaVersion: Int64

    /// How long a writer waits for another (`watch` and `scan` at once) before giving up.
    package static let busyTimeoutMilliseconds: Int32 = 5000

    private init(db: SQLiteDatabase, path: String, writable: Bool, schemaVersion: Int64) {
        self.db = db; self.path = path; self.writable = writable; self.schemaVersion = schemaVersion
    }

    /// Opens the archive of `settings`; with `create`, makes the folder and an empty database when
    /// missing. Nil when there is no archive and `create` is false. Throws a `TransitError` (config)
    /// whose message names the file and says what is wrong with it (the disk full, the file damaged).
    /// `reading` (cards, history, report, export) opens it even on a full disk, where SQLite
    /// cannot grow the `-shm` a WAL reader shares: in SQLite's EXCLUSIVE locking mode, which keeps
    /// the WAL index in the connection's own memory and needs no `-shm` (sqlite.org/wal.html, "Use
    /// of WAL Without Shared-Memory": WAL databases can be read "even if shared memory is
    /// unavailable as long as the locking_mode is set to EXCLUSIVE before the first attempted
    /// access"), with nothing written (no migration) and the archive said read-only. The
    /// connection must be read-write all the same: a read-only one cannot take the exclusive lock
    /// (SQLITE_IOERR_LOCK, tried with SQLite 3.40 on a full tmpfs).
    ///
    /// The folder is walked from `/` and held by descriptor (`PrivateFolder`); SQLite is handed the
    /// database through that descriptor (`/proc/self/fd/N/history.db`), so the database and its
    /// `-wal`, `-shm` and `-journal` are the ones inside the folder that was checked, and the file
    /// SQLite opened is checked to be the one examined here.
    package static func open(_ settings: ArchiveSettings, create: Bool, reading: Bool = false) throws -> Archive? {
        let file = settings.databasePath
        func fail(_ why: L10n.Words) -> TransitError { TransitError(.config, L10n.Words("\(file): ") + why) }
        let folder: Int32
        do {
            guard let fd = try PrivateFolder.open(settings.folder, create: create) else { return nil }
            folder = fd
        } catch {
            throw fail(L10n.words("its folder: %1$s", L10n.Words(error: error)))
        }
        defer { close(folder) }
        // What SQLite would use beside the database: each must be the user's own, private, regular.
        for suffix in ["-wal", "-shm", "-journal"] {
            var st = stat()
            let name = ArchiveSettings.fileName + suffix
            if fstatat(folder, name, &st, AT_SYMLINK_NOFOLLOW) == 0, let why = PrivateFolder.privateProblem(st, name, isFolder: false) {
                throw fail(L10n.words("%1$s (the archive's data may have been read through it): not used", why))
            }
        }
        let fd = openat(folder, ArchiveSettings.fileName, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | (create ? O_CREAT : 0), 0o600)
        guard fd >= 0 else {
            if errno == ENOENT, !create { return nil }
            throw fail(errno == ELOOP ? L10n.words("is a symbolic link: not followed") : L10n.words("cannot be opened: %1$s", L10n.system(errno)))
        }
        var examined = stat()
        let examinedOK = fstat(fd, &examined) == 0
        // Closed before SQLite opens the file: closing any descriptor of a file drops every POSIX
        // lock the process holds on it, SQLite's included.
        close(fd)
        guard examinedOK else { throw fail(L10n.words("cannot be examined: %1$s", L10n.system(errno))) }
        if let why = PrivateFolder.privateProblem(examined, ArchiveSettings.fileName, isFolder: false) { throw fail(why) }
        let ownerWritable = examined.st_mode & S_IWUSR != 0
        // The connection; `withoutSharedMemory` for a read on a full disk: nothing written.
        func connect(withoutSharedMemory: Bool) throws -> Archive {
            let writable = ownerWritable && !withoutSharedMemory
            let db = try SQLiteDatabase(path: "/proc/self/fd/\(folder)/" + ArchiveSettings.fileName, name: file,
                                        flags: ownerWritable ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY,
                                        busyTimeoutMilliseconds: busyTimeoutMilliseconds)
            // Before the first access, or SQLite maps the -shm.
            if withoutSharedMemory { try db.execute("PRAGMA locking_mode = EXCLUSIVE") }
            // SQLite names the file by the folder's path: the file behind that name must be the one examined.
            var opened = stat()
            guard let name = db.fileName, stat(name, &opened) == 0, opened.st_dev == examined.st_dev, opened.st_ino == examined.st_ino else {
                throw fail(L10n.words("the archive's folder changed while it was opened: not used"))
            }
            // Deleted records are overwritten, not left in free pages (`transit forget`).
            try db.execute("PRAGMA secure_delete = ON")
            if writable {
                if try db.prepare("PRAGMA journal_mode").stepText() != "wal" { try db.execute("PRAGMA journal_mode = WAL") }
                try db.execute("PRAGMA synchronous = NORMAL")
                try ArchiveSchema.migrate(db)
            }
            return Archive(db: db, path: file, writable: writable, schemaVersion: try ArchiveSchema.version(db))
        }
        do {
            do {
                return try connect(withoutSharedMemory: false)
            } catch let e as SQLiteDatabase.Failure where e.isDiskFull && reading {
                return try connect(withoutSharedMemory: true)
            }
        } catch let newer as ArchiveSchema.Newer {
            throw fail(L10n.words("written by a newer transit (schema version %1$s; this transit knows up to %2$s): left unchanged",
                                  .init(String(newer.found)), .init(String(ArchiveSchema.current))))
        } catch let e as SQLiteDatabase.Failure where !e.isBusy {
            throw e.transitError
        }
    }

    /// Runs `body` (an open and a store, or a forget) again while SQLite says another connection
    /// is busy in a way its busy timeout does not cover, for up to `seconds`: never forever.
    package static func retryingWhileBusy<T>(for seconds: Double = Double(busyTimeoutMilliseconds) / 1000, _ body: () throws -> T) throws -> T {
        let deadline = Deadline(secondsFromNow: seconds)
        while true {
            do {
                return try body()
            } catch let e as SQLiteDatabase.Failure where e.isBusy && !deadline.hasPassed {
                usleep(UInt32.random(in: 2_000 ... 20_000))
            }
        }
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

import CSQLite
import Foundation
import TransitModel

/// A thin, throwing wrapper over one SQLite connection (Debian's libsqlite3): prepared statements,
/// typed binds and columns, and transactions. Used only by the history archive.
package final class SQLiteDatabase {
    /// An SQLite error: its result code, the connection's message, the file's name as the user
    /// knows it and the system's errno behind it (`sqlite3_system_errno`: ENOSPC under a "disk
    /// I/O error"). As a `TransitError` it is `config` (exit 2, README "Errors": an archive that
    /// cannot be used) naming the file: the disk full said as such, a damaged file as damaged.
    package struct Failure: Error, CustomStringConvertible, TransitErrorConvertible {
        package let code: Int32
        package let description: String
        package var file = ""
        package var systemErrno: Int32 = 0

        package init(code: Int32, description: String, file: String = "", systemErrno: Int32 = 0) {
            self.code = code; self.description = description; self.file = file; self.systemErrno = systemErrno
        }

        /// Another connection held a lock SQLite would not wait for (opening a database another
        /// process is switching to WAL or closing, for one): worth trying again.
        package var isBusy: Bool { code & 0xFF == SQLITE_BUSY || code & 0xFF == SQLITE_LOCKED }

        /// No space left: SQLITE_FULL, or an I/O error (a write, the -shm's growth) whose errno is ENOSPC or EDQUOT.
        package var isDiskFull: Bool {
            code & 0xFF == SQLITE_FULL || (code & 0xFF == SQLITE_IOERR && (systemErrno == ENOSPC || systemErrno == EDQUOT))
        }

        /// The file is not the database it should be: pages overwritten (SQLITE_CORRUPT, NOTADB), or
        /// a table or column of the schema gone (a dropped table: "no such table").
        package var isDamaged: Bool {
            code & 0xFF == SQLITE_CORRUPT || code & 0xFF == SQLITE_NOTADB
                || (code & 0xFF == SQLITE_ERROR && (description.hasPrefix("no such table") || description.hasPrefix("no such column")))
        }

        package var transitError: TransitError {
            // SQLite's own words (its message) stay as SQLite says them.
            let name = file.isEmpty ? L10n.words("the history archive") : L10n.Words(file), sqlite = L10n.Words(description)
            if isDiskFull {
                return TransitError(.config, L10n.words("%1$s: the disk is full (%2$s): free some space and try again", name, sqlite))
            }
            if isDamaged {
                return TransitError(.config, L10n.words("%1$s is damaged (%2$s): move it aside (transit starts a new archive) or put back a copy", name, sqlite))
            }
            if isBusy {
                return TransitError(.config, L10n.words("%1$s is busy: another transit held it for longer than it waits (%2$s); try again", name, sqlite))
            }
            return TransitError(.config, L10n.words("%1$s cannot be used: %2$s", name, sqlite))
        }
    }

    /// The database's name in messages (the archive's path as the user knows it).
    package let name: String

    private var handle: OpaquePointer?
    /// Prepared statements by their SQL: a read stores twenty records with the same few statements.
    private var statements = [String: Statement]()

    /// Opens `path` with `flags` (SQLITE_OPEN_*); SQLITE_OPEN_NOFOLLOW refuses a symlink at `path`.
    /// `name` is what its failures call it.
    package init(path: String, name: String, flags: Int32, busyTimeoutMilliseconds: Int32) throws {
        self.name = name
        let rc = sqlite3_open_v2(path, &handle, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            let system = handle.map { sqlite3_system_errno($0) } ?? 0
            sqlite3_close_v2(handle)
            handle = nil
            throw Failure(code: rc, description: message, file: name, systemErrno: system)
        }
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
    }

    /// The full name SQLite gave the main database (symbolic links resolved), when it has one.
    package var fileName: String? { sqlite3_db_filename(handle, "main").map { String(cString: $0) } }

    deinit {
        statements.removeAll() // finalized before the connection closes
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements that return no rows.
    package func execute(_ sql: String) throws {
        try check(sqlite3_exec(handle, sql, nil, nil, nil))
    }

    /// The statement for `sql`, prepared once per connection and reset for each use.
    package func prepare(_ sql: String) throws -> Statement {
        if let cached = statements[sql] {
            cached.reset()
            return cached
        }
        var statement: OpaquePointer?
        try check(sqlite3_prepare_v2(handle, sql, -1, &statement, nil))
        let prepared = Statement(statement!, database: self)
        statements[sql] = prepared
        return prepared
    }

    /// The first column of the first row of `sql`, as an integer (nil when no row).
    package func integer(_ sql: String, _ values: [Value] = []) throws -> Int64? {
        let s = try prepare(sql)
        try s.bind(values)
        defer { s.reset() }
        return try s.step() ? s.integer(0) : nil
    }

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction: committed when it returns, rolled back
    /// when it throws. IMMEDIATE takes the write lock first, so the busy timeout applies to it and
    /// two writers never deadlock upgrading a read.
    package func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    package var lastInsertedRow: Int64 { sqlite3_last_insert_rowid(handle) }

    package func check(_ rc: Int32) throws {
        guard rc == SQLITE_OK || rc == SQLITE_ROW || rc == SQLITE_DONE else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            throw Failure(code: rc, description: message, file: name, systemErrno: handle.map { sqlite3_system_errno($0) } ?? 0)
        }
    }

    /// A value bound to a statement parameter.
    package enum Value {
        case integer(Int64), text(String), null
        package init(_ i: Int64?) { self = i.map(Value.integer) ?? .null }
        package init(_ s: String?) { self = s.map(Value.text) ?? .null }
    }

    /// One prepared statement, owned by its connection's cache; finalized when the connection closes.
    package final class Statement {
        private let statement: OpaquePointer
        private unowned let database: SQLiteDatabase
        private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

        fileprivate init(_ statement: OpaquePointer, database: SQLiteDatabase) {
            self.statement = statement
            self.database = database
        }

        deinit { sqlite3_finalize(statement) }

        /// Ends a use: the statement lets go of its read and can run again.
        package func reset() { sqlite3_reset(statement) }

        /// Binds `values` to parameters 1…n (after a reset, for reuse).
        package func bind(_ values: [Value]) throws {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
            for (i, value) in values.enumerated() {
                let index = Int32(i + 1)
                switch value {
                case .integer(let v): try database.check(sqlite3_bind_int64(statement, index, v))
                // With its byte length: a NUL inside the text is kept, not an end.
                case .text(let s): try database.check(sqlite3_bind_text(statement, index, s, Int32(clamping: s.utf8.count), Self.transient))
                case .null: try database.check(sqlite3_bind_null(statement, index))
                }
            }
        }

        /// Steps once: true when a row is ready.
        @discardableResult
        package func step() throws -> Bool {
            let rc = sqlite3_step(statement)
            try database.check(rc)
            return rc == SQLITE_ROW
        }

        /// Binds `values` and runs the statement to its end.
        package func run(_ values: [Value]) throws {
            try bind(values)
            defer { reset() }
            while try step() {}
        }

        package func integer(_ column: Int32) -> Int64? {
            sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : sqlite3_column_int64(statement, column)
        }

        package func text(_ column: Int32) -> String? {
            guard let p = sqlite3_column_text(statement, column) else { return nil }
            // By length, not up to a NUL; bytes that are not UTF-8 (a corrupt file) are repaired.
            return String(decoding: UnsafeBufferPointer(start: p, count: Int(sqlite3_column_bytes(statement, column))), as: UTF8.self)
        }

        /// The column's text as SQLite holds it (valid until the next step or reset), without a
        /// String made of it; nil for NULL.
        package func withBytes<T>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T? {
            guard let p = sqlite3_column_text(statement, column) else { return nil }
            return body(UnsafeBufferPointer(start: p, count: Int(sqlite3_column_bytes(statement, column))))
        }
    }
}

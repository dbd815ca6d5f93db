/// The archive's tables, versioned with SQLite's `user_version`. `migrations[n]` takes a database
/// of version n to n + 1; a new version appends a step and never edits an old one. Version 0 is an
/// empty file (or a new database); a version above `current` was written by a newer `transit`
/// and is refused without a change.
package enum ArchiveSchema {
    package static var current: Int64 { Int64(migrations.count) }

    package static let migrations: [String] = [
        // 0 → 1: cards, their reads, and each card's timeline of records.
        """
        CREATE TABLE cards (
            id INTEGER PRIMARY KEY,
            family TEXT NOT NULL,
            serial TEXT NOT NULL,          -- serialNumber as printed
            idm TEXT NOT NULL DEFAULT '',  -- metadata idm (FeliCa), '' when the card has none
            name TEXT,                     -- cardName of the latest read
            currency TEXT NOT NULL,
            UNIQUE (family, serial, idm)
        );
        CREATE TABLE reads (
            id INTEGER PRIMARY KEY,
            card INTEGER NOT NULL REFERENCES cards(id),
            read_at TEXT NOT NULL,         -- UTC, ISO 8601 with milliseconds
            command TEXT NOT NULL,         -- scan, watch, verify, decode, replay
            reader TEXT NOT NULL,
            balance INTEGER NOT NULL,
            merged INTEGER NOT NULL,       -- 1: in the card's timeline; 0: kept apart (see note)
            note TEXT,                     -- why a read was kept apart
            reading TEXT NOT NULL          -- the read as `scan --json` prints it, raw records included
        );
        CREATE INDEX reads_by_card ON reads (card, id);
        CREATE TABLE records (
            id INTEGER PRIMARY KEY,
            card INTEGER NOT NULL REFERENCES cards(id),
            position INTEGER NOT NULL,     -- order in the card's timeline, oldest first
            identity TEXT NOT NULL,        -- rawType/rawPayload (or the record's JSON without raw bytes)
            sequence INTEGER,              -- metadata sequence, when the card numbers its records
            type TEXT NOT NULL,
            amount INTEGER,
            balance INTEGER,               -- the record's balance, when the reading gives one
            date TEXT,
            entry_station TEXT,
            entry_name TEXT,
            exit_station TEXT,
            exit_name TEXT,
            record TEXT NOT NULL,          -- the transaction as the reading's JSON has it
            first_read INTEGER NOT NULL,
            last_read INTEGER NOT NULL
        );
        CREATE INDEX records_by_position ON records (card, position);
        CREATE INDEX records_by_sequence ON records (card, sequence) WHERE sequence IS NOT NULL;
        """,
        // 1 → 2: what an interrupted command left to finish (a forget whose log was kept busy).
        """
        CREATE TABLE pending (what TEXT PRIMARY KEY);
        """,
        // 2 → 3: the stations' English names too (station_name_en of the table the read used), so
        // history and export follow scan's locale rule with the names kept.
        """
        ALTER TABLE records ADD COLUMN entry_name_en TEXT;
        ALTER TABLE records ADD COLUMN exit_name_en TEXT;
        """,
        // 3 → 4: a card's nickname (`transit cards --name`), one card a nickname; records found by
        // their date (`transit report`'s period).
        """
        ALTER TABLE cards ADD COLUMN nickname TEXT;
        CREATE UNIQUE INDEX cards_by_nickname ON cards (nickname) WHERE nickname IS NOT NULL;
        CREATE INDEX records_by_date ON records (card, date);
        """,
        // 4 → 5: a card's id (`#3`) is never given to another card, even after `forget`: the table
        // is made again with AUTOINCREMENT (SQLite then keeps the highest id ever given in
        // sqlite_sequence), keeping every card's id; ids go on from the highest one the archive holds.
        """
        CREATE TABLE cards_kept (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            family TEXT NOT NULL,
            serial TEXT NOT NULL,
            idm TEXT NOT NULL DEFAULT '',
            name TEXT,
            currency TEXT NOT NULL,
            nickname TEXT,
            UNIQUE (family, serial, idm)
        );
        INSERT INTO cards_kept (id, family, serial, idm, name, currency, nickname)
            SELECT id, family, serial, idm, name, currency, nickname FROM cards ORDER BY id;
        DROP TABLE cards;
        ALTER TABLE cards_kept RENAME TO cards;
        CREATE UNIQUE INDEX cards_by_nickname ON cards (nickname) WHERE nickname IS NOT NULL;
        """,
        // 5 → 6: a read of a card without a stored value has no balance (a Calypso card: reads.balance
        // may be NULL, so the table is made again, keeping every read and its id), and each read's
        // passes (contracts, season tickets, carnets), in the card's order, as the reading's JSON
        // has them, with their validity for the period a report covers.
        """
        CREATE TABLE reads_kept (
            id INTEGER PRIMARY KEY,
            card INTEGER NOT NULL REFERENCES cards(id),
            read_at TEXT NOT NULL,
            command TEXT NOT NULL,
            reader TEXT NOT NULL,
            balance INTEGER,               -- NULL: the card holds no stored value
            merged INTEGER NOT NULL,
            note TEXT,
            reading TEXT NOT NULL
        );
        INSERT INTO reads_kept (id, card, read_at, command, reader, balance, merged, note, reading)
            SELECT id, card, read_at, command, reader, balance, merged, note, reading FROM reads ORDER BY id;
        DROP TABLE reads;
        ALTER TABLE reads_kept RENAME TO reads;
        CREATE INDEX reads_by_card ON reads (card, id);
        CREATE TABLE passes (
            id INTEGER PRIMARY KEY,
            card INTEGER NOT NULL REFERENCES cards(id),
            read INTEGER NOT NULL REFERENCES reads(id),
            position INTEGER NOT NULL,     -- the pass's place on the card, from 0
            valid_from TEXT,               -- its validity, as the reading has it
            valid_until TEXT,
            pass TEXT NOT NULL             -- the pass as the reading's JSON has it
        );
        CREATE INDEX passes_by_read ON passes (card, read, position);
        """,
    ]

    /// Brings `db` to `current` inside one transaction; throws `Newer` for a newer database.
    package static func migrate(_ db: SQLiteDatabase) throws {
        // Most opens find the current version: checked before taking the write lock.
        if try version(db) == current { return }
        try db.transaction {
            let found = try version(db)
            guard found <= current else { throw Newer(found: found) }
            for step in migrations[Int(found)...] { try db.execute(step) }
            try db.execute("PRAGMA user_version = \(current)")
        }
    }

    package static func version(_ db: SQLiteDatabase) throws -> Int64 {
        let v = try db.integer("PRAGMA user_version") ?? 0
        guard v <= current else { throw Newer(found: v) }
        guard v >= 0 else { throw SQLiteDatabase.Failure(code: 0, description: "unknown schema version \(v)", file: db.name) }
        return v
    }

    /// A database written by a newer `transit`.
    package struct Newer: Error {
        package let found: Int64
    }
}

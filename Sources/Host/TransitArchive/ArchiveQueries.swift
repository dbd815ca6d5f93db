import Foundation
import TransitModel
/// Reading the archive back: the cards it knows, a card named on the command line, a card's
/// timeline, and forgetting a card.
extension Archive {
    /// A card with what `transit cards` shows.
    package struct Card {
        package var id: Int64
        package var family: String, serial: String, idm: String, name: String?, currency: String
        package var lastBalance: Int64?, lastRead: String?
        package var records: Int, reads: Int, readsApart: Int
        /// What its owner calls it (`transit cards --name`): "通勤", "Yuki's PASMO".
        package var nickname: String?
        /// The passes its latest read held (`currentPasses`).
        package var passes: [CardPass] = []

        package init(id: Int64, family: String, serial: String, idm: String, name: String?, currency: String, lastBalance: Int64?,
                     lastRead: String?, records: Int, reads: Int, readsApart: Int, nickname: String? = nil) {
            self.id = id; self.family = family; self.serial = serial; self.idm = idm; self.name = name; self.currency = currency
            self.lastBalance = lastBalance; self.lastRead = lastRead; self.records = records; self.reads = reads; self.readsApart = readsApart
            self.nickname = nickname
        }

        /// The card's name as people say it: its cardName, else its family.
        package var displayName: String { name ?? family }
        /// How `transit cards` names it for `history`, `export` and `forget`: `#3`.
        package var handle: String { "#\(id)" }
    }

    /// One record of a timeline, oldest first.
    package struct TimelineRecord {
        /// The transaction's listed fields, typed from the record's columns: type, date, amount,
        /// balance, stations and their names (its metadata is in `json`).
        package var transaction: CardReading.TransactionRecord
        /// The transaction's JSON as `scan --json` printed it.
        package var json: String
        /// What tells the record from the card's others in the archive (its raw bytes, or its
        /// JSON when it has none): the same on every read of the record.
        package var identity: String

        package init(transaction: CardReading.TransactionRecord, json: String, identity: String = "") {
            self.transaction = transaction; self.json = json; self.identity = identity
        }

        /// The whole transaction, metadata included, typed from its JSON (decoded only when asked: a
        /// listing of 100,000 records reads the columns); the columns' when it does not decode.
        package func stored(_ decoder: JSONDecoder = JSONDecoder()) -> CardReading.TransactionRecord {
            (try? decoder.decode(CardReading.TransactionRecord.self, from: Data(json.utf8))) ?? transaction
        }
    }

    package func cards() throws -> [Card] { try cards(id: nil, counted: true) }

    /// Every card (or the one of `id`); `counted`: with its last read, balance, records and reads
    /// counted and its passes, else with its names only (what `cards(matching:)` compares: the
    /// counts of every card were a tenth of a 10,000-record `history`, issue 47).
    private func cards(id: Int64?, counted: Bool) throws -> [Card] {
        let q = try db.prepare(counted ? """
            SELECT c.id, c.family, c.serial, c.idm, c.name, c.currency,
                (SELECT balance FROM reads WHERE card = c.id ORDER BY id DESC LIMIT 1),
                (SELECT read_at FROM reads WHERE card = c.id ORDER BY id DESC LIMIT 1),
                (SELECT COUNT(*) FROM records WHERE card = c.id),
                (SELECT COUNT(*) FROM reads WHERE card = c.id),
                (SELECT COUNT(*) FROM reads WHERE card = c.id AND merged = 0),
                \(schemaVersion >= 4 ? "c.nickname" : "NULL")
            FROM cards c WHERE ?1 IS NULL OR c.id = ?1 ORDER BY c.id
            """ : """
            SELECT c.id, c.family, c.serial, c.idm, c.name, c.currency, NULL, NULL, 0, 0, 0,
                \(schemaVersion >= 4 ? "c.nickname" : "NULL")
            FROM cards c WHERE ?1 IS NULL OR c.id = ?1 ORDER BY c.id
            """)
        try q.bind([.init(id)])
        var cards = [Card]()
        while try q.step() {
            cards.append(Card(id: q.integer(0) ?? 0, family: q.text(1) ?? "", serial: q.text(2) ?? "", idm: q.text(3) ?? "",
                              name: q.text(4), currency: q.text(5) ?? "", lastBalance: q.integer(6), lastRead: q.text(7),
                              records: Int(q.integer(8) ?? 0), reads: Int(q.integer(9) ?? 0), readsApart: Int(q.integer(10) ?? 0),
                              nickname: q.text(11)))
        }
        guard counted else { return cards }
        let passes = try currentPasses()
        for i in cards.indices { cards[i].passes = passes[cards[i].id] ?? [] }
        return cards
    }

    /// A card's number or IDm as `cards(matching:)` compares it, and a nickname with it (one that
    /// is another card's number would name two cards): upper case, spaces and dashes ignored.
    static func normalNumber(_ s: String) -> String { s.uppercased().filter { $0 != " " && $0 != "-" } }

    /// The card `name` means: its id (`#3`, as `transit cards` shows it), its nickname (exactly),
    /// `FAMILY:NUMBER`, the number as printed or the IDm (exactly, ignoring case, spaces and
    /// dashes), else — when `prefix` — the one card whose number starts with it. Throws a usage
    /// error, naming the ids to choose from, when none or several match.
    package func cards(matching name: String, prefix: Bool = true) throws -> Card {
        let found = try uncountedCard(matching: name, prefix: prefix)
        return try cards(id: found.id, counted: true).first ?? found
    }

    /// `cards(matching:)`'s card, with its names only.
    private func uncountedCard(matching name: String, prefix: Bool) throws -> Card {
        let normal = Self.normalNumber
        let all = try cards(id: nil, counted: false)
        if name.hasPrefix("#") {
            guard let id = Int64(name.dropFirst()), let card = all.first(where: { $0.id == id }) else {
                throw TransitError(.usage, L10n.words("no card %1$s in %2$s (see transit cards)", .init(name), .init(path)))
            }
            return card
        }
        if let card = all.first(where: { $0.nickname == name }) { return card }
        var family: String?, number = name
        if let colon = name.firstIndex(of: ":") {
            family = String(name[..<colon]).lowercased()
            number = String(name[name.index(after: colon)...])
        }
        let wanted = normal(number)
        guard !wanted.isEmpty else { throw TransitError(.usage, L10n.words("no card named \"%1$s\"", .init(name))) }
        /// Each card as `#3 (family number)`; one matched by its hidden IDm, not its number, says so.
        func listed(_ cards: [Card]) -> L10n.Words {
            cards.map { card in
                let byIDm = !normal(card.serial).hasPrefix(wanted) && !card.idm.isEmpty && normal(card.idm).hasPrefix(wanted)
                return byIDm ? L10n.words("%1$s (%2$s %3$s, matched by its IDm %4$s)", .init(card.handle), .init(card.family), .init(card.serial), .init(card.idm))
                    : .init("\(card.handle) (\(card.family) \(card.serial))")
            }.joined(separator: .init(", "))
        }
        let candidates = all.filter { family == nil || $0.family == family }
        let exact = candidates.filter { normal($0.serial) == wanted || (!$0.idm.isEmpty && normal($0.idm) == wanted) }
        switch exact.count {
        case 1: return exact[0]
        case 0: break
        default: throw TransitError(.usage, L10n.words("%1$s is the number of %2$s cards: %3$s; name one by its id", .init(name), .init(String(exact.count)), listed(exact)))
        }
        let begun = candidates.filter { normal($0.serial).hasPrefix(wanted) || normal($0.idm).hasPrefix(wanted) }
        guard !begun.isEmpty else { throw TransitError(.usage, L10n.words("no card %1$s in %2$s (see transit cards)", .init(name), .init(path))) }
        guard prefix else {
            throw TransitError(.usage, begun.count == 1
                ? L10n.words("no card is numbered %1$s exactly; it begins the number of %2$s: give the whole number or the id, or --yes for this card",
                             .init(name), listed(begun))
                : L10n.words("no card is numbered %1$s exactly; it begins the number of %2$s: give the whole number or the id", .init(name), listed(begun)))
        }
        guard begun.count == 1 else {
            throw TransitError(.usage, L10n.words("%1$s begins the number of %2$s cards: %3$s; give more of the number, or the id",
                                                  .init(name), .init(String(begun.count)), listed(begun)))
        }
        return begun[0]
    }

    /// The card's timeline, oldest first; with `metadata`, each record's metadata too (bus lines,
    /// stops, regions: what a row's details show), with `raw` its raw type and bytes (all a JSON
    /// listing writes), both taken from its stored JSON in the same pass (`StoredRecordFields`);
    /// with `period`, only the records dated in it (by their day in the card's zone; undated
    /// records are in no period).
    /// `listing` leaves each record's `json` and `identity` empty (`stored()` then gives the
    /// columns' transaction): a listing that prints neither does not copy 10,000 of each.
    /// `unsaid`: metadata keys the listing never shows, left out (`StoredRecordFields.parse`).
    package func timeline(card: Int64, metadata: Bool = false, raw withRaw: Bool = false, period: ReportPeriod? = nil,
                          listing: Bool = false, unsaid: [String] = []) throws -> [TimelineRecord] {
        var rows = [TimelineRecord]()
        // Its size once (from the index), not the array grown and copied a dozen times.
        if period == nil { rows.reserveCapacity(Int(try db.integer("SELECT COUNT(*) FROM records WHERE card = ?", [.integer(card)]) ?? 0)) }
        try timeline(card: card, metadata: metadata, raw: withRaw, period: period, listing: listing, unsaid: unsaid) { rows.append($0) }
        return rows
    }

    /// The same timeline, each record handed to `each` as it is read: a listing written as it goes
    /// holds one record at a time, not 10,000 (`history --json`, issue 47).
    package func timeline(card: Int64, metadata: Bool = false, raw withRaw: Bool = false, period: ReportPeriod? = nil,
                          listing: Bool = false, unsaid: [String] = [], each: (TimelineRecord) throws -> Void) throws {
        let (within, days) = Self.dated(period, column: "date")
        let q = try db.prepare("""
            SELECT date, type, amount, balance, entry_station, entry_name, exit_station, exit_name, record, entry_name_en, exit_name_en,
                position, identity
            FROM records WHERE card = ?\(within) ORDER BY position
            """)
        try q.bind([.integer(card)] + days)
        // Dates repeat (a day's trips), and parsing one is most of a row's typing: the last one kept.
        var lastDateText: String?, lastDate: CardDate?
        let unsaidBytes = unsaid.map { Array($0.utf8) }
        while try q.step() {
            let dateText = q.text(0)
            if dateText != lastDateText { lastDate = dateText.flatMap(CardDate.init); lastDateText = dateText }
            var t = CardReading.TransactionRecord(type: q.text(1).flatMap(TransactionKind.init(rawValue:)) ?? .unknown,
                                                  amount: q.integer(2).map { UInt64(clamping: $0) }, date: lastDate,
                                                  entryStation: q.text(4), exitStation: q.text(6), balance: q.integer(3))
            t.entryStationName = q.text(5)
            t.exitStationName = q.text(7)
            t.entryStationNameEnglish = q.text(9)
            t.exitStationNameEnglish = q.text(10)
            if metadata || withRaw, let fields = q.withBytes(8, { StoredRecordFields.parse($0, metadata: metadata, raw: withRaw, unsaid: unsaidBytes) }) ?? nil {
                t.metadata = fields.metadata
                t.rawType = fields.rawType
                t.rawPayload = fields.rawPayload
            }
            let unnamed = t.rawType == nil && t.type == .unknown
            let identity = !listing || unnamed ? q.text(12) ?? "" : ""
            // Without the stored JSON read, the raw type of a record of a type no plugin names
            // still comes from its identity (rawType/rawPayload).
            if unnamed, let slash = identity.firstIndex(of: "/"), slash != identity.startIndex, !identity.hasPrefix("{") {
                t.rawType = String(identity[..<slash])
            }
            try each(TimelineRecord(transaction: t, json: listing ? "" : q.text(8) ?? "{}", identity: listing ? "" : identity))
        }
    }

    /// The balance the card stated when it was last read holding the timeline's newest record: the
    /// latest read (by the order reads were kept) that saw that record, whose newest record it then
    /// was, so the balance is the card's after it. Nil for an empty timeline and for a read that
    /// stated no balance (a card without a purse). Not the card's last read: reads kept in another
    /// order than the card lived them (an old dump decoded after a new read) would date a balance
    /// after a record the card had not yet made.
    package func closingBalance(card: Int64) throws -> Int64? {
        try db.integer("""
            SELECT r.balance FROM records c JOIN reads r ON r.id = c.last_read
            WHERE c.card = ? ORDER BY c.position DESC LIMIT 1
            """, [.integer(card)])
    }

    /// The SQL condition and its values that keep the records dated in `period`: the stored
    /// date (`YYYY-MM-DD`, or with the time after it) from the first day up to the day after the last.
    private static func dated(_ period: ReportPeriod?, column: String) -> (condition: String, values: [SQLiteDatabase.Value]) {
        guard let period else { return ("", []) }
        let after = period.to.adding(days: 1)?.description ?? "9999-12-32"
        return (" AND \(column) >= ? AND \(column) < ?", [.text(period.from.description), .text(after)])
    }

    /// When each read kept apart from the card's timeline was made, and why.
    package func readsApart(card: Int64) throws -> [(readAt: String, reason: String)] {
        let q = try db.prepare("SELECT read_at, note FROM reads WHERE card = ? AND merged = 0 ORDER BY id")
        try q.bind([.integer(card)])
        var rows = [(readAt: String, reason: String)]()
        while try q.step() { rows.append((q.text(0) ?? "", q.text(1) ?? "")) }
        return rows
    }

    /// Removes the card, its reads and its timeline (overwritten: secure_delete), then empties the
    /// write-ahead log so no copy of them stays there. The removal notes, in the same transaction,
    /// that the log still holds a copy; the note goes once the log was emptied, so a forget the log
    /// kept busy is finished by the next (`finishPendingForget`).
    package func forget(card: Int64) throws {
        guard writable else { throw TransitError(.config, L10n.words("%1$s: is read-only", .init(path))) }
        try db.transaction {
            for table in ["records", "reads"] { try db.prepare("DELETE FROM \(table) WHERE card = ?").run([.integer(card)]) }
            try db.prepare("DELETE FROM cards WHERE id = ?").run([.integer(card)])
            try db.execute("INSERT OR IGNORE INTO pending (what) VALUES ('checkpoint')")
        }
        try emptyTheLog()
    }

    /// True when an earlier forget left a copy in the write-ahead log and this one removed it.
    package func finishPendingForget() throws -> Bool {
        guard writable, try db.integer("SELECT COUNT(*) FROM pending WHERE what = 'checkpoint'") ?? 0 > 0 else { return false }
        try emptyTheLog()
        return true
    }

    private func emptyTheLog() throws {
        // The checkpoint reports, rather than throws, that a reader kept it from emptying the log
        // (its first column, "busy"): try again for a while, then say that a copy may remain.
        let deadline = Deadline(secondsFromNow: Double(Archive.busyTimeoutMilliseconds) / 1000)
        while try db.integer("PRAGMA wal_checkpoint(TRUNCATE)") == 1 {
            guard !deadline.hasPassed else {
                throw TransitError(.config, L10n.words("""
                    %1$s: the card was removed, but another transit kept its write-ahead log busy; \
                    run transit forget again when no other transit runs: it finishes the removal
                    """, .init(path)))
            }
            usleep(50_000)
        }
        // The note's removal is all the log holds now; emptied too, best effort.
        try db.execute("DELETE FROM pending WHERE what = 'checkpoint'")
        _ = try db.integer("PRAGMA wal_checkpoint(TRUNCATE)")
    }
}

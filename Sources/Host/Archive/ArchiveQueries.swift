import Foundation
/// Reading the archive back: the cards it knows, a card named on the command line, a card's
/// timeline, and forgetting a card.
extension Archive {
    /// A card with what `transit cards` shows.
    struct Card {
        var id: Int64
        var family: String, serial: String, idm: String, name: String?, currency: String
        var lastBalance: Int64?, lastRead: String?
        var records: Int, reads: Int, readsApart: Int

        /// The card's name as people say it: its cardName, else its family.
        var displayName: String { name ?? family }
    }

    /// One record of a timeline, oldest first.
    struct TimelineRecord {
        var date: String?, type: String, amount: Int64?, balance: Int64?
        var entry: String?, entryName: String?, exit: String?, exitName: String?
        /// The transaction's JSON as the reading gave it.
        var json: String
    }

    func cards() throws -> [Card] {
        let q = try db.prepare("""
            SELECT c.id, c.family, c.serial, c.idm, c.name, c.currency,
                (SELECT balance FROM reads WHERE card = c.id ORDER BY id DESC LIMIT 1),
                (SELECT read_at FROM reads WHERE card = c.id ORDER BY id DESC LIMIT 1),
                (SELECT COUNT(*) FROM records WHERE card = c.id),
                (SELECT COUNT(*) FROM reads WHERE card = c.id),
                (SELECT COUNT(*) FROM reads WHERE card = c.id AND merged = 0)
            FROM cards c ORDER BY c.id
            """)
        var cards = [Card]()
        while try q.step() {
            cards.append(Card(id: q.integer(0) ?? 0, family: q.text(1) ?? "", serial: q.text(2) ?? "", idm: q.text(3) ?? "",
                              name: q.text(4), currency: q.text(5) ?? "", lastBalance: q.integer(6), lastRead: q.text(7),
                              records: Int(q.integer(8) ?? 0), reads: Int(q.integer(9) ?? 0), readsApart: Int(q.integer(10) ?? 0)))
        }
        return cards
    }

    /// The cards `name` means: the number as printed or the IDm (exactly, ignoring case, spaces and
    /// dashes), else the cards whose number starts with it. Throws when none or several match.
    func cards(matching name: String) throws -> Card {
        func normal(_ s: String) -> String { s.uppercased().filter { $0 != " " && $0 != "-" } }
        let wanted = normal(name)
        let all = try cards()
        guard !wanted.isEmpty else { throw TransitError(.usage, "no card named \"\(name)\"") }
        var found = all.filter { normal($0.serial) == wanted || (!$0.idm.isEmpty && normal($0.idm) == wanted) }
        if found.isEmpty { found = all.filter { normal($0.serial).hasPrefix(wanted) || normal($0.idm).hasPrefix(wanted) } }
        switch found.count {
        case 1: return found[0]
        case 0: throw TransitError(.usage, "no card \(name) in \(path) (see transit cards)")
        default: throw TransitError(.usage, "\(name) matches \(found.count) cards (\(found.map(\.serial).joined(separator: ", "))): give more of the number")
        }
    }

    /// The card's timeline, oldest first.
    func timeline(card: Int64) throws -> [TimelineRecord] {
        let q = try db.prepare("""
            SELECT date, type, amount, balance, entry_station, entry_name, exit_station, exit_name, record
            FROM records WHERE card = ? ORDER BY position
            """)
        try q.bind([.integer(card)])
        var rows = [TimelineRecord]()
        while try q.step() {
            rows.append(TimelineRecord(date: q.text(0), type: q.text(1) ?? "unknown", amount: q.integer(2), balance: q.integer(3),
                                       entry: q.text(4), entryName: q.text(5), exit: q.text(6), exitName: q.text(7), json: q.text(8) ?? "{}"))
        }
        return rows
    }

    /// When each read kept apart from the card's timeline was made, and why.
    func readsApart(card: Int64) throws -> [(readAt: String, reason: String)] {
        let q = try db.prepare("SELECT read_at, note FROM reads WHERE card = ? AND merged = 0 ORDER BY id")
        try q.bind([.integer(card)])
        var rows = [(readAt: String, reason: String)]()
        while try q.step() { rows.append((q.text(0) ?? "", q.text(1) ?? "")) }
        return rows
    }

    /// Removes the card, its reads and its timeline (overwritten: secure_delete), then empties the
    /// write-ahead log so no copy of them stays there.
    func forget(card: Int64) throws {
        guard writable else { throw TransitError(.config, "\(path): is read-only") }
        try db.transaction {
            for table in ["records", "reads"] { try db.prepare("DELETE FROM \(table) WHERE card = ?").run([.integer(card)]) }
            try db.prepare("DELETE FROM cards WHERE id = ?").run([.integer(card)])
        }
        // The checkpoint reports, rather than throws, that a reader kept it from emptying the log
        // (its first column, "busy"): try again for a while, then say that a copy may remain.
        let deadline = Date().addingTimeInterval(Double(Archive.busyTimeoutMilliseconds) / 1000)
        while try db.integer("PRAGMA wal_checkpoint(TRUNCATE)") == 1 {
            guard Date() < deadline else {
                throw TransitError(.config, "\(path): the card was removed, but another transit kept its write-ahead log busy; "
                                   + "run transit forget again when no other transit runs")
            }
            usleep(50_000)
        }
    }
}

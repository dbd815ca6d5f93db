import CardProtocol
import Foundation
import TransitModel

/// Storing one read: the card (found or added), the read with its raw records, and its records
/// merged into the card's timeline — all in one transaction.
extension Archive {
    /// What storing a read did.
    package struct Stored {
        package var card: Int64
        package var read: Int64
        /// Records the timeline did not hold.
        package var added = 0
        /// Why the read was kept apart from the timeline, when it was.
        package var keptApart: String?
    }

    /// Positions are spaced so that a record found later between two others usually fits.
    package static let spacing: Int64 = 1 << 16

    /// Stores `reading` without its personal data (the archive never keeps it).
    package func store(_ reading: CardReading, command: String, reader: String, at time: Date = Date()) throws -> Stored {
        guard writable else { throw TransitError(.config, L10n.words("%1$s: is read-only", .init(path))) }
        let reading = reading.withoutPersonalData
        let readingJSON = JSONOutput.encode(reading)
        let records = Array(IncomingRecord.all(reading).reversed()) // oldest first
        return try db.transaction {
            let card = try cardID(reading)
            try db.prepare("INSERT INTO reads (card, read_at, command, reader, balance, merged, reading) VALUES (?, ?, ?, ?, ?, 1, ?)")
                .run([.integer(card), .text(Self.timestamp(time)), .text(command), .text(reader), .init(reading.balance), .text(readingJSON)])
            var stored = Stored(card: card, read: db.lastInsertedRow)
            try storePasses(reading.passes, card: card, read: stored.read)
            do {
                stored.added = try merge(records, card: card, read: stored.read)
            } catch let apart as KeptApart {
                try db.prepare("UPDATE reads SET merged = 0, note = ? WHERE id = ?").run([.text(apart.reason), .integer(stored.read)])
                stored.keptApart = apart.reason
            }
            return stored
        }
    }

    private struct KeptApart: Error { let reason: String }

    /// The read's passes, in the card's order.
    private func storePasses(_ passes: [CardPass], card: Int64, read: Int64) throws {
        guard !passes.isEmpty else { return }
        let insert = try db.prepare("INSERT INTO passes (card, read, position, valid_from, valid_until, pass) VALUES (?, ?, ?, ?, ?, ?)")
        let encoder = JSONOutput.makeEncoder()
        for (i, pass) in passes.enumerated() {
            try insert.run([.integer(card), .integer(read), .integer(Int64(i)), .init(pass.validFrom?.description),
                            .init(pass.validUntil?.description), .text(JSONOutput.encode(pass, with: encoder))])
        }
    }

    /// A record already in the timeline.
    private struct Archived {
        package var id: Int64
        package var record: TimelineMerge.Record
        package var amount: Int64?
    }

    /// The card's row: the same family, number and IDm, or a new card.
    private func cardID(_ r: CardReading) throws -> Int64 {
        let idm = r.metadata[MetadataKey.idm] ?? ""
        let find = try db.prepare("SELECT id FROM cards WHERE family = ? AND serial = ? AND idm = ?")
        try find.bind([.text(r.family), .text(r.serialNumber), .text(idm)])
        let found = try find.step() ? find.integer(0) : nil
        find.reset()
        if let id = found {
            try db.prepare("UPDATE cards SET name = COALESCE(?, name), currency = ? WHERE id = ?").run([.init(r.cardName), .text(r.currency), .integer(id)])
            return id
        }
        try db.prepare("INSERT INTO cards (family, serial, idm, name, currency) VALUES (?, ?, ?, ?, ?)")
            .run([.text(r.family), .text(r.serialNumber), .text(idm), .init(r.cardName), .text(r.currency)])
        return db.lastInsertedRow
    }

    /// Merges `records` (oldest first) into the card's timeline; returns how many were new.
    private func merge(_ records: [IncomingRecord], card: Int64, read: Int64) throws -> Int {
        guard !records.isEmpty else { return 0 }
        if records.allSatisfy({ $0.merge.sequence != nil }) { return try mergeNumbered(records, card: card, read: read) }
        let window = max(2 * records.count, 64)
        var archived = try newest(card: card, limit: window)
        var plan = TimelineMerge.plan(archive: archived.map(\.record), read: records.map(\.merge), whole: archived.count < window)
        if plan == .needWholeTimeline {
            archived = try newest(card: card, limit: nil)
            plan = TimelineMerge.plan(archive: archived.map(\.record), read: records.map(\.merge), whole: true)
        }
        switch plan {
        case .contradiction(let why): throw KeptApart(reason: why)
        case .needWholeTimeline: throw KeptApart(reason: "the timeline could not be read whole")
        case .disjoint(let older):
            // Nothing shared: the records go after the timeline (a gap), or before it when they are older.
            var previous: Int64? = nil
            for r in older ? records.reversed() : records {
                let position = try previous.map { older ? try place(before: $0, card: card) : try place(after: $0, card: card) }
                    ?? (older ? try edge(card: card, lowest: true) - Self.spacing : try edge(card: card, lowest: false) + Self.spacing)
                previous = try insert(r, card: card, read: read, position: position)
            }
            return records.count
        case .merge(let matched):
            let ids = matched.map { $0.map { archived[$0].id } }
            for (i, index) in matched.enumerated() { if let index { try refresh(archived[index], with: records[i], read: read) } }
            guard let first = ids.firstIndex(where: { $0 != nil }), let firstID = ids[first] else { return 0 }
            // New records before the first match go before it, newest first; the others after the
            // record above them (a match, or one just inserted).
            var next = firstID
            for i in stride(from: first - 1, through: 0, by: -1) {
                next = try insert(records[i], card: card, read: read, position: try place(before: next, card: card))
            }
            var previous = firstID
            for i in first + 1 ..< records.count {
                if let id = ids[i] { previous = id; continue }
                previous = try insert(records[i], card: card, read: read, position: try place(after: previous, card: card))
            }
            return matched.filter { $0 == nil }.count
        }
    }

    /// Numbered records: the number decides which record is which and where a new one goes.
    private func mergeNumbered(_ records: [IncomingRecord], card: Int64, read: Int64) throws -> Int {
        let numbers = records.compactMap(\.merge.sequence)
        let query = try db.prepare("SELECT id, sequence, identity, amount FROM records WHERE card = ? AND sequence IN (\(numbers.map { String($0) }.joined(separator: ",")))")
        try query.bind([.integer(card)])
        var archived = [Int64: Archived]()
        while try query.step() {
            guard let id = query.integer(0), let n = query.integer(1) else { continue }
            archived[n] = Archived(id: id, record: .init(identity: query.text(2) ?? "", sequence: n, date: nil), amount: query.integer(3))
        }
        if let why = TimelineMerge.contradiction(read: records.map(\.merge), archived: archived.mapValues(\.record.identity)) {
            throw KeptApart(reason: why)
        }
        var added = 0
        var seen = Set<Int64>()
        for r in records.sorted(by: { $0.merge.sequence! < $1.merge.sequence! }) {
            let n = r.merge.sequence!
            guard seen.insert(n).inserted else { continue }
            if let old = archived[n] { try refresh(old, with: r, read: read); continue }
            let position: Int64
            if let before = try db.integer("SELECT id FROM records WHERE card = ? AND sequence < ? ORDER BY sequence DESC LIMIT 1", [.integer(card), .integer(n)]) {
                position = try place(after: before, card: card)
            } else if let after = try db.integer("SELECT id FROM records WHERE card = ? AND sequence > ? ORDER BY sequence LIMIT 1", [.integer(card), .integer(n)]) {
                position = try place(before: after, card: card)
            } else {
                position = try edge(card: card, lowest: false) + Self.spacing
            }
            try insert(r, card: card, read: read, position: position)
            added += 1
        }
        return added
    }

    /// The timeline's newest `limit` records (all without a limit), oldest first.
    private func newest(card: Int64, limit: Int?) throws -> [Archived] {
        let query = try db.prepare("SELECT id, identity, sequence, date, amount FROM records WHERE card = ? ORDER BY position DESC" + (limit.map { " LIMIT \($0)" } ?? ""))
        try query.bind([.integer(card)])
        var rows = [Archived]()
        while try query.step() {
            rows.append(Archived(id: query.integer(0) ?? 0, record: .init(identity: query.text(1) ?? "", sequence: query.integer(2), date: query.text(3).flatMap(CardDate.init)),
                                 amount: query.integer(4)))
        }
        return rows.reversed()
    }

    /// A record seen again: the newer decoding replaces the stored one, unless it lacks the amount
    /// the stored one has (a ring's oldest record, whose amount needed the record before it).
    private func refresh(_ old: Archived, with r: IncomingRecord, read: Int64) throws {
        if r.amount == nil, old.amount != nil {
            try db.prepare("UPDATE records SET last_read = ? WHERE id = ?").run([.integer(read), .integer(old.id)])
            return
        }
        try db.prepare("""
            UPDATE records SET last_read = ?, type = ?, amount = ?, balance = ?, date = ?, entry_station = ?, entry_name = ?,
                exit_station = ?, exit_name = ?, record = ?, entry_name_en = ?, exit_name_en = ? WHERE id = ?
            """).run([.integer(read)] + r.columns + [.integer(old.id)])
    }

    @discardableResult
    private func insert(_ r: IncomingRecord, card: Int64, read: Int64, position: Int64) throws -> Int64 {
        try db.prepare("""
            INSERT INTO records (first_read, last_read, type, amount, balance, date, entry_station, entry_name, exit_station, exit_name, record,
                entry_name_en, exit_name_en, card, position, identity, sequence) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).run([.integer(read), .integer(read)] + r.columns + [.integer(card), .integer(position), .text(r.merge.identity), .init(r.merge.sequence)])
        return db.lastInsertedRow
    }

    /// The lowest or highest position of the card's timeline (0 when empty).
    private func edge(card: Int64, lowest: Bool) throws -> Int64 {
        try db.integer("SELECT \(lowest ? "MIN" : "MAX")(position) FROM records WHERE card = ?", [.integer(card)]) ?? 0
    }

    /// A free position right after (or before) record `id`, renumbering the timeline when none is left.
    private func place(after id: Int64, card: Int64) throws -> Int64 { try place(id, card: card, after: true) }
    private func place(before id: Int64, card: Int64) throws -> Int64 { try place(id, card: card, after: false) }

    private func place(_ id: Int64, card: Int64, after: Bool) throws -> Int64 {
        for _ in 0 ..< 2 {
            let p = try db.integer("SELECT position FROM records WHERE id = ?", [.integer(id)]) ?? 0
            let neighbour = after
                ? try db.integer("SELECT MIN(position) FROM records WHERE card = ? AND position > ?", [.integer(card), .integer(p)])
                : try db.integer("SELECT MAX(position) FROM records WHERE card = ? AND position < ?", [.integer(card), .integer(p)])
            guard let n = neighbour else { return after ? p + Self.spacing : p - Self.spacing }
            if abs(n - p) >= 2 { return p + (n - p) / 2 }
            try renumber(card: card)
        }
        throw TransitError(.config, L10n.words("%1$s: the timeline's positions cannot be renumbered", .init(path)))
    }

    /// Spaces the card's positions out again, keeping their order.
    private func renumber(card: Int64) throws {
        let ids = try db.prepare("SELECT id FROM records WHERE card = ? ORDER BY position")
        try ids.bind([.integer(card)])
        var order = [Int64]()
        while try ids.step() { order.append(ids.integer(0) ?? 0) }
        let update = try db.prepare("UPDATE records SET position = ? WHERE id = ?")
        for (rank, id) in order.enumerated() { try update.run([.integer(Int64(rank) * Self.spacing), .integer(id)]) }
    }

    /// UTC, ISO 8601 with milliseconds (`2026-11-05T01:02:03.456Z`): sorts as text. Written by
    /// hand: a Foundation date formatter costs a millisecond to create, a fifth of a store's budget.
    package static func timestamp(_ date: Date) -> String {
        let ms = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        var seconds = time_t(ms / 1000), parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let milli = ms % 1000
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):"
            + "\(two(parts.tm_sec)).\(milli < 10 ? "00" : milli < 100 ? "0" : "")\(milli)Z"
    }
}

import TransitModel

/// Where a read's records go in a card's timeline, decided from record identities alone (the host
/// knows no family). Records are the same record when their raw bytes match and they sit in the
/// same order among their neighbours; when every record of the read carries a sequence number
/// (metadata `sequence`), that number decides instead, and the same number with other bytes is a
/// contradiction. Both lists are oldest first.
package enum TimelineMerge {
    /// A record as the merge sees it.
    package struct Record: Equatable {
        package var identity: String
        package var sequence: Int64?
        /// When known (orders a read that shares nothing with the archive).
        package var date: CardDate?

        package init(identity: String, sequence: Int64? = nil, date: CardDate? = nil) {
            self.identity = identity; self.sequence = sequence; self.date = date
        }
    }

    package enum Plan: Equatable {
        /// `matched[i]` is the archive index of read record i, nil for a new one; new records
        /// before the first match go `older`, the others after it (see `place`).
        case merge(matched: [Int?])
        /// The read shares no record with the archive: all its records go after (or before) it.
        case disjoint(older: Bool)
        /// Only part of the timeline was given and the read does not meet its newest end.
        case needWholeTimeline
        case contradiction(String)
    }

    /// The plan for a read of unnumbered records against `archive` (the timeline's newest records,
    /// or all of them when `whole`).
    package static func plan(archive: [Record], read: [Record], whole: Bool) -> Plan {
        let a = archive.map(\.identity), r = read.map(\.identity)
        guard !r.isEmpty, !a.isEmpty else { return .disjoint(older: false) }
        // The read lies inside the timeline (read again with nothing new): the latest such place.
        if r.count <= a.count {
            for start in stride(from: a.count - r.count, through: 0, by: -1) where Array(a[start ..< start + r.count]) == r {
                return .merge(matched: (0 ..< r.count).map { start + $0 })
            }
        }
        // The ring moved on: the read's oldest records are the timeline's newest.
        for k in stride(from: min(r.count, a.count), through: 1, by: -1) where Array(a.suffix(k)) == Array(r.prefix(k)) {
            return .merge(matched: (0 ..< r.count).map { $0 < k ? a.count - k + $0 : nil })
        }
        guard whole else { return .needWholeTimeline }
        // An older read: its newest records are the timeline's oldest.
        for k in stride(from: min(r.count, a.count), through: 1, by: -1) where Array(a.prefix(k)) == Array(r.suffix(k)) {
            return .merge(matched: (0 ..< r.count).map { $0 >= r.count - k ? $0 - (r.count - k) : nil })
        }
        let known = Set(a)
        if let shared = r.firstIndex(where: known.contains) {
            return .contradiction("record \(shared + 1) of the read (oldest first) is in the archive, but among other neighbours")
        }
        let newest = read.compactMap(\.date).max(), oldest = archive.compactMap(\.date).min()
        if let newest, let oldest, newest < oldest { return .disjoint(older: true) }
        return .disjoint(older: false)
    }

    /// The first contradiction between numbered read records and the archive's records of the same
    /// numbers, or within the read itself.
    package static func contradiction(read: [Record], archived: [Int64: String]) -> String? {
        var seen = [Int64: String]()
        for record in read {
            guard let n = record.sequence else { continue }
            if let other = archived[n], other != record.identity {
                return "record number \(n) holds other bytes than the archive's record \(n)"
            }
            if let other = seen[n], other != record.identity { return "the read holds two records numbered \(n) with other bytes" }
            seen[n] = record.identity
        }
        return nil
    }
}

import Foundation
import TransitModel

/// The passes the archive keeps with each read (schema 6): a card's current ones (its latest
/// read's) and those valid in a period.
extension Archive {
    /// Each card's current passes: those of its latest read, in the card's order (none when that
    /// read held none), by card id.
    package func currentPasses() throws -> [Int64: [CardPass]] {
        guard schemaVersion >= 6 else { return [:] }
        let q = try db.prepare("""
            SELECT p.card, p.pass FROM passes p
            WHERE p.read = (SELECT MAX(r.id) FROM reads r WHERE r.card = p.card)
            ORDER BY p.card, p.position
            """)
        var out = [Int64: [CardPass]]()
        let decoder = JSONDecoder()
        while try q.step() {
            guard let card = q.integer(0), let pass = Self.pass(q.text(1), decoder) else { continue }
            out[card, default: []].append(pass)
        }
        return out
    }

    /// The passes of `card` valid on some day from `first` to `last`, as its latest read of each
    /// showed it (a carnet read twice is named once, with the trips the later read left), in the
    /// order the card held them.
    package func passes(card: Int64, from first: CalendarDay, to last: CalendarDay) throws -> [CardPass] {
        guard schemaVersion >= 6 else { return [] }
        // Validity is compared by its day: the first ten characters of the stored text.
        let q = try db.prepare("""
            SELECT pass FROM passes
            WHERE card = ? AND (valid_from IS NULL OR substr(valid_from, 1, 10) <= ?)
                AND (valid_until IS NULL OR substr(valid_until, 1, 10) >= ?)
            ORDER BY read DESC, position
            """)
        try q.bind([.integer(card), .text(last.description), .text(first.description)])
        var seen = Set<String>(), out = [CardPass]()
        let decoder = JSONDecoder()
        while try q.step() {
            guard let pass = Self.pass(q.text(0), decoder) else { continue }
            let key = [pass.tariff, pass.name ?? "", pass.validFrom?.description ?? "", pass.validUntil?.description ?? ""].joined(separator: "\u{1F}")
            if seen.insert(key).inserted { out.append(pass) }
        }
        return out
    }

    private static func pass(_ json: String?, _ decoder: JSONDecoder) -> CardPass? {
        json.flatMap { try? decoder.decode(CardPass.self, from: Data($0.utf8)) }
    }
}

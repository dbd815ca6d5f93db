import TransitModel

extension Archive {
    /// A card's newest dated record's date, and the newest date that carries a time (whose offset
    /// is the card's zone); nil where it has none. Two indexed queries, no timeline read.
    package func newestDates(card: Int64) throws -> (newest: CardDate?, timed: CardDate?) {
        func newest(_ condition: String) throws -> CardDate? {
            let q = try db.prepare("SELECT date FROM records WHERE card = ? AND date IS NOT NULL\(condition) ORDER BY date DESC LIMIT 1")
            try q.bind([.integer(card)])
            return try q.step() ? q.text(0).flatMap(CardDate.init) : nil
        }
        return (try newest(""), try newest(" AND length(date) > 10"))
    }
}

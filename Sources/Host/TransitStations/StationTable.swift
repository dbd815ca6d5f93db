import TransitModel

/// Station names from the user's tables, keyed by area, line and station code (Japan IC: a
/// station code is unique only together with its area, and some codes were renumbered).
package struct StationTable {
    package struct Station: Equatable {
        package var operatorName: String
        package var line: String
        package var name: String
        package var englishName: String?
        /// Inclusive; nil when open.
        package var validFrom: CalendarDay?
        package var validUntil: CalendarDay?

        package var isBounded: Bool { validFrom != nil || validUntil != nil }

        /// True when the row holds on `date`; a bounded row never holds on an unknown date.
        package func covers(_ date: CalendarDay?) -> Bool {
            guard isBounded else { return true }
            guard let date else { return false }
            if let validFrom, date < validFrom { return false }
            if let validUntil, date > validUntil { return false }
            return true
        }
    }

    package init() {}

    private var rows = [Int: [Station]]()
    package private(set) var count = 0

    package static func key(area: Int, line: Int, station: Int) -> Int { area << 16 | line << 8 | station }

    /// Adds a row; rows added earlier win over later ones of the same validity.
    package mutating func add(_ station: Station, area: Int, line: Int, code: Int) {
        rows[Self.key(area: area, line: line, station: code), default: []].append(station)
        count += 1
    }

    /// The station at a code on a date (nil when the record has none): a row whose validity covers
    /// the date wins over an open one (a renumbered code), else the first open row.
    package func station(area: Int, line: Int, code: Int, on date: CalendarDay?) -> Station? {
        guard let candidates = rows[Self.key(area: area, line: line, station: code)] else { return nil }
        return candidates.first { $0.isBounded && $0.covers(date) } ?? candidates.first { !$0.isBounded }
    }
}

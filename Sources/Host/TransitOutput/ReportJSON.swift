import TransitModel

/// `transit report --format json`: per card `{"card", "period", "rows", "totals"}`, amounts as
/// integers in the card's minor unit as `scan --json` gives them (unsigned; the type says which
/// way). The same bytes in every locale (issue 44): a station's `entryStationName` is English where
/// the table has it, else the table's own, as the CSV's `entry_station_name`; `entryStationNameLocal`
/// the table's own (the operator's spelling).
package enum ReportJSON {
    struct Card: Encodable {
        let number: String, family: String, name: String, nickname: String?, currency: String
    }

    struct Period: Encodable { let from: CalendarDay, to: CalendarDay }

    struct Row: Encodable {
        let date: CalendarDay
        let time: String?
        let type: TransactionKind
        let entryStation: String?, exitStation: String?
        let entryStationName: String?, exitStationName: String?
        let entryStationNameLocal: String?, exitStationNameLocal: String?
        let amount: UInt64?
        let balance: Int64?
    }

    struct Report: Encodable {
        let card: Card
        let period: Period
        let rows: [Row]
        let totals: CardReport.Totals
        /// The passes valid on some day of the period; absent when none.
        let passes: [CardPass]?
    }

    /// One object for one card; an array when the report covers every card (`all`).
    package static func render(_ reports: [CardReport], all: Bool) -> String {
        let objects = reports.map { object($0) }
        if !all, let only = objects.first, objects.count == 1 { return JSONOutput.encode(only) }
        return JSONOutput.encode(objects)
    }

    static func object(_ r: CardReport) -> Report {
        let c = r.card
        let rows = r.rows.compactMap { row -> Row? in
            let t = row.record
            guard let date = t.date else { return nil } // a period holds dated records only
            return Row(date: date.day, time: date.clock?.text(seconds: true), type: t.type, entryStation: t.entryStation,
                       exitStation: t.exitStation,
                       entryStationName: t.entryStationNameEnglish ?? t.entryStationName,
                       exitStationName: t.exitStationNameEnglish ?? t.exitStationName,
                       entryStationNameLocal: t.entryStationName, exitStationNameLocal: t.exitStationName,
                       amount: t.amount, balance: t.balance)
        }
        return Report(card: Card(number: c.serial, family: c.family, name: c.name ?? c.family, nickname: c.nickname, currency: c.currency),
                      period: Period(from: r.period.from, to: r.period.to), rows: rows, totals: r.totals,
                      passes: r.passes.isEmpty ? nil : r.passes)
    }
}

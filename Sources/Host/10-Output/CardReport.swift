import TransitArchive
import TransitModel

/// One card's records of a period and their totals: what `transit report` prints in every format
/// (text, JSON, SFCard Viewer CSV, OFX, HTML). Rows are oldest first, with their metadata and the
/// station names of the tables there are now (both languages: each format picks its own).
package struct CardReport {
    package var card: Archive.Card
    package var period: ReportPeriod
    package var rows: [Row]
    package var totals: Totals

    /// A record and what tells it from the card's other records in the archive (OFX's FITID).
    package struct Row {
        package var record: CardReading.TransactionRecord
        package var identity: String

        package init(record: CardReading.TransactionRecord, identity: String) {
            self.record = record; self.identity = identity
        }
    }

    /// What the period cost and brought, in the card's minor units: amounts a record does not
    /// know are in no sum (a ring's oldest record), but its trip is counted.
    package struct Totals: Equatable, Encodable {
        package var trips = 0
        package var fares: Int64 = 0
        package var purchases: Int64 = 0
        package var topups: Int64 = 0
    }

    package init(card: Archive.Card, period: ReportPeriod, rows: [Row]) {
        self.card = card; self.period = period; self.rows = rows
        var totals = Totals()
        for row in rows {
            let amount = row.record.amount.map { Int64(clamping: $0) } ?? 0
            switch row.record.type {
            case .trip: totals.trips += 1; totals.fares += amount
            case .purchase: totals.purchases += amount
            case .topup: totals.topups += amount
            case .unknown: break
            }
        }
        self.totals = totals
    }

    /// The card as a reading, for the renderers `scan` uses (its number as printed, its name).
    package var reading: CardReading { HistoryOutput.reading(card, records: rows.map(\.record)) }

    /// `Suica “通勤”`: the card's name (its family when it has none) and its nickname.
    package var title: String {
        TerminalText.escape((card.name ?? card.family) + (card.nickname.map { " “\($0)”" } ?? ""))
    }

    /// Fares a day, or a month when the period spans more than two months: each bucket's first
    /// day and the sum of the trips dated in it (the chart of the HTML page).
    package var faresOverTime: [(start: CalendarDay, fares: Int64)] {
        let byMonth = period.months.count > 2
        var buckets = [(start: CalendarDay, fares: Int64)]()
        if byMonth {
            buckets = period.months.map { ($0, 0) }
        } else {
            var day: CalendarDay? = period.from
            while let d = day, d <= period.to { buckets.append((d, 0)); day = d.adding(days: 1) }
        }
        for row in rows where row.record.type == .trip {
            guard let day = row.record.date?.day, let amount = row.record.amount else { continue }
            let index = byMonth ? buckets.firstIndex { $0.start.year == day.year && $0.start.month == day.month }
                : buckets.firstIndex { $0.start == day }
            if let index { buckets[index].fares += Int64(clamping: amount) }
        }
        return buckets
    }
}

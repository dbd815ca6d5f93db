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
    /// The card's passes valid on some day of the period (`Archive.passes(card:from:to:)`).
    package var passes: [CardPass]

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

    package init(card: Archive.Card, period: ReportPeriod, rows: [Row], passes: [CardPass] = []) {
        self.card = card; self.period = period; self.rows = rows; self.passes = passes
        var totals = Totals()
        for row in rows {
            let amount = row.record.amount.map { Int64(clamping: $0) } ?? 0
            switch row.record.type {
            case .trip: totals.trips += 1; totals.fares = Self.sum(totals.fares, amount)
            case .purchase: totals.purchases = Self.sum(totals.purchases, amount)
            case .topup: totals.topups = Self.sum(totals.topups, amount)
            case .unknown: break
            }
        }
        self.totals = totals
    }

    /// `a + b`, or the nearest bound where that overflows: amounts near Int64.max (a hostile
    /// plugin's, an archive someone else wrote) make a total of Int64.max, never a trap.
    static func sum(_ a: Int64, _ b: Int64) -> Int64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b < 0 ? .min : .max) : sum
    }

    /// The card as a reading, for the renderers `scan` uses (its number as printed, its name).
    package var reading: CardReading { HistoryOutput.reading(card, records: rows.map(\.record)) }

    /// `Suica “通勤”`: the card's name (its family when it has none) and its nickname.
    package var title: String {
        TerminalText.escape((card.name ?? card.family) + (card.nickname.map { " “\($0)”" } ?? ""))
    }

    /// The most bars the chart draws: a month a bar for ten years, 720 points wide.
    package static let maxBars = 120

    /// What a bar of the chart covers: a day when the period touches at most two months, a month
    /// when at most `maxBars`, else as many whole years as keep the bars at most `maxBars`
    /// (`--from 0001-01-01 --to 9999-12-31`: 84 years a bar).
    package enum ChartStep: Equatable {
        case day, month
        case years(Int)
    }

    package var chartStep: ChartStep {
        let months = period.monthCount
        if months <= 2 { return .day }
        if months <= Self.maxBars { return .month }
        return .years((period.to.year - period.from.year + Self.maxBars) / Self.maxBars)
    }

    /// The chart's bars (`chartStep`): each one's first day and the sum of the trips dated in it,
    /// each trip's bar computed from its day, not looked for.
    package var faresOverTime: [(start: CalendarDay, fares: Int64)] {
        let step = chartStep, from = period.from
        func index(_ day: CalendarDay) -> Int {
            switch step {
            case .day: day.daysSinceEpoch - from.daysSinceEpoch
            case .month: (day.year - from.year) * 12 + day.month - from.month
            case .years(let n): (day.year - from.year) / n
            }
        }
        var buckets = (0 ... index(period.to)).compactMap { i -> (start: CalendarDay, fares: Int64)? in
            let start: CalendarDay? = switch step {
            case .day: from.adding(days: i)
            case .month: CalendarDay(year: from.year + (from.month - 1 + i) / 12, month: (from.month - 1 + i) % 12 + 1, day: 1)
            case .years(let n): CalendarDay(year: from.year + i * n, month: 1, day: 1)
            }
            return start.map { ($0, 0) }
        }
        for row in rows where row.record.type == .trip {
            guard let day = row.record.date?.day, period.contains(day), let amount = row.record.amount else { continue }
            let i = index(day)
            if buckets.indices.contains(i) { buckets[i].fares = Self.sum(buckets[i].fares, Int64(clamping: amount)) }
        }
        return buckets
    }
}

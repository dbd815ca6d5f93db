import TransitModel

/// `transit report` as text: for each card, a title line (name, nickname, number, period), the
/// rows as `scan` prints them, then the totals with their numbers grouped.
package enum ReportText {
    /// `notes`: what an empty period says instead of "No records in this period.", by card id.
    package static func render(_ reports: [CardReport], style: TextOutput.Style, notes: [Int64: String] = [:]) -> String {
        reports.map { render($0, style: style, note: notes[$0.card.id]) }.joined(separator: "\n\n")
    }

    package static func render(_ report: CardReport, style: TextOutput.Style, note: String? = nil) -> String {
        let reading = report.reading, currency = report.card.currency, style = style.of(report.card.family)
        var lines = ["\(report.title)  \(TerminalText.escape(TextOutput.number(reading)))  —  \(DateColumn.period(report.period.from, report.period.to))"]
        if !report.passes.isEmpty {
            // Expiry is the period's matter here: each pass is named with its own dates.
            lines += [L10n.tr("Passes valid in this period:")] + TextOutput.passLines(report.passes, today: nil, style: style).dropFirst()
            lines.append("")
        }
        if report.rows.isEmpty {
            lines.append(TerminalText.escape(note ?? L10n.tr("No records in this period.")))
        } else {
            lines += TextOutput.transactionLines(reading.transactions, currency: currency, style: style)
        }
        lines.append("")
        lines += totalsLines(report.totals, currency: currency)
        return lines.joined(separator: "\n")
    }

    /// `Trips: 1,204   Fares: ¥183,040   Purchases: ¥120   Top-ups: ¥2,000`, one figure a line,
    /// the figures in one column (the labels padded by display width).
    package static func totalsLines(_ t: CardReport.Totals, currency: String) -> [String] {
        let figures = [(Totals.trips, Money.grouped(UInt64(t.trips.magnitude))), (Totals.fares, Money.format(t.fares, currency)),
                       (Totals.purchases, Money.format(t.purchases, currency)), (Totals.topups, Money.format(t.topups, currency))]
        let labels = figures.map { L10n.tr("%1$s:", $0.0) }
        let width = (labels.map(DisplayWidth.of).max() ?? 0) + 2
        return zip(labels, figures).map { DisplayWidth.padded($0, to: width) + $1.1 }
    }

    /// The totals' names, as the text, the page and their JSON's keys' readers say them.
    package enum Totals {
        // TRANSLATORS: a report's totals: how many trips (乗車回数), what they cost, shop purchases (物販), top-ups (チャージ).
        package static var trips: String { L10n.tr("Trips") }
        package static var fares: String { L10n.tr("Fares") }
        package static var purchases: String { L10n.tr("Purchases") }
        package static var topups: String { L10n.tr("Top-ups") }
    }
}

import TransitModel

/// `transit report` as text: for each card, a title line (name, nickname, number, period), the
/// rows as `scan` prints them, then the totals with their numbers grouped.
package enum ReportText {
    /// `notes`: what an empty period says instead of "No records in this period.", by card id.
    package static func render(_ reports: [CardReport], style: TextOutput.Style, notes: [Int64: String] = [:]) -> String {
        reports.map { render($0, style: style, note: notes[$0.card.id]) }.joined(separator: "\n\n")
    }

    package static func render(_ report: CardReport, style: TextOutput.Style, note: String? = nil) -> String {
        let reading = report.reading, currency = report.card.currency
        var lines = ["\(report.title)  \(TerminalText.escape(TextOutput.number(reading)))  —  \(report.period.from) to \(report.period.to)"]
        if !report.passes.isEmpty {
            // Expiry is the period's matter here: each pass is named with its own dates.
            lines += ["Passes valid in this period:"] + TextOutput.passLines(report.passes, today: nil, style: style).dropFirst()
            lines.append("")
        }
        if report.rows.isEmpty {
            lines.append(TerminalText.escape(note ?? "No records in this period."))
        } else {
            lines += TextOutput.transactionLines(reading.transactions, currency: currency, style: style)
        }
        lines.append("")
        lines += totalsLines(report.totals, currency: currency)
        return lines.joined(separator: "\n")
    }

    /// `Trips: 1,204   Fares: ¥183,040   Purchases: ¥120   Top-ups: ¥2,000`, one figure a line.
    package static func totalsLines(_ t: CardReport.Totals, currency: String) -> [String] {
        ["Trips:      \(Money.grouped(UInt64(t.trips.magnitude)))", "Fares:      \(Money.format(t.fares, currency))",
         "Purchases:  \(Money.format(t.purchases, currency))", "Top-ups:    \(Money.format(t.topups, currency))"]
    }
}

import TransitModel

/// `transit report --format html`: one self-contained page to print on A4 — no script, nothing
/// loaded from elsewhere (its Content-Security-Policy forbids both) — with, for each card, its
/// name, nickname and number, the period, the totals, a bar chart of the fares (`FareChart`) and
/// the rows as `scan` words them. Every text that came from a card, a dump or a station table is
/// escaped: it is text on the page, never markup. Each card after the first starts a new page.
package enum ReportHTML {
    package static func render(_ reports: [CardReport], style: TextOutput.Style) -> String {
        var out = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
            <title>\(html(title(reports)))</title>
            <style>
            @page { size: A4; margin: 14mm 12mm; }
            body { font-family: sans-serif; font-size: 9pt; color: #000; margin: 0; }
            section + section { break-before: page; }
            h1 { font-size: 14pt; margin: 0 0 2mm; }
            p.card { margin: 0 0 4mm; }
            table { border-collapse: collapse; width: 100%; }
            table.totals { width: auto; margin-bottom: 4mm; }
            th, td { text-align: left; padding: 0.6mm 2mm; border-bottom: 0.2mm solid #bbb; vertical-align: top; }
            td.n, th.n { text-align: right; white-space: nowrap; }
            td.date { white-space: nowrap; }
            thead { display: table-header-group; }
            tr { break-inside: avoid; }
            figure { margin: 0 0 4mm; }
            figcaption { font-weight: bold; margin-bottom: 1mm; }
            svg { width: 100%; height: auto; }
            .bar { fill: #3465a4; }
            .axis { stroke: #555; stroke-width: 1; }
            .label { font-size: 10px; fill: #333; }
            footer { margin-top: 4mm; color: #555; font-size: 7.5pt; }
            </style>
            </head>
            <body>

            """
        if reports.isEmpty { out += "<p>No cards kept yet.</p>\n" }
        for report in reports { out += section(report, style: style) }
        return out + "</body>\n</html>\n"
    }

    private static func title(_ reports: [CardReport]) -> String {
        guard let first = reports.first else { return "transit report" }
        let period = "\(first.period.from) to \(first.period.to)"
        return reports.count == 1 ? "\(first.title) \(period)" : "transit report \(period)"
    }

    private static func section(_ r: CardReport, style: TextOutput.Style) -> String {
        let c = r.card, currency = c.currency
        var out = "<section>\n<h1>\(html(c.name ?? c.family))\(c.nickname.map { " <q>\(html($0))</q>" } ?? "")</h1>\n"
        out += "<p class=\"card\">\(html(TextOutput.number(r.reading))) (\(html(c.family)))<br>"
            + "Period: \(r.period.from) to \(r.period.to)</p>\n"
        let t = r.totals
        out += "<table class=\"totals\"><tbody>"
            + "<tr><th>Trips</th><td class=\"n\">\(Money.grouped(UInt64(t.trips.magnitude)))</td></tr>"
            + "<tr><th>Fares</th><td class=\"n\">\(html(Money.format(t.fares, currency)))</td></tr>"
            + "<tr><th>Purchases</th><td class=\"n\">\(html(Money.format(t.purchases, currency)))</td></tr>"
            + "<tr><th>Top-ups</th><td class=\"n\">\(html(Money.format(t.topups, currency)))</td></tr>"
            + "</tbody></table>\n"
        if !r.passes.isEmpty {
            out += "<h2>Passes valid in this period</h2>\n<ul class=\"passes\">"
                + TextOutput.passLines(r.passes, currency: currency, today: nil, style: style).dropFirst()
                    .map { "<li>\(html($0.trimmingCharacters(in: .whitespaces)))</li>" }.joined()
                + "</ul>\n"
        }
        out += FareChart.svg(r)
        guard !r.rows.isEmpty else { return out + "<p>No records in this period.</p>\n</section>\n" }
        let records = r.reading.transactions
        let dates = DateColumn(records.map(\.date))
        let withBalance = records.contains { $0.balance != nil }
        out += "<table class=\"rows\"><thead><tr><th>\(html(dates.title))</th><th>Type</th><th class=\"n\">Amount</th>"
            + (withBalance ? "<th class=\"n\">Balance</th>" : "") + "<th>Details</th></tr></thead>\n<tbody>\n"
        for t in records {
            let amount = t.amount.map { t.type.sign + Money.format(Int64(clamping: $0), currency) } ?? ""
            out += "<tr><td class=\"date\">\(html(dates.text(t.date)))</td><td>\(html(t.type.words))</td><td class=\"n\">\(html(amount))</td>"
                + (withBalance ? "<td class=\"n\">\(html(t.balance.map { Money.format($0, currency) } ?? ""))</td>" : "")
                + "<td>\(html(TransactionDetails.text(t, style: style)))</td></tr>\n"
        }
        out += "</tbody></table>\n<footer>\(html(Version.banner)), from the history archive.</footer>\n</section>\n"
        return out
    }

    /// Text as HTML text: `&`, `<`, `>`, `"` and `'` as references, control characters shown
    /// escaped (`\x1B`) as on a terminal (`MarkupText`).
    package static func html(_ s: String) -> String { MarkupText.escape(s) }
}

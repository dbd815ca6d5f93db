import TransitModel

/// `transit report --format html`: one self-contained page to print on A4 — no script, nothing
/// loaded from elsewhere (its Content-Security-Policy forbids both) — with, for each card, its
/// name, nickname and number, the period, the totals, a bar chart of the fares (`FareChart`) and
/// the rows as `scan` words them. Every text that came from a card, a dump or a station table is
/// escaped: it is text on the page, never markup. Each card after the first starts a new page.
package enum ReportHTML {
    package static func render(_ reports: [CardReport], style: TextOutput.Style) -> String {
        let body = reports.isEmpty ? "<p>\(html(L10n.tr("No cards kept yet.")))</p>\n" : reports.map { section($0, style: style) }.joined()
        // The language gettext chose (`L10n.language`): the page's words are in it; in English, the
        // cards' own text (a Japanese nickname, station names) still picks the CJK glyphs.
        let lang = L10n.language == "ja" ? "ja" : language(of: body, currencies: reports.map(\.card.currency))
        let out = """
            <!DOCTYPE html>
            <html lang="\(lang)">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
            <title>\(html(title(reports)))</title>
            <style>
            @page { size: A4; margin: 14mm 12mm; }
            body { font-family: \(fonts(lang)); font-size: 9pt; color: #000; margin: 0; }
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
            .label { font-size: \(FareChart.labelSize)px; fill: #333; }
            footer { margin-top: 4mm; color: #555; font-size: 7.5pt; }
            </style>
            </head>
            <body>

            """
        return out + body + "</body>\n</html>\n"
    }

    /// The page's language, from its text: `ja` where it holds kana (or Han on a card in yen),
    /// `ko` for Hangul, `zh` for Han on other cards, else `en`. The browser picks the CJK glyphs by
    /// it (a Han character is drawn differently in each). The card's currency is what its plugin
    /// said through the ABI: the host names no family (issue 48), so a third party's family of
    /// yen cards gets the Japanese glyphs as the shipped ones do.
    package static func language(of text: String, currencies: [String]) -> String {
        var kana = false, hangul = false, han = false
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x3040 ... 0x30FF, 0x31F0 ... 0x31FF, 0xFF66 ... 0xFF9F: kana = true
            case 0xAC00 ... 0xD7AF, 0x1100 ... 0x11FF, 0x3130 ... 0x318F: hangul = true
            case 0x4E00 ... 0x9FFF, 0x3400 ... 0x4DBF: han = true
            default: continue
            }
        }
        if kana { return "ja" }
        if hangul { return "ko" }
        guard han else { return "en" }
        return currencies.contains("JPY") || currencies.isEmpty ? "ja" : "zh"
    }

    /// The font stack: the CJK fonts Debian ships for the page's language (fonts-noto-cjk, the
    /// IPA and Takao fonts) before the generic family, so no browser guesses.
    static func fonts(_ lang: String) -> String {
        let japanese = ["Noto Sans CJK JP", "Noto Sans JP", "IPAexGothic", "IPAPGothic", "IPAGothic", "TakaoPGothic", "TakaoGothic"]
        let first: [String] = switch lang {
        case "ko": ["Noto Sans CJK KR"]
        case "zh": ["Noto Sans CJK TC", "Noto Sans CJK SC"]
        default: []
        }
        return (first + japanese).map { "\"\($0)\"" }.joined(separator: ", ") + ", sans-serif"
    }

    private static func title(_ reports: [CardReport]) -> String {
        // TRANSLATORS: the title of the report page of several cards (of none: alone).
        guard let first = reports.first else { return L10n.tr("transit report") }
        let period = DateColumn.period(first.period.from, first.period.to)
        return reports.count == 1 ? "\(first.title) \(period)" : L10n.tr("transit report %1$s", period)
    }

    private static func section(_ r: CardReport, style: TextOutput.Style) -> String {
        let style = style.of(r.card.family)
        let c = r.card, currency = c.currency
        var out = "<section>\n<h1>\(html(c.name ?? c.family))\(c.nickname.map { " <q>\(html($0))</q>" } ?? "")</h1>\n"
        out += "<p class=\"card\">\(html(TextOutput.number(r.reading))) (\(html(c.family)))<br>"
            + html(L10n.tr("Period: %1$s", DateColumn.period(r.period.from, r.period.to))) + "</p>\n"
        let t = r.totals
        typealias Totals = ReportText.Totals
        out += "<table class=\"totals\"><tbody>"
            + "<tr><th>\(html(Totals.trips))</th><td class=\"n\">\(Money.grouped(UInt64(t.trips.magnitude)))</td></tr>"
            + "<tr><th>\(html(Totals.fares))</th><td class=\"n\">\(html(Money.format(t.fares, currency)))</td></tr>"
            + "<tr><th>\(html(Totals.purchases))</th><td class=\"n\">\(html(Money.format(t.purchases, currency)))</td></tr>"
            + "<tr><th>\(html(Totals.topups))</th><td class=\"n\">\(html(Money.format(t.topups, currency)))</td></tr>"
            + "</tbody></table>\n"
        if !r.passes.isEmpty {
            out += "<h2>\(html(L10n.tr("Passes valid in this period")))</h2>\n<ul class=\"passes\">"
                + TextOutput.passLines(r.passes, today: nil, style: style).dropFirst()
                    .map { "<li>\(html($0.trimmingCharacters(in: .whitespaces)))</li>" }.joined()
                + "</ul>\n"
        }
        out += FareChart.svg(r)
        guard !r.rows.isEmpty else { return out + "<p>\(html(L10n.tr("No records in this period.")))</p>\n</section>\n" }
        let records = r.reading.transactions
        let dates = DateColumn(records.map(\.date))
        let withBalance = records.contains { $0.balance != nil }
        // The record table's column titles, as the text's (TextOutput.transactionLines).
        out += "<table class=\"rows\"><thead><tr><th>\(html(dates.title))</th><th>\(html(L10n.tr("Type")))</th><th class=\"n\">\(html(L10n.tr("Amount")))</th>"
            + (withBalance ? "<th class=\"n\">\(html(L10n.tr("Balance")))</th>" : "") + "<th>\(html(L10n.tr("Details")))</th></tr></thead>\n<tbody>\n"
        for t in records {
            let amount = t.amount.map { t.type.sign + Money.format(Int64(clamping: $0), currency) } ?? ""
            out += "<tr><td class=\"date\">\(html(dates.text(t.date)))</td><td>\(html(TextOutput.kind(t.type)))</td><td class=\"n\">\(html(amount))</td>"
                + (withBalance ? "<td class=\"n\">\(html(t.balance.map { Money.format($0, currency) } ?? ""))</td>" : "")
                + "<td>\(html(TransactionDetails.text(t, style: style)))</td></tr>\n"
        }
        out += "</tbody></table>\n<footer>\(html(L10n.tr("%1$s, from the history archive.", Version.banner)))</footer>\n</section>\n"
        return out
    }

    /// Text as HTML text: `&`, `<`, `>`, `"` and `'` as references, control characters shown
    /// escaped (`\x1B`) as on a terminal (`MarkupText`).
    package static func html(_ s: String) -> String { MarkupText.escape(s) }
}

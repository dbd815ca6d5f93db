import TransitModel

/// The report page's chart: an inline SVG of bars, the fares of each day of the period (of each
/// month when it spans more than two, of each year or few past ten years: `CardReport.chartStep`,
/// at most `CardReport.maxBars`), the tallest bar's amount on the axis. Only numbers and dates
/// the host made go into it.
enum FareChart {
    /// The labels' size in the SVG's units: the 720-unit chart spans the A4 page's 186 mm between
    /// its margins (0.258 mm a unit), so 12 units print at 3.1 mm, 8.8 pt (at least 8 pt to read).
    static let labelSize = 12

    static func svg(_ r: CardReport) -> String {
        let buckets = r.faresOverTime
        let step = r.chartStep
        let width = 720.0, height = 184.0, left = 76.0, bottom = 24.0, top = 14.0
        let plot = height - bottom - top
        let tallest = max(buckets.map(\.fares).max() ?? 0, 1)
        let slot = (width - left - 4) / Double(max(buckets.count, 1))
        // The caption in the page's words (an attribute and an element's text: escaped).
        let words: String = switch step {
        case .day: L10n.tr("Fares per day")
        case .month: L10n.tr("Fares per month")
        case .years(1): L10n.tr("Fares per year")
        case .years(let n): L10n.trn("Fares per %1$s year", "Fares per %1$s years", n, String(n))
        }
        let caption = ReportHTML.html(words)
        var out = "<figure><figcaption>\(caption)</figcaption>\n"
            + "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"\(caption)\">\n"
        out += "<line class=\"axis\" x1=\"\(left)\" y1=\"\(top + plot)\" x2=\"\(width - 4)\" y2=\"\(top + plot)\"/>"
            + "<line class=\"axis\" x1=\"\(left)\" y1=\"\(top)\" x2=\"\(left)\" y2=\"\(top + plot)\"/>\n"
        // The y axis: the tallest bar's amount, half of it, and 0.
        for (value, y) in [(tallest, top + 4), (tallest / 2, top + plot / 2 + 4), (0, top + plot)] where value > 0 || y == top + plot {
            out += "<text class=\"label\" x=\"\(left - 4)\" y=\"\(rounded(y))\" text-anchor=\"end\">"
                + "\(value == 0 ? "0" : ReportHTML.html(Money.format(value, r.card.currency)))</text>"
        }
        out += "\n"
        let labelEvery = step == .day ? (buckets.count > 16 ? 5 : 1) : max(1, buckets.count / 12)
        let last = buckets.count - 1
        for (i, bucket) in buckets.enumerated() {
            let h = plot * Double(bucket.fares) / Double(tallest)
            let x = left + Double(i) * slot + slot * 0.15
            let label: String, title: String
            switch step {
            case .day: label = String(bucket.start.day); title = label
            case .month: label = String(bucket.start.description.prefix(7)); title = label
            case .years(let n):
                label = String(bucket.start.description.prefix(4))
                let last = String(min(bucket.start.year + n - 1, r.period.to.year))
                title = n == 1 ? label : label + "–" + String(repeating: "0", count: max(0, 4 - last.count)) + last
            }
            if bucket.fares > 0 {
                out += "<rect class=\"bar\" x=\"\(rounded(x))\" y=\"\(rounded(top + plot - h))\" width=\"\(rounded(slot * 0.7))\" height=\"\(rounded(h))\">"
                    + "<title>\(title): \(ReportHTML.html(Money.format(bucket.fares, r.card.currency)))</title></rect>\n"
            }
            // Every few slots, the first of a month, and the period's last slot (a regular one too
            // near it to read is left out).
            let regular = (i % labelEvery == 0 || (step == .day && bucket.start.day == 1)) && (last - i >= min(labelEvery, 3) || i == last)
            if regular || i == last {
                out += "<text class=\"label\" x=\"\(rounded(x + slot * 0.35))\" y=\"\(height - 6)\" text-anchor=\"middle\">\(label)</text>\n"
            }
        }
        return out + "</svg></figure>\n"
    }

    private static func rounded(_ v: Double) -> String {
        let tenths = (v * 10).rounded()
        return String(Int(tenths) / 10) + "." + String(abs(Int(tenths)) % 10)
    }
}

import TransitModel

/// The report page's chart: an inline SVG of bars, the fares of each day of the period (of each
/// month when it spans more than two, of each year or few past ten years: `CardReport.chartStep`,
/// at most `CardReport.maxBars`), the tallest bar's amount on the axis. Only numbers and dates
/// the host made go into it.
enum FareChart {
    static func svg(_ r: CardReport) -> String {
        let buckets = r.faresOverTime
        let step = r.chartStep
        let width = 720.0, height = 180.0, left = 60.0, bottom = 22.0, top = 14.0
        let plot = height - bottom - top
        let tallest = max(buckets.map(\.fares).max() ?? 0, 1)
        let slot = (width - left - 4) / Double(max(buckets.count, 1))
        let caption: String = switch step {
        case .day: "Fares per day"
        case .month: "Fares per month"
        case .years(1): "Fares per year"
        case .years(let n): "Fares per \(n) years"
        }
        var out = "<figure><figcaption>\(caption)</figcaption>\n"
            + "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"\(caption)\">\n"
        out += "<line class=\"axis\" x1=\"\(left)\" y1=\"\(top + plot)\" x2=\"\(width - 4)\" y2=\"\(top + plot)\"/>"
            + "<line class=\"axis\" x1=\"\(left)\" y1=\"\(top)\" x2=\"\(left)\" y2=\"\(top + plot)\"/>\n"
        out += "<text class=\"label\" x=\"\(left - 4)\" y=\"\(top + 4)\" text-anchor=\"end\">\(ReportHTML.html(Money.format(tallest, r.card.currency)))</text>"
            + "<text class=\"label\" x=\"\(left - 4)\" y=\"\(top + plot)\" text-anchor=\"end\">0</text>\n"
        let labelEvery = step == .day ? (buckets.count > 16 ? 5 : 1) : max(1, buckets.count / 12)
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
            if i % labelEvery == 0 || (step == .day && bucket.start.day == 1) {
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

/// The human-readable summary: the card, its balance in its currency, and a table of transactions.
enum TextOutput {
    static func render(_ r: CardReading) -> String {
        var lines = [String]()
        lines.append("\(r.cardName.map { "\($0) " } ?? "")(\(r.family))  card \(r.serialNumber)")
        lines.append("Balance: \(Money.format(r.balance, r.currency))")
        switch (r.validFrom, r.validUntil) {
        case let (from?, until?): lines.append("Valid: \(from) to \(until)")
        case let (from?, nil): lines.append("Valid from: \(from)")
        case let (nil, until?): lines.append("Valid until: \(until)")
        default: break
        }
        for (key, value) in r.metadata.sorted(by: { $0.key < $1.key }) where key != "idm" || r.serialNumber != value {
            lines.append("\(key): \(value)")
        }
        guard !r.transactions.isEmpty else {
            lines.append("No transactions.")
            return lines.joined(separator: "\n")
        }
        lines.append("")
        let header = ["Date", "Type", "Amount", "Details"]
        let rows = r.transactions.map { t -> [String] in
            let sign = t.type == "topup" ? "+" : (t.type == "unknown" ? "" : "-")
            let amount = t.amount.map { sign + Money.format(Int64(clamping: $0), r.currency) } ?? ""
            var details = [String]()
            if let e = t.entryStation { details.append(t.exitStation.map { "\(e) → \($0)" } ?? "at \(e)") }
            for (k, v) in t.metadata.sorted(by: { $0.key < $1.key }) { details.append("\(k) \(v)") }
            if t.type == "unknown", let raw = t.rawType { details.append("raw type \(raw)") }
            return [t.date ?? "(no date)", t.type, amount, details.joined(separator: ", ")]
        }
        let widths = (0 ..< 3).map { c in ([header] + rows).map { $0[c].count }.max() ?? 0 }
        for row in [header] + rows {
            let cells = (0 ..< 3).map { c in c == 2 ? pad(row[c], widths[c], left: true) : pad(row[c], widths[c], left: false) }
            lines.append((cells + [row[3]]).joined(separator: "  ").trimmingTrailingSpaces())
        }
        return lines.joined(separator: "\n")
    }

    private static func pad(_ s: String, _ width: Int, left: Bool) -> String {
        let fill = String(repeating: " ", count: max(0, width - s.count))
        return left ? fill + s : s + fill
    }
}

private extension String {
    func trimmingTrailingSpaces() -> String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}

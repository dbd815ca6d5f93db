/// The human-readable summary: the card, its balance in its currency, and a table of transactions.
/// Every string a plugin gave is escaped (`TerminalText`): one value is never more than its place.
enum TextOutput {
    static func render(_ r: CardReading) -> String {
        let e = TerminalText.escape
        var lines = [String]()
        lines.append("\(r.cardName.map { "\(e($0)) " } ?? "")(\(e(r.family)))  card \(e(r.serialNumber))")
        lines.append("Balance: \(e(Money.format(r.balance, r.currency)))")
        switch (r.validFrom.map(e), r.validUntil.map(e)) {
        case let (from?, until?): lines.append("Valid: \(from) to \(until)")
        case let (from?, nil): lines.append("Valid from: \(from)")
        case let (nil, until?): lines.append("Valid until: \(until)")
        default: break
        }
        for (key, value) in r.metadata.sorted(by: { $0.key < $1.key }) where key != "idm" || r.serialNumber != value {
            lines.append("\(e(key)): \(e(value))")
        }
        guard !r.transactions.isEmpty else {
            lines.append("No transactions.")
            return lines.joined(separator: "\n")
        }
        lines.append("")
        let header = ["Date", "Type", "Amount", "Details"]
        let rows = r.transactions.map { t -> [String] in
            let sign = t.type == "topup" ? "+" : (t.type == "unknown" ? "" : "-")
            let amount = t.amount.map { sign + e(Money.format(Int64(clamping: $0), r.currency)) } ?? ""
            var details = [String]()
            if let entry = t.entryStation { details.append(t.exitStation.map { "\(e(entry)) → \(e($0))" } ?? "at \(e(entry))") }
            for (k, v) in t.metadata.sorted(by: { $0.key < $1.key }) { details.append("\(e(k)) \(e(v))") }
            if t.type == "unknown", let raw = t.rawType { details.append("raw type \(e(raw))") }
            return [t.date.map(e) ?? "(no date)", e(t.type), amount, details.joined(separator: ", ")]
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

import TransitArchive
import TransitModel

/// `transit export --format ledger`: the timeline as a plain-text accounting journal that hledger
/// and ledger read (hledger.org, "journal format"; ledger-cli.org, "Journal Format"). One
/// transaction a record, oldest first: the card an asset account, what a record paid for an expense
/// by kind, a top-up's money from an equity account the user renames (`--alias`); the balance the
/// card stored with a record a balance assertion (`= 2010 JPY`). Before the first record, an
/// opening balance: the balance before it (its stored balance less its amount; a ring's oldest
/// record, whose amount the card does not tell, gives its stored balance, and is a comment). A
/// record without an amount or a date adds nothing and is a comment saying so; where the balances
/// say records are missing (a gap between reads), an adjustment from `Equity:Transit:Unrecorded`
/// keeps every assertion true. Amounts are in the currency's major units with its ISO code as the
/// commodity (`160 JPY`, `1.60 SGD`).
package enum LedgerJournal {
    package static let opening = "Equity:Opening Balances"
    package static let topups = "Equity:Transit:Top-ups"
    package static let unrecorded = "Equity:Transit:Unrecorded"

    /// The expense account of what a record paid for.
    package static func expense(_ r: CardReading.TransactionRecord) -> String {
        switch r.type {
        case .trip: return "Expenses:Transit:Fares"
        case .purchase: return "Expenses:Transit:Purchases"
        case .topup: return r.metadata["event"] == "refund" ? "Expenses:Transit:Purchases" : topups
        case .unknown: return "Expenses:Transit:Unknown"
        }
    }

    package static func journal(_ histories: [HistoryOutput.CardHistory], names: HistoryOutput.StationNames = .stored(english: false)) -> String {
        var out = "; transit export --format ledger: one transaction a record; balance assertions are the card's stored balances.\n"
        for h in histories { out += "\n" + card(h, names: names) }
        return out
    }

    /// One card's transactions.
    private static func card(_ h: HistoryOutput.CardHistory, names: HistoryOutput.StationNames) -> String {
        let c = h.card
        let account = "Assets:Transit:" + plain(c.displayName + " " + c.serial, account: true)
        func money(_ minor: Int64) -> String { Money.decimal(minor, c.currency) + " " + c.currency }
        var out = "; \(plain(c.displayName)) \(plain(c.serial))\(c.nickname.map { " “\(plain($0))”" } ?? "") (\(c.family), \(c.currency))\n"
        let dated = h.records.filter { $0.transaction.date != nil }
        // What each record did to the balance, when the card tells: its amount, signed by its type.
        let signed: [Int64?] = dated.map { record in
            let r = record.transaction
            guard let amount = r.amount.map({ Int64(clamping: $0) }) else { return nil }
            switch r.type.direction {
            case .added: return amount
            case .deducted: return -amount
            case .unstated: return nil
            }
        }
        var running: Int64?
        /// A transaction: `head` (date and description), the card's posting, the other account's.
        func posting(_ head: String, _ other: String, _ amount: Int64, assert balance: Int64? = nil) {
            out += "\(head)\n    \(account)  \(money(amount))\(balance.map { " = " + money($0) } ?? "")\n    \(other)\n\n"
        }
        /// Brings the running balance to `balance` (an opening, or an adjustment for records not kept).
        func settle(_ date: String, to balance: Int64) {
            guard let now = running else {
                posting(date + " Opening balance", opening, balance, assert: balance)
                running = balance
                return
            }
            guard now != balance else { return }
            posting(date + " Records the archive does not hold", unrecorded, balance - now, assert: balance)
            running = balance
        }
        for (index, record) in dated.enumerated() {
            let r = record.transaction
            let date = r.date.map { String($0.description.prefix(10)) } ?? ""
            let text = description(c, record, names: names)
            guard let amount = signed[index] else {
                out += "; \(date) \(text): no amount (the card does not tell it)"
                if let balance = r.balance { out += ", balance after it \(money(balance))\n"; settle(date, to: balance) } else { out += "\n" }
                continue
            }
            if let balance = r.balance {
                settle(date, to: balance - amount)
            } else if running == nil {
                // No stored balances (CEPAS, T-Union): the opening is what the last read's balance less every amount leaves.
                settle(date, to: (c.lastBalance ?? 0) - signed.compactMap { $0 }.reduce(0, +))
            }
            let time = r.date?.clock.map { "  ; time: \($0.text(seconds: true))" } ?? ""
            posting(date + " " + text + time, expense(r), amount, assert: r.balance)
            running = (running ?? 0) + amount
        }
        // The balance the card had when it was last read, after its newest record.
        if let last = c.lastBalance, let date = dated.last?.transaction.date.map({ String($0.description.prefix(10)) }) {
            settle(date, to: last)
            out += "\(date) Balance at the last read\n    \(account)  \(money(0)) = \(money(last))\n\n"
        }
        let undated = h.records.count - dated.count
        if undated > 0 { out += "; \(undated) record\(undated == 1 ? "" : "s") without a date: in no transaction\n" }
        return out
    }

    /// `trip: Shinjuku → Shibuya, bus line 0A12`: the record as `scan` words it, on one line.
    private static func description(_ c: Archive.Card, _ record: Archive.TimelineRecord, names: HistoryOutput.StationNames) -> String {
        let r = record.transaction
        let (entryName, exitName) = names.lookup(c, record)
        let stations = [entryName ?? r.entryStation, exitName ?? r.exitStation].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " → ")
        let details = TransactionDetails.text(r, style: .init(), stations: false)
        let words = [stations, details].filter { !$0.isEmpty }.joined(separator: ", ")
        return plain(r.type.words + (words.isEmpty ? "" : ": " + words))
    }

    /// Text a journal keeps on its line: control characters escaped, `;` (a comment) made `,`,
    /// blanks one space (two end an account name); in an account, `:` (a sub-account) made `-`.
    private static func plain(_ s: String, account: Bool = false) -> String {
        var text = TerminalText.escape(s).replacingOccurrences(of: ";", with: ",")
        if account { text = text.replacingOccurrences(of: ":", with: "-") }
        return text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}

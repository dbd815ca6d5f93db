import TransitArchive
import TransitModel

/// `transit export --format ledger`: the timeline as a plain-text accounting journal that hledger
/// and ledger read (hledger.org, "journal format"; ledger-cli.org, "Journal Format"). One
/// transaction a record: the card an asset account, what a record paid for an expense by kind, a
/// top-up's money from an equity account the user renames (`--alias`). Amounts are in the
/// currency's major units with its ISO code as the commodity (`160 JPY`, `1.60 SGD`).
///
/// Balance assertions are only balances the card stated: the balance a record stored (`= 2010
/// JPY`) and the balance of the read that last held the newest record, after it. hledger checks
/// assertions in date order (then the file's order within a day), so the transactions are written
/// in that order — by day in the card's zone, the timeline's order within a day — and the
/// balance is followed along exactly that order: where a stated balance is not what the records
/// before it leave, a transaction from `Equity:Transit:Unrecorded` brings it there, so every
/// assertion holds whatever order the reads were kept in. Before the first record, an opening
/// balance from `Equity:Opening Balances`: what the first stated balance less the amounts before
/// it leaves (a posting, not an assertion: the card never stated it). A card that states no
/// balance (no purse) has no opening and no assertion: its priced records only. A record without
/// an amount or a date adds nothing and is a comment saying so.
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

    package static func journal(_ histories: [HistoryOutput.CardHistory], names: HistoryOutput.StationNames = .stored()) -> String {
        var out = "; transit export --format ledger: one transaction a record; balance assertions are the card's stored balances.\n"
        for (h, account) in zip(histories, accounts(histories)) { out += "\n" + card(h, account: account, names: names) }
        return out
    }

    /// Each card's asset account, `Assets:Transit:<name> <number>`; cards that would share one (two
    /// cards of one number, told apart by their IDm) get their IDm after it, else their id (`#7`):
    /// one account holding two cards' balances would make both cards' assertions false.
    private static func accounts(_ histories: [HistoryOutput.CardHistory]) -> [String] {
        func counted(_ names: [String]) -> [String: Int] { names.reduce(into: [:]) { $0[$1, default: 0] += 1 } }
        var names = histories.map { "Assets:Transit:" + plain($0.card.displayName + " " + $0.card.serial, account: true) }
        var seen = counted(names)
        for (i, h) in histories.enumerated() where seen[names[i], default: 0] > 1 && !h.card.idm.isEmpty {
            names[i] += " " + plain(h.card.idm, account: true)
        }
        seen = counted(names)
        for (i, h) in histories.enumerated() where seen[names[i], default: 0] > 1 { names[i] += " " + plain(h.card.handle, account: true) }
        return names
    }

    /// One card's transactions.
    private static func card(_ h: HistoryOutput.CardHistory, account: String, names: HistoryOutput.StationNames) -> String {
        let c = h.card
        func money(_ minor: Int64) -> String { Money.decimal(minor, c.currency) + " " + c.currency }
        var out = "; \(plain(c.displayName)) \(plain(c.serial))\(c.nickname.map { " “\(plain($0))”" } ?? "") (\(c.family), \(c.currency))\n"
        /// `YYYY-MM-DD`: the record's day in the card's own zone, as hledger dates it.
        func day(_ r: Archive.TimelineRecord) -> String { r.transaction.date.map { String($0.description.prefix(10)) } ?? "" }
        // The dated records in hledger's order: by day, the timeline's order within a day (its index).
        let dated = h.records.enumerated().filter { $0.element.transaction.date != nil }
        let newest = dated.last?.offset
        let ordered = dated.map { (index: $0.offset, day: day($0.element), record: $0.element) }
            .sorted { $0.day != $1.day ? $0.day < $1.day : $0.index < $1.index }
        var body = ""
        /// The balance as hledger has it at this point of the file; nil before any stated balance.
        var running: Int64?
        /// The amounts written before the first stated balance (the opening is what it less them leaves).
        var before: Int64 = 0
        var openingBalance: Int64?
        /// A transaction: `head` (date and description), the card's posting, the other account's.
        func posting(_ head: String, _ other: String, _ amount: Int64, assert balance: Int64? = nil) {
            body += "\(head)\n    \(account)  \(money(amount))\(balance.map { " = " + money($0) } ?? "")\n    \(other)\n\n"
        }
        /// Brings the running balance to `balance`, a balance the card stated (or one the card's
        /// stated balance and the record's amount leave before it): the opening, or an adjustment
        /// for records the archive does not hold.
        func settle(_ date: String, to balance: Int64) {
            guard let now = running else {
                openingBalance = clamped(balance, minus: before)
                running = balance
                return
            }
            guard now != balance else { return }
            posting(date + " Records the archive does not hold", unrecorded, clamped(balance, minus: now))
            running = balance
        }
        for entry in ordered {
            let r = entry.record.transaction, date = entry.day
            let text = description(c, entry.record, names: names)
            // What the record did to the balance, when the card tells: its amount, signed by its type.
            let signed: Int64? = r.amount.map { Int64(clamping: $0) }.flatMap { amount in
                switch r.type.direction {
                case .added: return amount
                case .deducted: return -amount
                case .unstated: return nil
                }
            }
            if let amount = signed {
                if let balance = r.balance { settle(date, to: clamped(balance, minus: amount)) }
                let time = r.date?.clock.map { "  ; time: \($0.text(seconds: true))" } ?? ""
                posting(date + " " + text + time, expense(r), amount, assert: r.balance)
                if let now = running { running = r.balance ?? clamped(now, minus: -amount) } else { before = clamped(before, minus: -amount) }
            } else {
                body += "; \(date) \(text): no amount (the card does not tell it)"
                if let balance = r.balance { body += ", balance after it \(money(balance))\n"; settle(date, to: balance) } else { body += "\n" }
            }
            // The balance the card had when last read holding its newest record, after that record.
            if entry.index == newest, let last = h.closing {
                settle(date, to: last)
                body += "\(date) Balance at the last read\n    \(account)  \(money(0)) = \(money(last))\n\n"
            }
        }
        if let openingBalance, let first = ordered.first?.day {
            out += "\(first) Opening balance\n    \(account)  \(money(openingBalance))\n    \(opening)\n\n"
        }
        out += body
        let undated = h.records.count - dated.count
        if undated > 0 { out += "; \(undated) record\(undated == 1 ? "" : "s") without a date: in no transaction\n" }
        return out
    }

    /// `a - b`, held at Int64's ends instead of trapping: a hostile card's balances and amounts
    /// are numbers, never a crash.
    private static func clamped(_ a: Int64, minus b: Int64) -> Int64 {
        let (value, overflow) = a.subtractingReportingOverflow(b)
        return overflow ? (b < 0 ? .max : .min) : value
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

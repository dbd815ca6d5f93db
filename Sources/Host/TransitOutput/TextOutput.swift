import CardProtocol
import Foundation
import TransitModel

/// The summary people read: the card by name and printed number, its balance and validity, and a
/// table of records with one aligned date-time column in the card's own zone, the amount, the
/// balance the card stored after each record, and what happened in words (stations by name when a
/// table holds them). Every string a plugin gave is escaped (`TerminalText`): one value is never
/// more than its place.
package enum TextOutput {
    package struct Style {
        /// Regions, raw types, raw payloads and the IDm too.
        package var verbose = false
        /// ANSI colour (only on a terminal, never with NO_COLOR: `TextStyle.colourWanted`).
        package var colour = false
        /// Station names in English where the table has them (gettext chose no Japanese catalog).
        package var englishNames = true
        /// The details column in the catalog's words (`say`); false where the same words go into a
        /// machine format (the CSV's and the ledger's details), which never change with the locale.
        package var translated = false
        /// The family whose plugin wrote the words shown (`plugin`): set by the output of a
        /// reading or a card, nil where none is known.
        package var family: String?

        package init(verbose: Bool = false, colour: Bool = false, englishNames: Bool = true, translated: Bool = false) {
            self.verbose = verbose; self.colour = colour; self.englishNames = englishNames; self.translated = translated
        }

        /// The style for the words of `family`'s plugin.
        package func of(_ family: String) -> Style {
            var s = self
            s.family = family
            return s
        }

        /// A plugin's words (a pass's name, an event, a metadata value) in the family's own catalog
        /// when the style is translated (`L10n.plugin`); as the plugin wrote them otherwise.
        package func plugin(_ text: String, parts: [String?] = []) -> String {
            guard translated, let family else { return text }
            return L10n.plugin(text, family: family, parts: parts)
        }

        /// `msgid` translated when the style is, else the English literal, `%1$s`… filled either way.
        package func say(_ msgid: StaticString, _ values: String...) -> String {
            translated ? L10n.translated(msgid.description, values) : L10n.fill(msgid.description, values)
        }

        /// The style for stdout: colour on a terminal without NO_COLOR, English names unless
        /// gettext chose Japanese (`L10n.language`: LANGUAGE, LC_ALL, LC_MESSAGES, LANG, and the
        /// locale installed), the one decision the words, dates and names follow.
        package static func forOutput(verbose: Bool, environment: [String: String] = ProcessInfo.processInfo.environment,
                                      language: String? = L10n.language) -> Style {
            Style(verbose: verbose, colour: Paint.wanted(environment: environment), englishNames: language != "ja", translated: true)
        }
    }

    /// The reading; with `below`, a balance under it gets a line of its own (`LOW BALANCE`). The
    /// passes come above the records, each said expired against `today` (the card's zone's day).
    package static func render(_ r: CardReading, style: Style = Style(), below: Int64? = nil, today: CalendarDay? = nil) -> String {
        let style = style.of(r.family)
        let e = TerminalText.escape
        let paint = Paint(on: style.colour)
        var lines = [String]()
        let shown = number(r)
        let name = paint.bold(e(r.cardName ?? r.family))
        // TRANSLATORS: the card's name (Suica) when it is a phone's (Mobile Suica).
        var title = (r.metadata[MetadataKey.medium] == MetadataKey.phoneMedium ? L10n.tr("%1$s on a phone", name) : name) + "  " + e(shown)
        // FeliCa transit cards print no number: the IDm said is the chip's, and said so.
        // TRANSLATORS: after "IDm 012E4CD8A1B2C3D4", the FeliCa chip's ID (no number is printed on the card).
        if shown.hasPrefix("IDm ") { title += " " + L10n.tr("(the card's chip ID)") }
        if style.verbose { title += "  [\(e(r.family))]" }
        lines.append(title)
        // TRANSLATORS: the card's stored value, "¥2,010".
        lines.append(L10n.tr("Balance: %1$s", r.balance == nil ? balanceWords(r) : paint.bold(balanceWords(r))))
        if let below, let balance = r.balance, balance < below {
            lines.append(paint.bold(L10n.tr("LOW BALANCE: under %1$s; top it up", Money.format(below, r.currency))))
        }
        let day = DateColumn.day
        switch (r.validFrom, r.validUntil) {
        case let (from?, until?): lines.append(L10n.tr("Valid: %1$s to %2$s", day(from), day(until)))
        case let (from?, nil): lines.append(L10n.tr("Valid from: %1$s", day(from)))
        case let (nil, until?): lines.append(L10n.tr("Valid until: %1$s", day(until)))
        default: break
        }
        for (key, value) in r.metadata.sorted(by: { $0.key < $1.key }) {
            if key == MetadataKey.idm, !style.verbose || r.serialNumber == value { continue }
            // How the card was named (Japan IC's markers, card or phone): a detail for --verbose.
            if key == MetadataKey.issuerMarkers || key == MetadataKey.medium, !style.verbose { continue }
            lines.append("\(e(cardKey(key))): \(e(style.plugin(value)))")
        }
        if !r.passes.isEmpty {
            lines.append("")
            lines += passLines(r.passes, today: today ?? r.today(), style: style)
        }
        guard !r.transactions.isEmpty else {
            lines.append(L10n.tr("No transactions."))
            return lines.joined(separator: "\n")
        }
        lines.append("")
        lines += transactionLines(r.transactions, currency: r.currency, style: style)
        let said = notes(r.transactions)
        return (lines + (said.isEmpty ? [] : [""] + said)).joined(separator: "\n")
    }

    /// The balance as the card's line says it, or that the card holds no stored value.
    package static func balanceWords(_ r: CardReading) -> String {
        r.balance.map { Money.format($0, r.currency) } ?? L10n.tr("none (the card holds no stored value)")
    }

    /// The "Passes" block: a line a pass — its name (or tariff), validity, zones, trips left, what
    /// the card says of it, and EXPIRED when its last day is before `today`; its metadata with --verbose.
    package static func passLines(_ passes: [CardPass], today: CalendarDay?, style: Style) -> [String] {
        let e = TerminalText.escape
        let paint = Paint(on: style.colour)
        // TRANSLATORS: the heading of a card's passes (commuter passes, season tickets).
        var lines = [paint.bold(L10n.tr("Passes"))]
        let day = DateColumn.day
        for p in passes {
            let title = p.name.map { style.plugin($0, parts: [p.tariff, p.zones]) } ?? p.title
            var parts = [e(title) + (p.name != nil && style.verbose ? " [" + L10n.tr("tariff %1$s", e(p.tariff)) + "]" : "")]
            switch (p.validFrom, p.validUntil) {
            case let (from?, until?): parts.append(L10n.tr("valid %1$s to %2$s", day(from.day), day(until.day)))
            case let (from?, nil): parts.append(L10n.tr("valid from %1$s", day(from.day)))
            case let (nil, until?): parts.append(L10n.tr("valid until %1$s", day(until.day)))
            default: break
            }
            if let zones = p.zones { parts.append(L10n.tr("zones %1$s", e(zones))) }
            if let trips = p.remainingTrips { parts.append(L10n.trn("%1$s trip left", "%1$s trips left", Int(clamping: trips), String(trips))) }
            if let status = p.status, status != .valid { parts.append(status == .unused ? L10n.tr("not started") : L10n.tr("invalidated")) }
            if let today, p.isExpired(on: today) { parts.append(paint.bold(L10n.tr("EXPIRED"))) }
            lines.append("  " + parts.joined(separator: "  ·  "))
            if style.verbose {
                for (key, value) in p.metadata.sorted(by: { $0.key < $1.key }) { lines.append("      \(e(cardKey(key))): \(e(style.plugin(value)))") }
            }
        }
        return lines
    }

    /// What a table of records shows that a person cannot place without a word: an amount the
    /// card does not store (`?`), station codes no table named.
    package static func notes(_ transactions: [CardReading.TransactionRecord]) -> [String] {
        var out = [String]()
        if transactions.contains(where: { $0.amount == nil && $0.balance != nil }) {
            // TRANSLATORS: explains the "?" in the Amount column.
            out.append(L10n.tr("? the card keeps the balance after each record, not its amount: the oldest record has no earlier balance to take it from"))
        }
        if transactions.contains(where: { ($0.entryStation != nil && $0.entryStationName == nil) || ($0.exitStation != nil && $0.exitStationName == nil) }) {
            out.append(L10n.tr("Stations are shown by their codes: a station table names them (transit ships none; README, \"Station names\")"))
        }
        return out
    }

    /// The table of records `scan` prints and `history` prints alike: a header, then one row a
    /// record — one date-time format (DateColumn), type words, signed amount, balance, details.
    package static func transactionLines(_ transactions: [CardReading.TransactionRecord], currency: String, style: Style) -> [String] {
        let paint = Paint(on: style.colour)
        let dates = DateColumn(transactions.map(\.date))
        let withBalance = transactions.contains { $0.balance != nil }
        // TRANSLATORS: the record table's column titles.
        var header = [dates.title, L10n.tr("Type"), L10n.tr("Amount")] + (withBalance ? [L10n.tr("Balance")] : [])
        header.append(L10n.tr("Details"))
        let kinds = Dictionary(uniqueKeysWithValues: TransactionKind.allCases.map { ($0, kind($0)) })
        let columns = header.count - 1 // the last (details) is not padded
        let width = header.count
        let money = Money.Format(currency)
        // Every cell in one array, a row after another, and each padded cell's width once (a
        // history may have 10,000 rows), in terminal columns (乗車 is 4): its bytes when it is ASCII.
        func length(_ s: String) -> Int { s.utf8.allSatisfy { $0 < 0x80 } ? s.utf8.count : DisplayWidth.of(s) }
        var cells = [String](), lengths = [Int](), topUps = [Bool]()
        cells.reserveCapacity((transactions.count + 1) * width)
        lengths.reserveCapacity((transactions.count + 1) * columns)
        topUps.reserveCapacity(transactions.count + 1)
        cells += header
        lengths += header.prefix(columns).map(length)
        topUps.append(false)
        // A day's records share their date's text: made once for each run of equal dates.
        var lastDate: CardDate??, lastDateText = ""
        for t in transactions {
            if lastDate != .some(t.date) { lastDate = .some(t.date); lastDateText = dates.text(t.date) }
            // `?`: the card stored the balance after the record but not its amount (notes says why).
            func add(_ cell: String, _ count: Int? = nil) { cells.append(cell); lengths.append(count ?? length(cell)) }
            add(lastDateText)
            add(kinds[t.type] ?? t.type.words)
            if let amount = t.amount {
                let text = t.type.sign + money(Int64(clamping: amount))
                add(text, money.characters(text))
            } else {
                add(t.balance != nil ? "?" : "")
            }
            if withBalance { let text = t.balance.map { money($0) } ?? ""; add(text, money.characters(text)) }
            cells.append(TransactionDetails.text(t, style: style))
            topUps.append(t.type.direction == .added)
        }
        var widths = [Int](repeating: 0, count: columns)
        for (i, n) in lengths.enumerated() where n > widths[i % columns] { widths[i % columns] = n }
        // Constants from here on (a closure that captured the vars would check each access).
        let (cellsMade, lengthsMade) = (cells, lengths)
        /// Row `r`'s line, built by its bytes; a cell `painted` says is coloured (only with colour on).
        func line(_ r: Int, painted: (Int) -> Bool, _ decorate: (String) -> String) -> String {
            if paint.on {
                var out = ""
                for c in 0 ..< columns {
                    let cell = cellsMade[r * width + c], spaces = String(repeating: " ", count: max(0, widths[c] - lengthsMade[r * columns + c]))
                    let padded = c >= 2 ? spaces + cell : cell + spaces
                    out += (painted(c) ? decorate(padded) : padded) + "  "
                }
                out += cellsMade[r * width + columns]
                while out.utf8.last == UInt8(ascii: " ") { out.removeLast() }
                return out
            }
            // Without colour: written straight into the line's own storage, its size known.
            var capacity = 0
            for c in 0 ... columns { capacity += cellsMade[r * width + c].utf8.count }
            for c in 0 ..< columns { capacity += max(0, widths[c] - lengthsMade[r * columns + c]) + 2 }
            return String(unsafeUninitializedCapacity: capacity) { buffer in
                var n = 0
                for c in 0 ... columns {
                    var cell = cellsMade[r * width + c]
                    let fill = c == columns ? 0 : max(0, widths[c] - lengthsMade[r * columns + c])
                    if c >= 2 { for k in 0 ..< fill { buffer[n + k] = UInt8(ascii: " ") }; n += fill }
                    n += cell.withUTF8 { bytes in
                        for k in 0 ..< bytes.count { buffer[n + k] = bytes[k] }
                        return bytes.count
                    }
                    if c < 2 { for k in 0 ..< fill { buffer[n + k] = UInt8(ascii: " ") }; n += fill }
                    if c < columns { buffer[n] = UInt8(ascii: " "); buffer[n + 1] = UInt8(ascii: " "); n += 2 }
                }
                while n > 0, buffer[n - 1] == UInt8(ascii: " ") { n -= 1 }
                return n
            }
        }
        return [line(0, painted: { _ in true }, paint.bold)]
            + (1 ..< topUps.count).map { r in line(r, painted: { c in c == 2 && topUps[r] }, paint.green) }
    }

    /// A record's kind as a person reads it: `top-up`, チャージ (the ledger and CSV keep the
    /// English `TransactionKind.words` and raw values).
    package static func kind(_ k: TransactionKind) -> String {
        switch k {
        // TRANSLATORS: a record's kind: a ride (乗車), a top-up (チャージ), a shop purchase (物販), unknown.
        case .trip: return L10n.tr("trip")
        case .topup: return L10n.tr("top-up")
        case .purchase: return L10n.tr("purchase")
        case .unknown: return L10n.tr("unknown")
        }
    }

    /// The number as printed on the card: digits in groups of four; the IDm (not printed on FeliCa
    /// transit cards) is said as such.
    package static func number(_ r: CardReading) -> String {
        let s = r.serialNumber
        if r.metadata[MetadataKey.idm] == s { return "IDm \(s)" }
        guard s.utf8.count >= 8, s.utf8.count % 4 == 0, s.utf8.allSatisfy({ (0x30 ... 0x39).contains($0) }) else { return s }
        return stride(from: 0, to: s.count, by: 4).map { i in
            String(s.dropFirst(i).prefix(4))
        }.joined(separator: " ")
    }

    /// Card metadata keys as words: `points` → `Points`, `lastUseDate` → `Last use date`, `idm` → `IDm`.
    package static func cardKey(_ key: String) -> String {
        if key == MetadataKey.idm { return "IDm" }
        let words = TransactionDetails.words(key)
        return (words.first.map { $0.prefix(1).uppercased() + $0.dropFirst() } ?? "") + words.dropFirst().map { " " + $0 }.joined()
    }
}

import CardProtocol
import Foundation
import TransitArchive
import TransitModel
import TransitStations

/// `transit cards`, `history` and `export`: the archive's cards and timelines as text, JSON and
/// CSV. Timelines are oldest first, as a statement reads.
package enum HistoryOutput {
    /// Names for a record's stations when the export is written: those the reading carried, else
    /// those a station table loaded now holds. A machine format never changes with the locale
    /// (issue 44), so it never picks by `TextOutput.Style.englishNames`: `shown` is the English
    /// name where the table has one, else the table's own (what an English run always wrote: the
    /// CSV's `entry_station_name`, the ledger's and OFX's descriptions), and `local` the table's
    /// own name, the operator's spelling (the CSV's `entry_station_name_local`).
    package struct StationNames {
        /// A record's station names: English where the table has them, else its own (`entry`,
        /// `exit`), and the table's own (`entryLocal`, `exitLocal`).
        package struct Names {
            package var entry: String?, exit: String?, entryLocal: String?, exitLocal: String?
            package init(entry: String?, exit: String?, entryLocal: String? = nil, exitLocal: String? = nil) {
                self.entry = entry; self.exit = exit; self.entryLocal = entryLocal; self.exitLocal = exitLocal
            }
        }

        package var names: (_ card: Archive.Card, _ record: Archive.TimelineRecord) -> Names

        package init(names: @escaping (_ card: Archive.Card, _ record: Archive.TimelineRecord) -> Names) {
            self.names = names
        }

        /// One name a station (the same as its own).
        package init(lookup: @escaping (_ card: Archive.Card, _ record: Archive.TimelineRecord) -> (entry: String?, exit: String?)) {
            names = { card, record in let n = lookup(card, record); return Names(entry: n.entry, exit: n.exit, entryLocal: n.entry, exitLocal: n.exit) }
        }

        /// The record's station names as `shown`: English where the table has them.
        package func lookup(_ card: Archive.Card, _ record: Archive.TimelineRecord) -> (entry: String?, exit: String?) {
            let n = names(card, record)
            return (n.entry, n.exit)
        }

        /// The names the reading carried (`entryStationName`, `exitStationName`, and their English
        /// forms, from a station table loaded at read time: the archive's columns).
        package static func stored() -> StationNames {
            StationNames { _, r in names(r.transaction) }
        }

        /// The names `table` holds for the record's codes now, looked up as `scan` and `history`
        /// look them up (`StationNaming`, whatever the family: a code with its region, keyed
        /// region, line, station; a location with its network; the record's date), else the
        /// stored ones.
        package static func from(_ table: StationTable) -> StationNames {
            let stored = stored(), decoder = JSONDecoder()
            return StationNames { card, r in
                let one = CardReading(family: card.family, serialNumber: card.serial, balance: 0, currency: card.currency, transactions: [r.stored(decoder)])
                guard StationNaming.needsTable(one), let t = StationNaming.apply(table, to: one).transactions.first else { return stored.names(card, r) }
                return names(t)
            }
        }

        /// The record's station names, English where it has them, and its own.
        private static func names(_ t: CardReading.TransactionRecord) -> Names {
            Names(entry: t.entryStationNameEnglish ?? t.entryStationName, exit: t.exitStationNameEnglish ?? t.exitStationName,
                  entryLocal: t.entryStationName, exitLocal: t.exitStationName)
        }
    }

    /// A card's timeline with what the listings say about it.
    package struct CardHistory {
        package var card: Archive.Card
        package var records: [Archive.TimelineRecord]
        package var apart: [(readAt: String, reason: String)]
        /// The balance the card stated after the last of `records` (`Archive.closingBalance`), when
        /// that record is the timeline's newest and the read that last held it stated one.
        package var closing: Int64?

        package init(card: Archive.Card, records: [Archive.TimelineRecord], apart: [(readAt: String, reason: String)], closing: Int64? = nil) {
            self.card = card; self.records = records; self.apart = apart; self.closing = closing
        }
    }

    package static func cardsText(_ cards: [Archive.Card]) -> String {
        // TRANSLATORS: the column titles of `transit cards`.
        let rows = [[L10n.tr("Id"), L10n.tr("Card"), L10n.tr("Number"), L10n.tr("Balance"), L10n.tr("Last read"), L10n.tr("Records")]] + cards.map { c in
            [c.handle, title(c), number(c), c.lastBalance.map { Money.format($0, c.currency) } ?? "",
             c.lastRead.map(localTime) ?? "", String(c.records)]
        }
        // Each card's current passes (its latest read's) under the table, a line a pass.
        let passes = cards.filter { !$0.passes.isEmpty }.flatMap { c in
            TextOutput.passLines(c.passes, today: nil, style: TextOutput.Style(translated: true).of(c.family)).dropFirst().map { "\(c.handle)\($0)" }
        }
        return table(rows, rightAligned: [3, 5]) + (passes.isEmpty ? "" : "\n\n" + L10n.tr("Passes (as last read)") + "\n" + passes.joined(separator: "\n"))
    }

    /// The number as `scan` prints it: grouped in fours, or "IDm …" for a FeliCa transit card.
    package static func number(_ c: Archive.Card) -> String {
        TerminalText.escape(TextOutput.number(reading(c, records: [])))
    }

    /// The card and its records as a reading, for the renderers `scan` uses.
    package static func reading(_ c: Archive.Card, records: [CardReading.TransactionRecord]) -> CardReading {
        CardReading(family: c.family, cardName: c.name, serialNumber: c.serial, balance: c.lastBalance, currency: c.currency,
                    validFrom: nil, validUntil: nil, metadata: c.idm.isEmpty ? [:] : [MetadataKey.idm: c.idm], transactions: records)
    }

    /// `EZ-Link (cepas)`, or the family alone when the card has no name; its nickname after it
    /// (`Suica (japan-ic) “通勤”`).
    package static func title(_ c: Archive.Card) -> String {
        TerminalText.escape((c.name.map { "\($0) (\(c.family))" } ?? c.family) + (c.nickname.map { " “\($0)”" } ?? ""))
    }

    package static func cardsJSON(_ cards: [Archive.Card]) -> String {
        struct Row: Encodable {
            let id: String, family: String, cardName: String?, serialNumber: String, idm: String?, currency: String
            let balance: Int64?, lastRead: String?, records: Int, reads: Int, readsApart: Int, nickname: String?
            let passes: [CardPass]?
        }
        return JSONOutput.encode(cards.map {
            Row(id: $0.handle, family: $0.family, cardName: $0.name, serialNumber: $0.serial, idm: $0.idm.isEmpty ? nil : $0.idm, currency: $0.currency,
                balance: $0.lastBalance, lastRead: $0.lastRead, records: $0.records, reads: $0.reads, readsApart: $0.readsApart,
                nickname: $0.nickname, passes: $0.passes.isEmpty ? nil : $0.passes)
        })
    }

    /// A card's timeline, oldest first, in the rows `scan` prints (TextOutput.transactionLines):
    /// type words, one date-time format, the details with bus lines, stops and stations by name
    /// (the records as `Archive.timeline(card:metadata: true)` gives them; `named` adds the names
    /// of the station tables there are now).
    package static func historyText(_ h: CardHistory, style: TextOutput.Style = TextOutput.Style(),
                                    named: (CardReading) -> CardReading = { $0 }) -> String {
        let e = TerminalText.escape, c = h.card
        let reading = named(reading(c, records: h.records.map(\.transaction)))
        // TRANSLATORS: how many records a card's timeline holds, then how many reads made it.
        let counts = L10n.tr("%1$s, %2$s", L10n.trn("%1$s record", "%1$s records", h.records.count, String(h.records.count)),
                             L10n.trn("%1$s read", "%1$s reads", c.reads, String(c.reads)))
            + (c.lastRead.map { L10n.tr(", last read %1$s", localTime($0)) } ?? "")
        var lines = ["\(title(c))  \(e(TextOutput.number(reading)))  —  " + counts]
        if h.records.isEmpty {
            lines.append(L10n.tr("No records."))
        } else {
            lines += TextOutput.transactionLines(reading.transactions, currency: c.currency, style: style.of(c.family))
            lines += TextOutput.notes(reading.transactions)
        }
        for read in h.apart {
            lines.append(L10n.tr("Kept apart: the read of %1$s (%2$s)", localTime(read.readAt), e(read.reason)))
        }
        return lines.joined(separator: "\n")
    }

    /// `[{card fields…, "readsApart": […], "transactions": [each record as read]}]`. Each record is
    /// written anew from its typed form (`RecordJSON`: the timeline with its metadata): the
    /// archive's text is never spliced into the output.
    package static func historyJSON(_ histories: [CardHistory]) -> String {
        String(decoding: historyJSONBytes(histories), as: UTF8.self)
    }

    /// `historyJSON`'s UTF-8 (what `export --format json` writes to its file).
    package static func historyJSONBytes(_ histories: [CardHistory]) -> [UInt8] {
        var all = [UInt8]()
        // About 250 bytes a record: the output grown once, not doubled a dozen times.
        all.reserveCapacity(histories.reduce(0) { $0 + $1.records.count } * 256 + 1024)
        var listing = JSONListing { all += $0 }
        for h in histories {
            listing.card(h.card, apart: h.apart)
            for r in h.records { listing.record(r.transaction) }
        }
        listing.finish()
        return all
    }

    /// `historyJSON` written as it is made, in pieces of about 64 kB handed to `write`: a listing
    /// of 10,000 records read one at a time (`Archive.timeline(card:…each:)`) is never held whole.
    /// Calls: `card` for each card, then its `record`s, then `finish` once.
    package struct JSONListing {
        private struct Head: Encodable {
            struct Apart: Encodable { let readAt: String; let reason: String }
            let id: String, family: String, cardName: String?, serialNumber: String, idm: String?, currency: String
            let nickname: String?
            let readsApart: [Apart]
            /// The card's current passes (its latest read's); absent when none.
            let passes: [CardPass]?
        }
        private var out = [UInt8](arrayLiteral: UInt8(ascii: "["))
        private var cards = 0, records = 0
        private let write: ([UInt8]) -> Void
        private static let piece = 1 << 16

        package init(write: @escaping ([UInt8]) -> Void) {
            self.write = write
            out.reserveCapacity(Self.piece + 4096)
        }

        /// A card's fields; its records follow.
        package mutating func card(_ c: Archive.Card, apart: [(readAt: String, reason: String)]) {
            if cards > 0 { out.append(contentsOf: "]}".utf8) }
            var head = JSONOutput.encode(Head(id: c.handle, family: c.family, cardName: c.name, serialNumber: c.serial, idm: c.idm.isEmpty ? nil : c.idm,
                                              currency: c.currency, nickname: c.nickname, readsApart: apart.map { .init(readAt: $0.readAt, reason: $0.reason) },
                                              passes: c.passes.isEmpty ? nil : c.passes))
            head.removeLast() // "}": the transactions come last, as sorted keys put them
            out.append(contentsOf: ((cards == 0 ? "" : ",") + head + ",\"transactions\":[").utf8)
            cards += 1
            records = 0
        }

        package mutating func record(_ t: CardReading.TransactionRecord) {
            if records > 0 { out.append(UInt8(ascii: ",")) }
            RecordJSON.append(t, to: &out)
            records += 1
            if out.count >= Self.piece { flush() }
        }

        /// The listing's end, written.
        package mutating func finish() {
            if cards > 0 { out.append(contentsOf: "]}".utf8) }
            out.append(UInt8(ascii: "]"))
            flush()
        }

        /// A piece out. It ends between records, so no scalar is cut in two; ASCII has nothing for
        /// escapingUnsafeScalars to escape: told from the bytes at hand.
        private mutating func flush() {
            if out.contains(where: { $0 >= 0x7F }) {
                write(Array(JSONOutput.escapingUnsafeScalars(String(decoding: out, as: UTF8.self)).utf8))
            } else {
                write(out)
            }
            out.removeAll(keepingCapacity: true)
        }
    }

    package static let csvHeader = ["card", "date", "time", "type", "amount", "balance", "entry_station", "entry_station_name",
                            "exit_station", "exit_station_name", "currency", "nickname",
                            "entry_station_name_local", "exit_station_name_local", "details"]

    /// RFC 4180: CRLF line ends, a field quoted when it holds a comma, quote, CR or LF, quotes doubled.
    /// Amounts and balances are decimals in major units; trips and purchases are negative.
    /// A text field a spreadsheet would take for a formula is defused (`spreadsheetSafe`).
    /// The CSV; `forTerminal` escapes each field's control characters (a line break inside a quoted
    /// field would otherwise start a line of its own on the screen) and ends lines with "\n".
    package static func csv(_ histories: [CardHistory], names: StationNames = .stored(), forTerminal: Bool = false) -> String {
        let end = forTerminal ? "\n" : "\r\n"
        let shown: (String) -> String = forTerminal ? { TerminalText.escape($0) } : { $0 }
        func text(_ s: String) -> String {
            let safe = spreadsheetSafe(s)
            return quoted(shown(safe), always: safe != s)
        }
        // Built by its bytes, a field at a time (a 100,000-record export).
        var out = [UInt8]()
        out.reserveCapacity(histories.reduce(0) { $0 + $1.records.count } * 64 + 256)
        out.append(contentsOf: (csvHeader.joined(separator: ",") + end).utf8)
        func field(_ s: String, comma: Bool = true) {
            out.append(contentsOf: s.utf8)
            if comma { out.append(UInt8(ascii: ",")) }
        }
        for h in histories {
            let c = h.card
            // The card's own fields are the same on each of its rows: made once.
            let serial = text(c.serial), currency = text(c.currency), nickname = text(c.nickname ?? "")
            for record in h.records {
                let r = record.transaction
                let named = names.names(c, record)
                // A decimal: negative for what the record deducted, as a spreadsheet sums it.
                let amount = r.amount.map { (r.type.direction == .deducted ? "-" : "") + Money.decimal(Int64(clamping: $0), c.currency) } ?? ""
                // The date's text is `YYYY-MM-DD`, then `THH:MM:SS±HH:MM` when it has a time (CardDate).
                let date = r.date?.description ?? ""
                field(serial)
                field(String(date.prefix(10)))
                field(r.date?.clock == nil ? "" : String(date.dropFirst(11).prefix(8)))
                field(r.type.rawValue)
                field(amount)
                field(r.balance.map { Money.decimal($0, c.currency) } ?? "")
                field(text(r.entryStation ?? ""))
                field(text(named.entry ?? ""))
                field(text(r.exitStation ?? ""))
                field(text(named.exit ?? ""))
                field(currency)
                field(nickname)
                // The table's own names after the columns of old (which keep their places), details last.
                field(text(named.entryLocal ?? ""))
                field(text(named.exitLocal ?? ""))
                field(text(TransactionDetails.text(r, style: .init(), stations: false)), comma: false)
                out.append(contentsOf: end.utf8)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// RFC 4180: a field holding a comma, quote or line break (or any, when `always`) quoted, its
    /// quotes doubled. Looked for by byte, never by Character: a "Prepend" scalar (U+0D4E) makes one
    /// Character with the comma or quote after it, which a spreadsheet still splits or ends a cell at.
    package static func quoted(_ field: String, always: Bool = false) -> String {
        guard always || field.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0D || $0 == 0x0A }) else { return field }
        return "\"" + TerminalText.rewriting(field, where: { $0 == "\"" }) { _, out in out.append(0x22); out.append(0x22) } + "\""
    }

    /// A text cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return is a formula to a
    /// spreadsheet (`=HYPERLINK(…)`): it is prefixed with `'`, which spreadsheets show as text, and
    /// quoted (OWASP, "CSV Injection"). So is one that begins with their fullwidth forms (＝ ＋ －
    /// ＠, U+FF1D U+FF0B U+FF0D U+FF20): Japanese Excel, which the SFCard CSV is opened in, takes
    /// a formula typed in fullwidth as the ASCII one and runs it (LibreOffice 7.4 keeps it text).
    /// Numbers are not text cells: amounts stay negative numbers.
    package static func spreadsheetSafe(_ field: String) -> String {
        guard let first = field.unicodeScalars.first, "=+-@\t\r\u{FF1D}\u{FF0B}\u{FF0D}\u{FF20}".unicodeScalars.contains(first) else { return field }
        return "'" + field
    }

    /// A stored UTC time shown in local time, to the minute.
    package static func localTime(_ iso: String) -> String {
        // The archive's own form by the C library (Foundation's formatters load ICU's calendars,
        // a few milliseconds of every `history`); any other form as before.
        if let seconds = utcSeconds(iso) {
            var t = time_t(seconds), parts = tm()
            if localtime_r(&t, &parts) != nil {
                var out = [UInt8]()
                func digits(_ v: Int32, _ width: Int) {
                    var v = Int(v), place = 1
                    for _ in 1 ..< width { place *= 10 }
                    if v >= place * 10 { out.append(contentsOf: String(v).utf8); return }
                    while place > 0 { out.append(0x30 + UInt8(v / place)); v %= place; place /= 10 }
                }
                // 2026-12-07, 2026/12/07 in Japanese (`DateColumn.day`).
                let dash: UInt8 = L10n.language == "ja" ? 0x2F : 0x2D
                digits(parts.tm_year + 1900, 4); out.append(dash)
                digits(parts.tm_mon + 1, 2); out.append(dash)
                digits(parts.tm_mday, 2); out.append(0x20)
                digits(parts.tm_hour, 2); out.append(0x3A)
                digits(parts.tm_min, 2)
                return String(decoding: out, as: UTF8.self)
            }
        }
        guard let date = readAtParser.withLock({ $0.date(from: iso) }) else { return iso }
        let text = localMinute.string(from: date)
        return L10n.language == "ja" ? text.replacingOccurrences(of: "-", with: "/") : text
    }

    /// `YYYY-MM-DDTHH:MM:SS.fffZ` (the archive's read times, any number of fraction digits) as
    /// seconds since 1970 (the fraction dropped: a minute is shown); nil for any other text.
    static func utcSeconds(_ iso: String) -> Int64? {
        let b = Array(iso.utf8)
        guard b.count >= 22, b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x54, b[13] == 0x3A, b[16] == 0x3A, b[19] == 0x2E, b.last == 0x5A else { return nil }
        func number(_ from: Int, _ count: Int) -> Int64? {
            var v: Int64 = 0
            for i in from ..< from + count {
                guard (0x30 ... 0x39).contains(b[i]) else { return nil }
                v = v * 10 + Int64(b[i] - 0x30)
            }
            return v
        }
        guard number(20, b.count - 21) != nil, let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
              let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
              year >= 1970, (1 ... 12).contains(month), (1 ... Int64(Gregorian.daysIn(month: Int(month), year: Int(year)))).contains(day),
              hour < 24, minute < 60, second < 60 else { return nil }
        return Int64(Gregorian.daysFromUnixEpoch(year: Int(year), month: Int(month), day: Int(day))) * 86400 + hour * 3600 + minute * 60 + second
    }

    private static let localMinute: DateFormatter = {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.dateFormat = "yyyy-MM-dd HH:mm"
        return f
    }()

    /// Columns padded to their widest cell in terminal columns (`DisplayWidth`); the last column is not padded.
    private static func table(_ rows: [[String]], rightAligned: Set<Int>) -> String {
        let columns = rows.first?.count ?? 0
        let widths = (0 ..< columns).map { c in rows.map { DisplayWidth.of($0[c]) }.max() ?? 0 }
        return rows.map { row -> String in
            var line = ""
            for c in 0 ..< columns {
                let cell = row[c], fill = String(repeating: " ", count: c == columns - 1 && !rightAligned.contains(c) ? 0 : widths[c] - DisplayWidth.of(cell))
                line += (c == 0 ? "" : "  ") + (rightAligned.contains(c) ? fill + cell : cell + fill)
            }
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }
}

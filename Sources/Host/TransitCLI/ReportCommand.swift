import Foundation
import TransitArchive
import TransitEngine
import TransitFiles
import TransitModel
import TransitOutput

extension TransitCommand {
    /// `transit report [CARD] [--month YYYY-MM | --from DAY --to DAY] [--format F] [--out FILE]`:
    /// a period's records and totals of a card (every card without CARD), read from the archive
    /// and nothing written to it.
    func report(_ a: Arguments) throws {
        let format = try ReportFormat.named(a.value(.reportFormat))
        let choice = try Self.reportPeriod(a)
        let archive = try openArchive(reading: true)
        let cards: [Archive.Card]
        if let name = a.operands.first {
            guard let archive else { throw Self.nothingKeptError(name) }
            cards = [try archive.cards(matching: name)]
        } else {
            cards = try archive?.cards() ?? []
        }
        if format == .sfcard { try Self.checkSFCard(cards, named: a.operands.first) }
        let stations = stationLibrary(a)
        var notes = [Int64: L10n.Words]()
        let reports = try cards.map { card -> CardReport in
            let dates = try archive?.newestDates(card: card.id) ?? (newest: nil, timed: nil)
            let period = try choice.period(zone: dates.timed?.clock?.utcOffsetMinutes)
            let records = try archive?.timeline(card: card.id, metadata: true, period: period) ?? []
            if records.isEmpty, case .thisMonth = choice, let newest = dates.newest {
                notes[card.id] = Self.emptyMonthNote(newest: newest.day, zone: dates.timed?.clock?.utcOffsetMinutes)
            }
            // Names from the tables there are now (as history names them); the stored ones otherwise.
            let named = Self.named(HistoryOutput.reading(card, records: records.map(\.transaction)), stations)
            return CardReport(card: card, period: period,
                              rows: zip(named.transactions, records).map { CardReport.Row(record: $0, identity: $1.identity) },
                              passes: try archive?.passes(card: card.id, from: period.from, to: period.to) ?? [])
        }
        let style = TextOutput.Style.forOutput(verbose: false)
        let out = a.value(.out).flatMap { $0 == "-" ? nil : $0 }
        let bytes: [UInt8]
        switch format {
        case .text:
            let plain = TextOutput.Style(verbose: false, colour: out == nil && style.colour, englishNames: style.englishNames, translated: true)
            bytes = Array(((cards.isEmpty ? Self.nothingKept : ReportText.render(reports, style: plain, notes: notes.mapValues(\.said))) + "\n").utf8)
        case .json:
            bytes = Array((ReportJSON.render(reports, all: a.operands.isEmpty) + "\n").utf8)
        case .sfcard:
            guard let only = reports.first else { throw TransitError(.usage, L10n.words("no card to report")) }
            let csv = SFCardCSV.render(only)
            if csv.replaced > 0 {
                standardError("transit: " + L10n.trn("%1$s character of the names cannot be written in Shift_JIS: written as ?",
                                                     "%1$s characters of the names cannot be written in Shift_JIS: written as ?", csv.replaced, String(csv.replaced)))
            }
            bytes = csv.bytes
        case .ofx:
            // English station names where the table has them in every locale: a machine format (issue 44).
            let plain = TextOutput.Style(verbose: false, colour: false, englishNames: true)
            bytes = Array(OFXStatement.render(reports) { Self.describe($0, style: plain) }.utf8)
        case .html:
            bytes = Array(ReportHTML.render(reports, style: TextOutput.Style(verbose: false, colour: false, englishNames: style.englishNames, translated: true)).utf8)
        }
        // The text says it under the card's title; every other format on stderr, its output unchanged.
        if format != .text {
            for card in cards { if let note = notes[card.id] { standardError(TerminalText.escape("transit: \(card.handle) \(card.displayName): \(note.said)")) } }
        }
        guard let out else {
            Termination.shared.write(bytes: bytes, to: StandardStream.output, final: true)
            return
        }
        do {
            try PrivateFile.write(Data(bytes), to: out)
        } catch {
            throw TransitError(.config, L10n.words("cannot write %1$s: %2$s", .init(out), L10n.Words(error: error)))
        }
        let records = reports.reduce(0) { $0 + $1.rows.count }
        // TRANSLATORS: %1$s is the count of cards ("2 cards"), %2$s of records ("40 records"), %3$s the file.
        standardError("transit: " + L10n.tr("wrote the report of %1$s (%2$s) to %3$s", L10n.trn("%1$s card", "%1$s cards", reports.count, String(reports.count)),
                                            L10n.trn("%1$s record", "%1$s records", records, String(records)), out))
    }

    /// `Trip: Shinjuku → Shibuya`: what a bank statement's line says of a record.
    static func describe(_ t: CardReading.TransactionRecord, style: TextOutput.Style) -> String {
        let words = t.type.words.prefix(1).uppercased() + t.type.words.dropFirst()
        let details = TransactionDetails.text(t, style: style)
        return details.isEmpty ? words : "\(words): \(details)"
    }

    /// SFCard Viewer's CSV is one yen card's: the card named, or the archive's only card.
    private static func checkSFCard(_ cards: [Archive.Card], named: String?) throws {
        guard named != nil || cards.count <= 1 else {
            throw TransitError(.usage, L10n.words("--format sfcard writes one card's CSV, and the archive keeps %1$s cards: name one (%2$s; see transit cards)",
                                                  .init(String(cards.count)), .init(cards.map(\.handle).joined(separator: ", "))))
        }
        if let card = cards.first, card.currency != "JPY" {
            throw TransitError(.usage, L10n.words("--format sfcard is SFCard Viewer's CSV, for yen cards; %1$s %2$s (%3$s) keeps %4$s: use --format json, ofx, html or text",
                                                  .init(card.handle), .init(card.displayName), .init(card.family), .init(card.currency)))
        }
    }

    /// The period a report asks for: given (`--month YYYY-MM`, `--from DAY --to DAY`), the
    /// previous calendar month (`--month last`), or this month without either.
    enum PeriodChoice {
        case given(ReportPeriod), lastMonth, thisMonth

        /// The period for a card whose records are in `zone` (minutes east of UTC; this machine's
        /// zone when the card's records carry no time). This month is this machine's, as before.
        func period(zone: Int?, now: time_t = time(nil)) throws -> ReportPeriod {
            switch self {
            case .given(let period): return period
            case .thisMonth: return try TransitCommand.month(at: now, zone: nil, back: 0)
            case .lastMonth: return try TransitCommand.month(at: now, zone: zone, back: 1)
            }
        }
    }

    /// The calendar month `back` months before the one `now` falls in, in `zone` (minutes east of
    /// UTC), or in this machine's zone when nil.
    static func month(at now: time_t, zone: Int?, back: Int) throws -> ReportPeriod {
        var parts = tm(), clock = now
        localtime_r(&clock, &parts)
        guard let period = ReportPeriod(monthOf: Int64(now), zone: zone ?? Int(parts.tm_gmtoff) / 60, back: back) else {
            throw TransitError(.internal, L10n.words("this machine's clock gives no month"))
        }
        return period
    }

    /// What an empty default month says: the last month that has records, and how to ask for it.
    static func emptyMonthNote(newest: CalendarDay, zone: Int?, now: time_t = time(nil)) -> L10n.Words {
        let month = String(newest.description.prefix(7))
        let previous = try? TransitCommand.month(at: now, zone: zone, back: 1)
        let ask = previous?.from.description.hasPrefix(month) == true ? "transit report --month last" : "transit report --month \(month)"
        return L10n.words("No records this month yet; the last month with records is %1$s (%2$s).", .init(month), .init(ask))
    }

    /// `--month YYYY-MM` or `--month last`, or `--from DAY --to DAY` (both days included); the
    /// current month of this machine's clock without either.
    static func reportPeriod(_ a: Arguments) throws -> PeriodChoice {
        let from = try a.day(.from), to = try a.day(.to)
        if let month = try a.month(.month) {
            guard from == nil, to == nil else { throw TransitError(.usage, L10n.words("give --month or --from with --to, not both")) }
            switch month {
            case .last: return .lastMonth
            case .month(let period): return .given(period)
            }
        }
        switch (from, to) {
        case let (from?, to?):
            guard let period = ReportPeriod(from: from, to: to) else {
                throw TransitError(.usage, L10n.words("--from %1$s is after --to %2$s", .init(from.description), .init(to.description)))
            }
            return .given(period)
        case (nil, nil):
            return .thisMonth
        default:
            throw TransitError(.usage, L10n.words("--from and --to go together: the first and the last day of the period (or --month YYYY-MM)"))
        }
    }
}

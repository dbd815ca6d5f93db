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
        let period = try Self.reportPeriod(a)
        let archive = try openArchive()
        let cards: [Archive.Card]
        if let name = a.operands.first {
            guard let archive else { throw TransitError(.usage, "no card \(name): nothing is kept yet") }
            cards = [try archive.cards(matching: name)]
        } else {
            cards = try archive?.cards() ?? []
        }
        if format == .sfcard { try Self.checkSFCard(cards, named: a.operands.first) }
        let stations = stationLibrary(a)
        let reports = try cards.map { card -> CardReport in
            let records = try archive?.timeline(card: card.id, metadata: true, period: period) ?? []
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
            let plain = TextOutput.Style(verbose: false, colour: out == nil && style.colour, englishNames: style.englishNames)
            bytes = Array(((cards.isEmpty ? Self.nothingKept : ReportText.render(reports, style: plain)) + "\n").utf8)
        case .json:
            bytes = Array((ReportJSON.render(reports, all: a.operands.isEmpty, english: style.englishNames) + "\n").utf8)
        case .sfcard:
            guard let only = reports.first else { throw TransitError(.usage, "no card to report") }
            let csv = SFCardCSV.render(only)
            if csv.replaced > 0 {
                standardError("transit: \(csv.replaced) character\(csv.replaced == 1 ? "" : "s") of the names cannot be written in Shift_JIS: written as ?")
            }
            bytes = csv.bytes
        case .ofx:
            let plain = TextOutput.Style(verbose: false, colour: false, englishNames: style.englishNames)
            bytes = Array(OFXStatement.render(reports) { Self.describe($0, style: plain) }.utf8)
        case .html:
            bytes = Array(ReportHTML.render(reports, style: TextOutput.Style(verbose: false, colour: false, englishNames: style.englishNames)).utf8)
        }
        guard let out else {
            Termination.shared.write(bytes: bytes, to: stdout, final: true)
            return
        }
        do {
            try PrivateFile.write(Data(bytes), to: out)
        } catch {
            throw TransitError(.config, "cannot write \(out): \(error)")
        }
        standardError("transit: wrote the report of \(reports.count) card\(reports.count == 1 ? "" : "s") "
                      + "(\(reports.reduce(0) { $0 + $1.rows.count }) records) to \(out)")
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
            throw TransitError(.usage, "--format sfcard writes one card's CSV, and the archive keeps \(cards.count) cards: name one "
                               + "(\(cards.map(\.handle).joined(separator: ", ")); see transit cards)")
        }
        if let card = cards.first, card.currency != "JPY" {
            throw TransitError(.usage, "--format sfcard is SFCard Viewer's CSV, for yen cards; \(card.handle) \(card.displayName) "
                               + "(\(card.family)) keeps \(card.currency): use --format json, ofx, html or text")
        }
    }

    /// `--month YYYY-MM`, or `--from DAY --to DAY` (both days included); the current month of
    /// this machine's clock without either.
    static func reportPeriod(_ a: Arguments) throws -> ReportPeriod {
        let from = try a.value(.from).map { try day($0, "--from") }, to = try a.value(.to).map { try day($0, "--to") }
        if let month = a.value(.month) {
            guard from == nil, to == nil else { throw TransitError(.usage, "give --month or --from with --to, not both") }
            guard let period = ReportPeriod(month: month) else {
                throw TransitError(.usage, "--month takes a month that exists, YYYY-MM (2026-11), not \"\(month)\"")
            }
            return period
        }
        switch (from, to) {
        case let (from?, to?):
            guard let period = ReportPeriod(from: from, to: to) else { throw TransitError(.usage, "--from \(from) is after --to \(to)") }
            return period
        case (nil, nil):
            var now = time(nil), parts = tm()
            localtime_r(&now, &parts)
            guard let period = ReportPeriod(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1) else {
                throw TransitError(.internal, "this machine's clock gives no month")
            }
            return period
        default:
            throw TransitError(.usage, "--from and --to go together: the first and the last day of the period (or --month YYYY-MM)")
        }
    }

    private static func day(_ text: String, _ option: String) throws -> CalendarDay {
        guard let day = CalendarDay(text) else { throw TransitError(.usage, "\(option) takes a date that exists, YYYY-MM-DD, not \"\(text)\"") }
        return day
    }
}

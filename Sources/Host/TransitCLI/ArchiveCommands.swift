import Foundation
import TransitArchive
import TransitFiles
import TransitModel
import TransitOutput
import TransitEngine

/// `transit cards`, `history`, `export` and `forget`: the history archive read back.
extension TransitCommand {
    /// `transit cards`: every card the archive knows, with its last balance and read.
    func cards(_ a: Arguments) throws {
        if let (name, nickname) = a.pair(.nickname) {
            guard let archive = try openArchive() else { throw Self.nothingKeptError(name) }
            let card = try archive.cards(matching: name, prefix: false)
            try Archive.retryingWhileBusy { try archive.name(card, nickname: nickname) }
            let named = try archive.cards(matching: card.handle)
            standardOutput(TerminalText.escape(named.nickname.map { L10n.tr("%1$s %2$s %3$s is now called “%4$s”.", card.handle, card.displayName, card.serial, $0) }
                ?? L10n.tr("%1$s %2$s %3$s has no nickname now.", card.handle, card.displayName, card.serial)))
            return
        }
        let cards = try openArchive(reading: true)?.cards() ?? []
        if a.has(.json) { standardOutput(HistoryOutput.cardsJSON(cards)); return }
        standardOutput(cards.isEmpty ? Self.nothingKept : HistoryOutput.cardsText(cards))
    }

    /// `transit history [CARD] [--since DATE] [--json]`: a card's whole timeline (every card's
    /// without CARD), oldest first.
    func history(_ a: Arguments) throws {
        // The rows scan prints, with the names of the station tables there are now (as scan names them).
        let stations = stationLibrary(a), style = TextOutput.Style.forOutput(verbose: false)
        // The text's details and the JSON need each record's metadata: the JSON all of it, the text
        // what its details say (regions only to look names up in the tables there are).
        if a.has(.json) { return try writeJSON(card: a.operands.first, since: try Self.sinceDate(a)) }
        let naming = (try? stations.hasTables()) ?? true
        let histories = try cardHistories(card: a.operands.first, since: try Self.sinceDate(a), metadata: true, listing: true,
                                          unsaid: TransactionDetails.unsaid(naming: naming))
        defer { LeftToExit.keep(histories) }
        let text = histories.map { HistoryOutput.historyText($0, style: style) { Self.named($0, stations) } }
        finalOutput(histories.isEmpty ? Self.nothingKept : text.joined(separator: "\n\n"))
    }

    /// `transit export [CARD] --format csv|json|ledger [--out FILE]`: the timeline for a spreadsheet,
    /// a program or a plain-text accounting book; a file is written 0600 through `PrivateFile`.
    func export(_ a: Arguments) throws {
        let format = a.value(.format) ?? "csv"
        guard ["csv", "json", "ledger"].contains(format) else { throw TransitError(.usage, L10n.words("--format must be csv, json or ledger")) }
        // `--out -` is standard output, as no --out is.
        let out = a.value(.out).flatMap { $0 == "-" ? nil : $0 }
        try Self.refuseUnwritable(out)
        // Both need each record's metadata: the JSON writes each record whole, the CSV's details
        // column says bus lines, stops and CEPAS locations.
        // Station names: those the reads carried, and those of the tables there are now (looked up
        // from each record's stored JSON: read only then).
        let library = stationLibrary(a)
        let tables = try library.hasTables()
        // The CSV's details and the ledger say no region, sequence or raw amount (what only --verbose says).
        let histories = try cardHistories(card: a.operands.first, since: try Self.sinceDate(a), metadata: true, raw: format == "json",
                                          listing: !tables, unsaid: format == "json" ? [] : TransactionDetails.unsaid(naming: tables))
        // Both names of a station, whatever the locale (a machine format never changes with it).
        let names = tables ? .from(try library.table()) : HistoryOutput.StationNames.stored()
        // On a terminal, CSV fields are shown with their control characters escaped; a pipe or a file
        // gets the exact text. JSON is escaped by its encoder either way.
        defer { LeftToExit.keep(histories) }
        let onTerminal = out == nil && isatty(1) != 0
        let text = format == "csv" ? HistoryOutput.csv(histories, names: names, forTerminal: onTerminal)
            : format == "ledger" ? LedgerJournal.journal(histories, names: names)
            : HistoryOutput.historyJSON(histories) + "\n"
        guard let out else {
            Termination.shared.write(text, to: StandardStream.output, final: true)
            return
        }
        do {
            try PrivateFile.write(Data(text.utf8), to: out)
        } catch {
            throw TransitError(.config, L10n.words("cannot write %1$s: %2$s", .init(out), L10n.Words(error: error)))
        }
        let count = histories.reduce(0) { $0 + $1.records.count }
        standardError("transit: " + L10n.trn("wrote %1$s record to %2$s", "wrote %1$s records to %2$s", count, String(count), out))
    }

    /// `transit forget CARD`: the card, its reads and its timeline removed from the archive.
    func forget(_ a: Arguments) throws {
        guard let name = a.operands.first else { throw TransitError(.usage, L10n.words("forget takes the card's number (see transit cards)")) } // the table requires it
        guard let archive = try openArchive() else { throw Self.nothingKeptError(name) }
        // An earlier forget whose write-ahead log another transit kept busy is finished first.
        if try Archive.retryingWhileBusy({ try archive.finishPendingForget() }) {
            standardError("transit: " + L10n.tr("finished an earlier forget: the write-ahead log no longer holds the card it removed"))
            if (try? archive.cards(matching: name, prefix: a.has(.yes))) == nil { return }
        }
        // The whole number, the IDm or the id; a prefix only with --yes (it would remove a card unasked).
        let card = try archive.cards(matching: name, prefix: a.has(.yes))
        try Archive.retryingWhileBusy { try archive.forget(card: card.id) }
        // TRANSLATORS: %2$s is the card's nickname in quotes after a space, or nothing; %4$s and %5$s are the counts that follow.
        standardOutput(TerminalText.escape(L10n.tr("Forgot %1$s%2$s card %3$s: %4$s and %5$s removed from %6$s.", card.displayName,
                                                   card.nickname.map { " “\($0)”" } ?? "", card.serial,
                                                   L10n.trn("%1$s read", "%1$s reads", Int(card.reads), String(card.reads)),
                                                   L10n.trn("%1$s record", "%1$s records", Int(card.records), String(card.records)), archive.path)))
    }

    static var nothingKept: String {
        L10n.tr("No cards kept yet (%1$s).", TerminalText.escape(ArchiveSettings.load().databasePath))
    }

    /// A card named when the archive keeps none.
    static func nothingKeptError(_ name: String) -> TransitError {
        TransitError(.usage, L10n.words("no card %1$s: nothing is kept yet", .init(name)))
    }

    /// The archive, when there is one; `reading`: for a command that only reads it, which then
    /// reads it on a full disk too (`Archive.open`).
    func openArchive(reading: Bool = false) throws -> Archive? {
        try Archive.retryingWhileBusy { try Archive.open(ArchiveSettings.load(), create: false, reading: reading) }
    }

    /// The archive and the card named (every card without a name); nil when nothing is kept yet.
    private func keptCards(_ name: String?) throws -> (archive: Archive, cards: [Archive.Card])? {
        guard let archive = try openArchive(reading: true) else {
            if let name { throw Self.nothingKeptError(name) }
            return nil
        }
        return (archive, try name.map { [try archive.cards(matching: $0)] } ?? archive.cards())
    }

    /// The timelines of the card named (every card without a name), from `since` on.
    private func cardHistories(card name: String?, since: CalendarDay?, metadata: Bool = false, raw: Bool = false,
                               listing: Bool = false, unsaid: [String] = []) throws -> [HistoryOutput.CardHistory] {
        guard let (archive, cards) = try keptCards(name) else { return [] }
        return try cards.map { card in
            var records = try archive.timeline(card: card.id, metadata: metadata, raw: raw, listing: listing, unsaid: unsaid)
            // The closing balance follows the timeline's newest record: kept unless --since drops that record.
            let keepsNewest = records.last.map { r in since.map { s in r.transaction.date.map { $0.day >= s } ?? true } ?? true } ?? false
            if since != nil {
                var from = SinceFilter(since)
                records = records.filter { from.keeps($0.transaction) }
            }
            return HistoryOutput.CardHistory(card: card, records: records, apart: try archive.readsApart(card: card.id),
                                             closing: keepsNewest ? try archive.closingBalance(card: card.id) : nil)
        }
    }

    /// `history --json`: the cards' timelines written as they are read, a record at a time (a
    /// 10,000-record card is never held whole, issue 47). What can fail before the first record
    /// (the archive, the card named, its reads kept apart) fails before any output.
    private func writeJSON(card name: String?, since: CalendarDay?) throws {
        let kept = try keptCards(name)
        let cards = kept?.cards ?? []
        let apart = try cards.map { card in try kept?.archive.readsApart(card: card.id) ?? [] }
        Termination.shared.disarm()
        var listing = HistoryOutput.JSONListing { Termination.shared.write(bytes: $0, to: StandardStream.output) }
        for (card, apart) in zip(cards, apart) {
            listing.card(card, apart: apart)
            var from = SinceFilter(since)
            try kept?.archive.timeline(card: card.id, metadata: true, raw: true, listing: true) { r in
                if from.keeps(r.transaction) { listing.record(r.transaction) }
            }
        }
        listing.finish()
        Termination.shared.write(bytes: [0x0A], to: StandardStream.output, final: true)
    }

    /// `--since YYYY-MM-DD`.
    private static func sinceDate(_ a: Arguments) throws -> CalendarDay? {
        try a.day(.since)
    }
}

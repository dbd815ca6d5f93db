import TransitModel
import TransitTransport
/// What the `--help` texts say besides the options (those are in `CommandTable`); the README's CLI
/// section says the same.
enum HelpText {
    static let version = Version.banner

    /// `transit --help`: the usage lines come from `CommandTable`, the exit codes from
    /// `ExitStatusTable`; the words from the catalog, wrapped to 80 columns in any language
    /// (`LineWrap`).
    static var main: String {
        [LineWrap.wrapped(L10n.tr("transit — read the balance and history of contactless transit and e-money cards."), width: 80), "",
         L10n.tr("Usage:"), CommandTable.usage, "",
         LineWrap.wrapped(ExitStatusTable.helpParagraph, width: 80), "",
         LineWrap.wrapped(L10n.tr("""
             Every read by scan, watch and verify is kept in $XDG_DATA_HOME/transit/history.db \
             (~/.local/share/transit/history.db): the card's number, balance and records. --no-save, or \
             `save = no` in ~/.config/transit/transit.conf, keeps nothing; transit forget CARD removes a card.
             """), width: 80)].joined(separator: "\n")
    }

    /// Each command's intro is translated where `--help` shows it (`CommandSpec.help`).
    static let scan = L10n.mark("""
    transit scan — read the card on a reader (or a card image) and print it.
    """)

    static let decode = L10n.mark("""
    transit decode — read card files (as scan --card does), one JSON line a card: \
    {"file", "card"} or {"file", "error"}; a file of several cards (a Metrodroid zip, a FareBot \
    export, an XML <cards>) gives each {"file", "index", "card"} or {"file", "index", "error"}. \
    Exits with the first failure's code, 0 when all read.
    """)

    static let dump = L10n.mark("""
    transit dump — write everything public on the card into a card image (docs/card-image.md) \
    that `scan --card` reads back to the same result: share a card for testing without the card. \
    FeliCa: every system, its services (Search Service Code), every block readable without a key. \
    ISO 14443-4: the applications the plugins know, with every command they asked and its answer. \
    The image holds the card's number and history: it is created 0600, never through a symlink, \
    in a folder of root's or yours that no one else may write (checked before the read).
    """)

    static let verify = L10n.mark("""
    transit verify — read the card and compare it with a reference noted from a ticket machine \
    (docs/verify.md): the balance and known journeys (date, time, amount, stations or bus route). \
    Prints "fully verified" only when the balance and every journey match, else "not verified" \
    with each mismatch: the field and both values ("time 13:46 on the reference, 13:45 on the \
    card"). Writes the log bundle beside the reference \
    (REF.log.json) or to --log; a log that cannot be written is said on stderr and does not change \
    the exit code. Exit 0 fully verified, 1 not verified, else as scan.
    """)

    static let replay = L10n.mark("""
    transit replay — run the plugins of a log bundle (scan --log), in its order, against its \
    recorded exchanges. The read must ask the same commands in the same order: the first \
    divergence ends it (kind replayDiverged, exit 7) naming both commands; otherwise it prints \
    what the original read printed.
    """)

    static let watch = L10n.mark("""
    transit watch — wait for cards on every reader (or those whose names contain a --reader \
    substring; repeat it for several), read each tap once and print one line per card, starting \
    with the tap's time, or one JSON line {"time", "reader", "card", "nickname"?} / {"time", "reader", \
    "error"} with --json. A card left on a reader is not \
    read again until it has been taken away; readers plugged in and out are followed; a pcscd \
    restart is waited out. Each reader is served on its own: a stuck reader is reported once and \
    never delays another. Ctrl-C or SIGTERM ends it (exit 0). Every tap read is kept in the \
    history archive (an audit trail of the cards seen), unless --no-save.
    """)

    static let doctor = L10n.mark("""
    transit doctor — check what a read needs: pcscd reachable, readers, plugins.conf found and \
    trusted, each plugin loaded, the history archive, the station tables and the Classic key \
    files usable; say what to fix. Exit 0 when all is well, 1 otherwise.
    """)

    static let readers = L10n.mark("""
    transit readers — list the PC/SC readers pcscd knows and the USB readers transit drives (read \
    without pcscd): the card on each and what its ATR says, and the reader's line of the reader \
    table (the FeliCa dialects in order and how the line was checked; docs/readers.md).
    """)

    static let plugins = L10n.mark("""
    transit plugins — list the plugins of plugins.conf in probe order: name, state, ABI version, \
    path (the order it prints them).
    """)

    static let cards = L10n.mark("""
    transit cards — the cards kept in the history archive ($XDG_DATA_HOME/transit/history.db, \
    ~/.local/share/transit/history.db when unset): the id history, export, report and forget take \
    (#3), name and nickname, number, last balance, last read, and how many records its timeline keeps.
    """)

    static let history = L10n.mark("""
    transit history — a card's whole timeline, oldest first: every record of every read, merged \
    past the card's own slots, each once, with the balance after it when the card stores one. \
    Without CARD, every card's. CARD is the card's id as transit cards shows it (#3), its \
    nickname, FAMILY:NUMBER, the number as printed, any unambiguous prefix of it, or the IDm. A read that \
    contradicted the timeline is kept apart and listed after it. The rows are scan's: type words, \
    dates and times in the card's zone, details, stations by name.
    """)

    static let export = L10n.mark("""
    transit export — write a card's timeline (every card's without CARD), oldest first, for a \
    spreadsheet or an expense claim. CSV (RFC 4180): card, date, time, type, amount, balance, \
    entry_station, entry_station_name, exit_station, exit_station_name, currency, nickname, \
    entry_station_name_local, exit_station_name_local, details (bus line and stop, CEPAS location: \
    what scan shows besides the stations); a station's name in English where the table has one, \
    and as the table spells it (the _local columns), the same in every language; amounts and \
    balances in major units (trips and purchases negative). JSON: what history --json prints. \
    Ledger: a journal hledger and ledger read, one transaction a record (the card an asset \
    account, expenses by kind, its stored balances as assertions, an opening balance first; a \
    record without an amount is a comment). CARD as for history (its nickname too). A period's \
    totals: transit report.
    """)

    static let report = L10n.mark("""
    transit report — a period's records of a card (every card's without CARD) with their totals: \
    trips, fares, purchases and top-ups, for an expense claim, a household book or the printer. \
    Records count by their date in the card's own zone; the archive is only read. CARD is the \
    card's id (#3), nickname, number, a prefix of it, or its IDm. An empty period prints the \
    header and zero totals.
    """)

    static let forget = L10n.mark("""
    transit forget — remove a card, all its reads and its timeline from the history archive. \
    CARD is the card's id as transit cards shows it (#3), its nickname, FAMILY:NUMBER, or its whole number as \
    printed or IDm; two cards of one number (a Japan IC and an Octopus card both show their IDm) \
    are told apart by id. When another transit kept the write-ahead log busy, the next forget \
    finishes the removal and says so.
    """)

    static let completions = L10n.mark("""
    transit completions — print the completion script of bash, zsh or fish, written from transit's \
    table of commands and options. The packages install the same scripts; to install one yourself:
      transit completions bash > ~/.local/share/bash-completion/completions/transit
      transit completions zsh > ~/.zfunc/_transit   (a folder of $fpath)
      transit completions fish > ~/.config/fish/completions/transit.fish
    """)
}

import TransitModel
import TransitTransport
/// `--help` texts; the README's CLI section says the same.
enum HelpText {
    static let version = Version.banner

    /// `transit --help`: the usage lines come from `CommandTable`.
    static var main: String {
        """
    transit — read the balance and history of contactless transit and e-money cards.

    Usage:
    \(CommandTable.usage)

    Exit codes: 0 read; 2 usage, configuration, or output that cannot be written; 3 no reader, no card or
    pcscd unavailable; 4 card of no known family; 5 card refused, communication or malformed answer (and
    plugin faults); 6 card removed during the read; 7 replay diverged from its log; 70 an internal error
    (a bug: please report it); 130 cancelled; verify: 1 when the card was read but does not match the
    reference; doctor: 1 when something a read needs is wrong.

    Every read by scan, watch and verify is kept in $XDG_DATA_HOME/transit/history.db
    (~/.local/share/transit/history.db): the card's number, balance and records. --no-save, or
    `save = no` in ~/.config/transit/transit.conf, keeps nothing; transit forget CARD removes a card.
    """
    }

    static let scan = """
    transit scan — read the card on a reader (or a card image) and print it.

      --reader NAME     use the first reader whose name contains NAME (case-insensitive);
                        default: the first reader with a card (SAM interfaces only when named)
      --dialect D       how FeliCa frames travel: pn532 or bare-frame (ACR122U), acs-direct
                        (ACR1252U and later ACS readers), part3 (PC/SC 2.02 Transparent
                        Exchange); default: the reader's line of the reader table
                        (docs/readers.md), the next tried when one does not work; a dialect
                        the line marks unsafe is never sent
      --config FILE     plugins.conf to use (default lookup: $XDG_CONFIG_HOME/transit/,
                        /etc/transit/, the installed default; never the current folder)
      --wait SECONDS    wait up to SECONDS for a reader and a card (default 0: the card must
                        already be on the reader)
      --json            print one JSON object on stdout (errors too)
      --verbose         log each plugin's steps on stderr; the text shows regions, raw types
                        and raw records too
      --card FILE       read a card file instead of a reader: the project's card image
                        (docs/card-image.md), a Flipper Zero FeliCa dump (.nfc), a Metrodroid
                        JSON, XML or zip export, or a FareBot export; the format is recognised
                        from the content
      --index N         the card to read of a --card file that holds several (1 is the first;
                        without it such a file names its cards)
      --log FILE        write a JSON log bundle of the read: versions, reader, dialect, ATR, UID,
                        initial AID, each plugin's outcome, every exchange with its time, and the
                        result. It holds the card's number and history: created 0600, never
                        through a symlink; a folder on the way that another user owns or may
                        write, or a link, is refused before the read; when it cannot be written
                        the read is still printed.
      --exchange-timeout SECONDS
                        the longest one exchange with the reader may take (default 5); a reader
                        that stops answering ends the read as communication (exit 5)
      --read-timeout SECONDS
                        the longest the whole read may take, plugins included (default 20)
      --stations FILE   a station table (CSV: area,line,station,operator,line_name,station_name
                        [,station_name_en][,valid_from,valid_until], codes in hex), repeatable;
                        also every *.csv in $XDG_DATA_HOME/transit/stations (~/.local/share) and
                        <prefix>/share/transit/stations. transit ships none (README, "Station names")
      --no-save         do not keep this read in the history archive
                        ($XDG_DATA_HOME/transit/history.db; see transit history --help)
      --below AMOUNT    flag a balance under AMOUNT, in the card's minor units (1000: ¥1,000;
                        500: S$5.00): a LOW BALANCE line, "lowBalance": true in JSON (default:
                        below = AMOUNT in transit.conf, else none)
      --personal        show the holder's personal data the card holds (name, birth date), which
                        is otherwise left out; it is never kept in the history archive
    """

    static let decode = """
    transit decode — read card files (as scan --card does), one JSON line a card:
    {"file", "card"} or {"file", "error"}; a file of several cards (a Metrodroid zip, a FareBot
    export, an XML <cards>) gives each {"file", "index", "card"} or {"file", "index", "error"}.
    Exits with the first failure's code, 0 when all read.

      --config FILE     plugins.conf to use
      --read-timeout S  the longest one file's read may take (default 20)
      --stations FILE   a station table, as for scan (repeatable)
      --save            keep each read in the history archive (as scan does by default)
    """

    static let dump = """
    transit dump — write everything public on the card into a card image (docs/card-image.md)
    that `scan --card` reads back to the same result: share a card for testing without the card.
    FeliCa: every system, its services (Search Service Code), every block readable without a key.
    ISO 14443-4: the applications the plugins know, with every command they asked and its answer.
    The image holds the card's number and history: it is created 0600, never through a symlink,
    in a folder of root's or yours that no one else may write (checked before the read).

      --out FILE        where to write the image (required; - is standard output; a device or
                        FIFO there is refused, never replaced)
      --reader, --dialect, --wait, --config, --card, --index, --verbose,
      --exchange-timeout, --read-timeout   as for scan
    """

    static let verify = """
    transit verify — read the card and compare it with a reference noted from a ticket machine
    (docs/verify.md): the balance and known journeys (date, time, amount, stations or bus route).
    Prints "fully verified" only when the balance and every journey match, else "not verified"
    with each mismatch: the field and both values ("time 13:46 on the reference, 13:45 on the
    card"). Writes the log bundle beside the reference
    (REF.log.json) or to --log; a log that cannot be written is said on stderr and does not change
    the exit code. Exit 0 fully verified, 1 not verified, else as scan.

      --reference FILE  the reference (required)
      --reader, --dialect, --wait, --config, --card, --index, --verbose,
      --exchange-timeout, --read-timeout, --stations   as for scan (with a station table,
                        reference stations may be given by name)
      --log FILE        where to write the log bundle
      --json            print {"status", "mismatches", "log"?, "card"} ("log": where the log
                        bundle was written; absent when it could not be)
      --no-save         do not keep this read in the history archive
    """

    static let replay = """
    transit replay — run the plugins of a log bundle (scan --log), in its order, against its
    recorded exchanges. The read must ask the same commands in the same order: the first
    divergence ends it (kind replayDiverged, exit 7) naming both commands; otherwise it prints
    what the original read printed.

      --config FILE     plugins.conf that names the log's plugins
      --json            print JSON
      --verbose, --read-timeout S, --stations FILE   as for scan
      --save            keep the read in the history archive (as scan does by default)
    """

    static let watch = """
    transit watch — wait for cards on every reader (or those whose names contain a --reader
    substring; repeat it for several), read each tap once and print one line per card, starting
    with the tap's time, or one JSON line {"time", "reader", "card", "nickname"?} / {"time", "reader",
    "error"} with --json. A card left on a reader is not
    read again until it has been taken away; readers plugged in and out are followed; a pcscd
    restart is waited out. Each reader is served on its own: a stuck reader is reported once and
    never delays another. Ctrl-C or SIGTERM ends it (exit 0). Every tap read is kept in the
    history archive (an audit trail of the cards seen), unless --no-save.

      --reader NAME     watch readers whose name contains NAME (repeatable)
      --json            one JSON line a tap: {"time", "reader", "card", "nickname"?} or {"time",
                        "reader", "error"}; "time" is RFC 3339 with this machine's offset
      --exec CMD        run CMD (with /bin/sh) for each tap, the tap's JSON line on its standard
                        input, the watch's environment with TRANSIT_READER set to the tap's
                        reader; one at a time, never delaying a read; its output goes to stderr.
                        It starts with every signal at its default, descriptors 0-2 only, in a
                        process group of its own
      --exec-timeout SECONDS
                        end CMD's process group (SIGTERM, then SIGKILL) when it runs longer
                        (default 30); the end of the watch ends it too
      --no-save         keep nothing in the history archive
      --below AMOUNT    flag a balance under AMOUNT (the card's minor units) in the tap's line and
                        its JSON ("lowBalance": true), which --exec's command gets too
      --dialect, --config, --verbose, --exchange-timeout, --read-timeout, --stations   as for scan
    """

    static let doctor = """
    transit doctor — check what a read needs: pcscd reachable, readers, plugins.conf found and
    trusted, each plugin loaded, the history archive and the station tables usable; say what to
    fix. Exit 0 when all is well, 1 otherwise.

      --config FILE     plugins.conf to check (default: the one a read would use)
      --json            print a JSON array of {"check", "ok", "detail", "fix"?} ("fix" where
                        something is wrong)
    """

    static let readers = """
    transit readers — list the PC/SC readers pcscd knows and the Sony RC-S380s on USB (read
    without pcscd): the card on each and what its ATR says, and the reader's line of the reader
    table (the FeliCa dialects in order and how the line was checked; docs/readers.md).

      --json            print a JSON array of {"name", "card", "atr"?, "technology"? (with a
                        card), "samInterface", "transport" (pcsc or usb), "problem"? (what kept
                        transit from looking), "profile": {"name", "dialects", "neverSent",
                        "transparentSession", "maxCommand"? (where the reader's manual gives
                        it), "note", "source", "confidence", "summary"}}; a key marked ? is left
                        out when there is nothing to say
    """

    static let plugins = """
    transit plugins — list the plugins of plugins.conf in probe order: name, state, ABI version,
    path (the order it prints them).

      --config FILE     plugins.conf to use (see transit scan --help)
      --json            print a JSON array
    """

    static let cards = """
    transit cards — the cards kept in the history archive ($XDG_DATA_HOME/transit/history.db,
    ~/.local/share/transit/history.db when unset): the id history, export, report and forget take
    (#3), name and nickname, number, last balance, last read, and how many records its timeline keeps.

      --json            print a JSON array
      --name CARD NICKNAME
                        call the card NICKNAME ("通勤", "Yuki's PASMO"): a name for it on
                        report, history, export and forget, shown in their output and in watch
                        lines. CARD is its id, number or IDm, or its nickname; "" removes it
    """

    static let history = """
    transit history — a card's whole timeline, oldest first: every record of every read, merged
    past the card's own slots, each once, with the balance after it when the card stores one.
    Without CARD, every card's. CARD is the card's id as transit cards shows it (#3), its
    nickname, FAMILY:NUMBER, the number as printed, any unambiguous prefix of it, or the IDm. A read that
    contradicted the timeline is kept apart and listed after it. The rows are scan's: type words,
    dates and times in the card's zone, details, stations by name.

      --since DATE      records from DATE (YYYY-MM-DD) on
      --json            print [{"id", "family", "cardName"?, "serialNumber", "idm"?, "currency",
                        "nickname"?, "readsApart", "transactions": [...]}], each transaction
                        as scan --json prints it
      --stations FILE   a station table, as for scan (repeatable): names for the codes, in the
                        locale's language; the tables of the data folders are read too
    """

    static let export = """
    transit export — write a card's timeline (every card's without CARD), oldest first, for a
    spreadsheet or an expense claim. CSV (RFC 4180): card, date, time, type, amount, balance,
    entry_station, entry_station_name, exit_station, exit_station_name, currency, nickname, details
    (bus line and stop, CEPAS location: what scan shows besides the stations); amounts and
    balances in major units (trips and purchases negative). JSON: what history --json prints.
    Ledger: a journal hledger and ledger read, one transaction a record (the card an asset
    account, expenses by kind, its stored balances as assertions, an opening balance first; a
    record without an amount is a comment). CARD as for history (its nickname too). A period's
    totals: transit report.

      --format csv|json|ledger  default csv
      --out FILE        write to FILE (created 0600, never through a symlink, in a folder of
                        root's or yours; a device or FIFO there is refused) instead of stdout;
                        - is stdout
      --since DATE      records from DATE (YYYY-MM-DD) on
      --stations FILE   a station table, as for scan (repeatable): names for the codes, English
                        unless the locale is Japanese (as scan); the data folders' tables are read too
    """

    static let report = """
    transit report — a period's records of a card (every card's without CARD) with their totals:
    trips, fares, purchases and top-ups, for an expense claim, a household book or the printer.
    Records count by their date in the card's own zone; the archive is only read. CARD is the
    card's id (#3), nickname, number, a prefix of it, or its IDm. An empty period prints the
    header and zero totals.

      --month YYYY-MM|last  the period: that month, or last: the previous calendar month in the
                        card's zone (default: this month, by this machine's clock; an empty one
                        names the last month that has records)
      --from YYYY-MM-DD the period's first day, with --to
      --to YYYY-MM-DD   the period's last day (included), with --from
      --format text|json|sfcard|ofx|html
                        text (default): scan's rows, then the totals; json: {"card", "period",
                        "rows", "totals"} (an array without CARD), amounts in the card's minor
                        unit; sfcard: the CSV SFCard Viewer saves (Shift_JIS, CRLF), for one
                        yen card; ofx: an OFX 2 statement for money tools, the same ids on every
                        run; html: one page to print on A4 with a chart of the fares
      --out FILE        write to FILE (created 0600, never through a symlink) instead of stdout
      --stations FILE   a station table, as for scan (repeatable): names for the codes
    """

    static let forget = """
    transit forget — remove a card, all its reads and its timeline from the history archive.
    CARD is the card's id as transit cards shows it (#3), its nickname, FAMILY:NUMBER, or its whole number as
    printed or IDm; two cards of one number (a Japan IC and an Octopus card both show their IDm)
    are told apart by id. When another transit kept the write-ahead log busy, the next forget
    finishes the removal and says so.

      --yes             remove the one card whose number begins with CARD
    """
}

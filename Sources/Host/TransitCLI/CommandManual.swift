/// What transit(1)'s COMMANDS says of each command, in `OptionSpec.manual`'s markup (`` `bold` ``,
/// `_italic_`, an indented line kept as it is): `ManPage` writes the section from these and the
/// command table, and po4a carries it into the Japanese page (docs/translating.md). English only:
/// `--help` says each command's own words (`HelpText`).
enum CommandManual {
    static let scan = """
        Read the card on a reader (or a card file with `--card`) and print it.
        `--wait` waits up to that many seconds for a reader and a card (default 0: the card must already be
        on the reader).
        The read is kept in the history archive unless `--no-save`.
        """
    static let decode = """
        Read card files, as `scan --card` does, and print one JSON line a card: `{"file", "card"}` or
        `{"file", "error"}`; a file of several cards (a Metrodroid zip, a FareBot export, an XML `<cards>`)
        gives each its index: `{"file", "index", "card"}` or `{"file", "index", "error"}`; a file that
        cannot be used is included (kind `config`, naming it).
        The exit status is the first failure's (0 when all were read).
        Errors of `decode` are always JSON.
        The reads are kept in the history archive only with `--save`.
        """
    static let replay = """
        Run the plugins of a log bundle (`scan --log`), in its order, against its recorded exchanges.
        The read must ask the same commands in the same order: the first divergence ends it with kind
        `replayDiverged` (exit 7), naming both commands; otherwise it prints exactly what the original read
        printed.
        The read is kept in the history archive only with `--save`.
        """
    static let dump = """
        Write everything public on the card into a card image that `scan --card` reads back to the same
        result: share a card for testing without the card.
        FeliCa: every system, its services (Search Service Code), every block readable without a key, as
        many per command as the card takes.
        ISO 14443-4: the applications the plugins know, with every command they asked and its answer.
        The image holds the card's number and history: it is created 0600, never through a symlink.
        `--out` is required.
        """
    static let verify = """
        Read the card and compare it with a reference noted from a ticket machine or a receipt: the balance
        and known journeys (date, time, amount, stations or bus route; the format is in _verify.md_).
        Prints “fully verified” (exit 0) only when the balance and every journey match, otherwise “not
        verified” with each mismatch, naming the field and both values (exit 1); errors of the read itself
        exit as for `scan`.
        The log bundle of the read is written beside the reference (_REF_.log.json) or to `--log`.
        A log that cannot be written is said on stderr, the text says “Log: not written”, the JSON has no
        `log` key, and the exit status is still the verification's.
        `--reference` is required.
        The read is kept in the history archive unless `--no-save`.
        """
    static let watch = """
        Wait for cards on every reader (or those whose names contain one of the `--reader` substrings;
        repeat it for several), read each tap once and print one line per card, starting with the tap's time
        on this machine's clock (YYYY-MM-DD HH:MM:SS), or one JSON line `{"time", "reader", "card",
        "nickname"?}` or `{"time", "reader", "error"}` with `--json`, the time in RFC 3339 with this
        machine's offset.
        A card left on a reader is not read again until it has been taken away; readers plugged in and out
        are followed; when pcscd restarts, the watch says so once on stderr and carries on.
        Each reader is served on its own thread with its own plugin worker: a slow or stuck reader never
        delays a tap on another; a reader that stops answering is reported once (`communication`) and
        watched again when its card or the reader goes away.
        With `--exec`, a command is run for each tap.
        Every tap read is kept in the history archive (an audit trail of the cards seen) unless `--no-save`.
        Ctrl-C, SIGTERM, SIGHUP or SIGQUIT ends it with exit 0.
        """
    static let cards = """
        List the cards kept in the history archive: id, name and nickname, number, last balance, last read,
        and how many records its timeline keeps.
        With `--json`, an array.
        `--name` _CARD NICKNAME_ calls the card _NICKNAME_ ("通勤", "Yuki's PASMO"): a name for it wherever a
        _CARD_ is taken (report, history, export, forget), shown in their output and in `watch` lines; one
        card a nickname, none beginning with `#`; an empty _NICKNAME_ removes it.
        An archive that does not exist yet lists no cards.
        """
    static let history = """
        Print a card's whole timeline (every card's without _CARD_), oldest first: every record of every
        read, merged past the card's own slots, each once, with the balance after it when the read carried
        one, in the rows `scan` prints (type words, dates and times in the card's zone, details, stations by
        name from the tables there are now, numbers grouped as printed).
        A read that contradicted the timeline is kept apart and listed after it.
        _CARD_ is the card's id as `transit cards` shows it (`#3`), its nickname, _FAMILY_:_NUMBER_, the
        number as printed, any unambiguous prefix of it, or the IDm.
        `--since` starts at a date; `--json` prints `[{"id", "family", "cardName", "serialNumber", "idm",
        "currency", "readsApart", "transactions"}]`, each transaction as the read gave it, encoded anew.
        """
    static let export = """
        Write a card's timeline (every card's without _CARD_), oldest first, for a spreadsheet or an expense
        claim, to stdout or to `--out`.
        `--since` starts at a date.
        CSV (the default; RFC 4180, CRLF line ends) has the columns _card_, _date_, _time_, _type_,
        _amount_, _balance_, _entry_station_, _entry_station_name_, _exit_station_, _exit_station_name_,
        _currency_, _nickname_, _entry_station_name_local_, _exit_station_name_local_, _details_ (bus line
        and stop, CEPAS location: what `scan` shows besides the stations); amounts and balances in major
        units (`-1.60`, `160` for yen), trips and purchases negative, top-ups positive; station names when
        the read carried them, else from the station tables there are now (a Japan IC code with its region,
        a Calypso network's location: every family with a station scheme) (`--stations` and the tables of
        the data folders): English where the table has it, else the table's own, and the table's own in the
        __local_ columns, the same in every locale.
        `--format json` prints what `history --json` prints.
        `--format ledger` writes a journal that `hledger`(1) and `ledger`(1) read: one transaction a record
        in date order, the card an asset account, expenses by kind; only balances the card stated are
        asserted (the balance it stored with a record, its balance at the last read holding its newest
        record), so every assertion holds in hledger's date order whatever order the reads were kept in; an
        opening balance before the first record, none for a card without a stored value; a record without an
        amount or a date is a comment.
        """
    static let report = """
        A period's records of a card (every card's without _CARD_) and their totals: trips, fares,
        purchases, top-ups.
        The period is `--month` _YYYY-MM_, or `--from` and `--to` (both days included), or this month by
        this machine's clock; a record counts by its date in the card's own zone (a Singapore trip at 00:20
        on 1 November is November's); undated records are in no period.
        An empty period prints the header and zero totals (exit 0); nothing in the archive changes.
        `--format` `text` (the default) prints `scan`'s rows and the totals; `json` prints `{"card",
        "period", "rows", "totals"}` (an array without _CARD_), amounts in the card's minor unit; `sfcard`
        writes the CSV that SFCard Viewer saves, which Japanese expense services and household-book
        converters import: Shift_JIS (code page 932), CRLF, a _カードID_ line, the header
            利用年月日,定期,鉄道会社名,入場駅/事業者名,定期,
            鉄道会社名,出場駅/降車場所,利用額(円),残額(円),メモ
        the records newest first with the stations of the tables, amounts used (top-ups negative) and the
        memo (物販, ｵｰﾄﾁｬｰｼﾞ, ﾊﾞｽ/路面等, ﾁｬｰｼﾞ); one yen card only, a character Shift_JIS cannot carry written
        `?`; `ofx` writes an OFX 2.2 statement for GnuCash, KMyMoney, HomeBank or Moneydance, its
        transaction ids the same on every run; `html` writes one page to print on A4 (no script, nothing
        loaded), with a bar chart of the fares per day (per month past two months, per year or few years
        past ten years: at most 120 bars), every name from a card or table escaped.
        """
    static let forget = """
        Remove a card, all its reads and its timeline from the history archive: the rows are overwritten in
        the file and the write-ahead log is emptied, so nothing of the card is left in free pages.
        _CARD_ is the card's id (`#3`, see `transit cards`), its nickname, _FAMILY_:_NUMBER_, or its whole
        number or IDm (two cards may share a number: a Japan IC and an Octopus card both show their IDm; the
        id tells them apart); a prefix of the number only with `--yes`.
        Forgetting a card that is not kept is a usage error (exit 2).
        """
    static let readers = """
        List the PC/SC readers pcscd knows and the USB readers transit drives itself (those need no
        pcscd; docs/readers.md): the card on each, its ATR and what the ATR says (`felica`, `iso14443`, `storage: `_NAME_ for a memory card such
        as `storage: MIFARE Classic 1K`, `unknown`), and the reader's line of the reader table: the FeliCa
        dialects in order and how the line was checked (`manual`, `trace`, `code`, `guess`).
        """
    static let doctor = """
        Check what a read needs: pcscd reachable, readers connected (each with its line of the reader table;
        a USB reader transit drives present, openable by this user, and which kernel driver holds it), a
        `plugins.conf` found and trusted (with its drop-in files), each plugin loaded, the history archive
        private and readable, the data folders' station tables with no line skipped, the keys folder's files
        private and every line a key (how many files and keys, never a key); for each problem, say what to
        fix.
        Exit 0 when all is well, 1 otherwise.
        """
    static let plugins = """
        List the plugins of `plugins.conf`, drop-ins included, in probe order: name, state (`loaded`,
        `refused` or `misconfigured`, with the reason), ABI version, library path.
        Exits 2 when any plugin is not loaded: a conf with a plugin that cannot be used is a configuration
        to fix.
        """
    static let completions = """
        Print the completion script of `bash`, `zsh` or `fish`, written from the program's own table of
        commands and options: the packages install the same scripts.
        To install one by hand: `transit completions bash` `>`
        _~/.local/share/bash-completion/completions/transit_.
        """
}

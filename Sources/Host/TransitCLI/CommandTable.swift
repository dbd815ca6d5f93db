import TransitModel
import TransitTransport

/// The options of `transit`'s commands: the type of each one's value, and what it does as
/// `--help`, the man page and the shell completions say it. A command that means something else
/// by an option says so with `described`; the others list it "as for scan".
extension OptionSpec {
    static let reader = OptionSpec(name: "reader", value: "NAME", summary: "use the first reader whose name contains NAME", help: L10n.mark("""
        use the first reader whose name contains NAME (case-insensitive); \
        default: the first reader with a card (SAM interfaces only when named)
        """), manual: """
        Use the first reader whose name contains _NAME_ (case-insensitive); default: the first reader
        with a card (a SAM interface only when it is named).
        For `watch`, watch the readers whose names contain _NAME_; repeatable.
        """)
    static let dialect = OptionSpec(name: "dialect", value: FeliCaDialect.allCases.map(\.rawValue).joined(separator: "|"),
                                    type: .choice(FeliCaDialect.allCases.map(\.rawValue), what: L10n.mark("dialect")), summary: "how FeliCa frames travel", help: L10n.mark("""
        how FeliCa frames travel: pn532 or bare-frame (ACR122U), acs-direct \
        (ACR1252U and later ACS readers), part3 (PC/SC 2.02 Transparent \
        Exchange); default: the reader's line of the reader table \
        (docs/readers.md), the next tried when one does not work; a dialect \
        the line marks unsafe is never sent
        """), manual: """
        How FeliCa frames travel: `pn532` or `bare-frame` (ACR122U), `acs-direct` (ACR1252U and later
        ACS readers), `part3` (PC/SC 2.02 Transparent Exchange).
        Default: the reader's line of the reader table (`transit readers` shows it), the next tried when
        one does not work.
        A dialect the line marks unsafe is never sent: asking for one is a usage error.
        """)
    static let config = OptionSpec(name: "config", value: "FILE", type: .file, summary: "plugins.conf to use", help: L10n.mark("""
        plugins.conf to use (default lookup: $XDG_CONFIG_HOME/transit/, \
        /etc/transit/, the installed default; never the current folder)
        """), manual: """
        The `plugins.conf`(5) to use, instead of the lookup described under `FILES`.
        Drop-in files in _plugins.conf.d/_ beside _FILE_ are read too.
        `readers` and the history commands use no plugin and take no `--config`.
        """)
    static let wait = OptionSpec(name: "wait", value: "SECONDS", type: .seconds(positive: false),
                                 summary: "wait up to SECONDS for a reader and a card", help: L10n.mark("""
        wait up to SECONDS for a reader and a card (default 0: the card must \
        already be on the reader)
        """), manual: """
        Wait up to _SECONDS_ for a reader and a card (default 0: the card must already be on the reader).
        """)
    static let json = OptionSpec(name: "json", value: nil, summary: "print JSON", help: L10n.mark("print one JSON object on stdout (errors too)"), manual: """
        Print JSON on stdout: for `scan` and `replay` one object (errors too, see `JSON OUTPUT`);
        for `verify` `{"status", "mismatches", "log", "card"}`;
        for `watch` one line per tap;
        for `readers` an array of `{"name", "card", "atr"}`;
        for `cards` an array of the kept cards;
        for `history` an array of the cards' timelines (see `history`);
        for `plugins` an array;
        for `doctor` an array of `{"check", "ok", "detail", "fix"}`.
        """)
    static let verbose = OptionSpec(name: "verbose", value: nil, summary: "log each plugin's steps on stderr", help: L10n.mark("""
        log each plugin's steps on stderr; the text shows regions, raw types \
        and raw records too
        """), manual: """
        Log each plugin's steps on stderr, then each plugin's outcome in probe order (skipped, not this
        card, read), the dialect that worked, the exchanges with the reader and the time; the text output
        shows regions, raw types and raw records too.
        What a plugin writes to stdout reaches stderr only with `--verbose`, as does a crashing Swift
        plugin's backtrace.
        """)
    static let card = OptionSpec(name: "card", value: "FILE", type: .file,
                                 summary: "read a card file (image, Flipper, Metrodroid or FareBot export) instead of a reader", help: L10n.mark("""
        read a card file instead of a reader: the project's card image \
        (docs/card-image.md), a Flipper Zero FeliCa or DESFire dump (.nfc), a Metrodroid \
        JSON, XML or zip export, or a FareBot export; the format is recognised \
        from the content
        """), manual: """
        Read a card file instead of a reader: the project's card image, a Flipper Zero “NFC device”
        file (version 4) of a FeliCa card (key versions kept) or of a MIFARE DESFire card (its
        applications and open files), a Metrodroid JSON, XML or zip export, or a FareBot export; the
        format is recognised from the content.
        MIFARE Classic and Ultralight dumps are read too: Flipper Zero files, Proxmark3 JSON, MIFARE
        Classic Tool text, raw `.mfd`, `.mfc`, `.dump` or `.bin` images (by extension and size), and
        the Classic and Ultralight cards of Metrodroid, FareBot and XML exports; the keys a dump or
        export keeps for a sector open it.
        A DESFire card or a MIFARE Plus in security level 3 inside a Metrodroid, FareBot or XML export
        is `tagNotSupported` (a DESFire card reads from a reader, a card image or a Flipper dump); a file
        transit cannot use is `config`, naming it.
        The card is emulated in process and answers the same commands a real card would, so plugins,
        order and fallback run as with a reader.
        Blocks or records a dump does not hold answer as a card answers for an unreadable one.
        Flipper files may end their lines in LF or CRLF.
        """)
    static let index = OptionSpec(name: "index", value: "N", type: .index, summary: "the card of a --card file that holds several", help: L10n.mark("""
        the card to read of a --card file that holds several (1 is the first; \
        without it such a file names its cards)
        """), manual: """
        The card to read of a `--card` file that holds several (1 is the first); without it, such a file
        is a usage error that names its cards.
        """)
    static let log = OptionSpec(name: "log", value: "FILE", type: .file, summary: "write a JSON log bundle of the read", help: L10n.mark("""
        write a JSON log bundle of the read: versions, reader, dialect, ATR, UID, \
        initial AID, each plugin's outcome, every exchange with its time, and the \
        result. It holds the card's number and history: created 0600, never \
        through a symlink; a folder on the way that another user owns or may \
        write, or a link, is refused before the read; when it cannot be written \
        the read is still printed.
        """), manual: """
        Write a JSON log bundle of the read: tool and ABI versions, reader, dialect (and
        `refusedDialects`, the ones the reader refused on the way), ATR, UID/IDm, the initial AID (the
        first AID whose SELECT succeeded), each plugin's outcome in probe order, every exchange (command,
        response or error, milliseconds) and the result or error.
        `A log holds the card's number and history:` share it as you would the card.
        It is created 0600, never through a symlink, and replaces an older file of that name.
        A log in a folder another user owns or may write, or behind a symbolic link, is refused before
        the read (a `config` error, exit 2; see `SECURITY`).
        A log that cannot be written is said on stderr (`transit: cannot write the log` _FILE_: _reason_);
        the read is still printed, with its own exit status.
        """)
    static let noSave = OptionSpec(name: "no-save", value: nil, summary: "do not keep this read in the history archive", help: L10n.mark("""
        do not keep this read in the history archive \
        ($XDG_DATA_HOME/transit/history.db; see transit history --help)
        """), manual: """
        Keep nothing of this read in the history archive; for `watch`, nothing of any tap.
        """)
    static let save = OptionSpec(name: "save", value: nil, summary: "keep the read in the history archive",
                                 help: L10n.mark("keep the read in the history archive (as scan does by default)"), manual: """
        Keep the read in the history archive, as `scan` does by default; for `decode`, each file's read.
        `save = no` in _transit.conf_ wins over `--save`.
        """)
    static let exchangeTimeout = OptionSpec(name: "exchange-timeout", value: "SECONDS", type: .seconds(positive: true),
                                            summary: "the longest one exchange may take (default 5)", help: L10n.mark("""
        the longest one exchange with the reader may take (default 5); a reader \
        that stops answering ends the read as communication (exit 5)
        """), manual: """
        The longest one exchange with the reader may take (default 5); a reader that stops answering
        ends the read as `communication` (exit 5).
        """)
    static let readTimeout = OptionSpec(name: "read-timeout", value: "SECONDS", type: .seconds(positive: true),
                                        summary: "the longest the whole read may take (default 20)",
                                        help: L10n.mark("the longest the whole read may take, plugins included (default 20)"), manual: """
        The longest the whole read may take, plugins included (default 20); for `decode`, one file's read.
        A plugin still running at the deadline is stopped with its worker.
        """)
    static let stations = OptionSpec(name: "stations", value: "FILE", type: .file, repeatable: true,
                                     summary: "a station table (CSV) for station names", help: L10n.mark("""
        a station table (CSV: area,line,station,operator,line_name,station_name \
        [,station_name_en][,valid_from,valid_until], codes in hex), repeatable; \
        also every *.csv in $XDG_DATA_HOME/transit/stations (~/.local/share) and \
        <prefix>/share/transit/stations. transit ships none (README, "Station names")
        """), manual: """
        A station table (CSV:
        _area,line,station,operator,line_name,station_name_[_,station_name_en_][_,valid_from,valid_until_],
        codes in hex) that names Japan IC stations; repeatable, earlier files win.
        Tables in _$XDG_DATA_HOME/transit/stations/*.csv_ and _<prefix>/share/transit/stations/*.csv_
        are read too, only when a read has station codes.
        transit ships no table: none is freely licensed.
        A file that cannot be used is named and passed over, a malformed line is named and skipped:
        the other files and lines still serve.
        `history` names the codes in the locale's language, `export` (CSV) in English unless the locale
        is Japanese, as `scan` prints them; `verify` takes reference stations by name with a table.
        """)
    static let keys = OptionSpec(name: "keys", value: "FILE", type: .file, repeatable: true,
                                 summary: "a MIFARE Classic key file (one 12-hex-digit key a line)", help: L10n.mark("""
        a MIFARE Classic key dictionary (MCT, Proxmark3 .dic, Flipper \
        mf_classic_dict: one 12-hex-digit key a line, # comments), mode 0600, \
        repeatable; also every file in $XDG_CONFIG_HOME/transit/keys \
        (~/.config). transit ships no key and never prints one
        """), manual: """
        A MIFARE Classic key dictionary, as MIFARE Classic Tool, Proxmark3 (_.dic_) and the Flipper Zero
        (_mf_classic_dict.nfc_) write them: one key a line as 12 hex digits, `#` comments, blank lines,
        LF or CRLF; repeatable, tried in the order given.
        Every file of _$XDG_CONFIG_HOME/transit/keys/_ (_~/.config/transit/keys/_) is read too, in name
        order, after them.
        A key file must be a regular file of the user's or root's, no symbolic link, with no permission
        for group or others (`chmod 600`), in folders no other user may write: a `--keys` file that is
        refused or holds a line that is not a key ends the command (`config`, exit 2, naming the file
        and line, never the line); a file of the keys folder is passed over with the same message on
        stderr.
        transit ships no operator key; a key is never printed, logged or kept (see `SECURITY`).
        """)
    static let since = OptionSpec(name: "since", value: "YYYY-MM-DD", type: .day, summary: "records from that day on",
                                  help: L10n.mark("records from that day on"), manual: """
        Records from that date on; undated records after the first one shown stay.
        A value that is not a date (_YYYY-MM-DD_) is a usage error (exit 2).
        """)
    static let out = OptionSpec(name: "out", value: "FILE", type: .file, summary: "write to FILE instead of stdout", help: L10n.mark("""
        write to FILE (created 0600, never through a symlink, in a folder of \
        root's or yours; a device or FIFO there is refused) instead of stdout; \
        - is stdout
        """), manual: """
        Where `dump` writes the card image (required), or where `export` writes the timeline and
        `report` the report instead of stdout; `-` is stdout.
        The file is created 0600, never through a symlink, in a folder of root's or the user's only
        (see `SECURITY`); a device or FIFO there is refused, never replaced.
        A file that cannot be written is a `config` error (exit 2).
        """)
    static let requiredOut = OptionSpec(name: "out", value: "FILE", type: .file, required: true, summary: "where to write the card image", help: L10n.mark("""
        where to write the image (required; - is standard output; a device or \
        FIFO there is refused, never replaced)
        """), manual: out.manual)
    static let reference = OptionSpec(name: "reference", value: "FILE", type: .file, required: true,
                                      summary: "the reference noted from a ticket machine", help: L10n.mark("the reference (required)"), manual: """
        The reference `verify` compares the card with (required); at most 1 MiB.
        """)
    /// watch's `--reader`, given once for each reader watched.
    static let readers = OptionSpec(name: "reader", value: "NAME", repeatable: true, summary: "watch readers whose name contains NAME",
                                    help: L10n.mark("watch readers whose name contains NAME (repeatable)"), manual: reader.manual)
    static let exec = OptionSpec(name: "exec", value: "CMD", type: .command, summary: "run CMD for each tap, its JSON line on stdin", help: L10n.mark("""
        run CMD (with /bin/sh) for each tap, the tap's JSON line on its standard \
        input, the watch's environment with TRANSIT_READER set to the tap's \
        reader; one at a time, never delaying a read; its output goes to stderr. \
        It starts with every signal at its default, descriptors 0-2 only, in a \
        process group of its own
        """), manual: """
        Run _CMD_ with `/bin/sh -c` for each tap, with the tap's JSON line (as `--json` prints it) on
        its standard input and `TRANSIT_READER` set to the reader's name.
        The commands run one at a time, in the order of the taps, and never delay a read; the
        command's standard output and standard error go to `transit`'s stderr.
        A command that cannot be run or exits non-zero is said on stderr; the watch goes on.
        _CMD_ starts as a fresh program would: every signal at its default and none blocked, descriptors 0
        to 2 only (its standard input the tap's JSON, its standard output and error `transit`'s stderr),
        in a process group of its own, with the watch's environment and `TRANSIT_READER` added.
        """)
    static let execTimeout = OptionSpec(name: "exec-timeout", value: "SECONDS", type: .seconds(positive: true),
                                        summary: "end CMD past SECONDS (default 30)", help: L10n.mark("""
        end CMD's process group (SIGTERM, then SIGKILL) when it runs longer \
        (default 30); the end of the watch ends it too
        """), manual: """
        End _CMD_'s process group (SIGTERM, then SIGKILL two seconds later) when it runs longer than
        _SECONDS_ (default 30); the end of the watch ends it too.
        """)
    static let format = OptionSpec(name: "format", value: "csv|json|ledger", type: .choice(["csv", "json", "ledger"], what: L10n.mark("export format")),
                                   summary: "CSV (the default), JSON or a ledger journal", help: L10n.mark("default csv"), manual: """
        CSV (RFC 4180, the default), JSON (what `history --json` prints) or a ledger journal that
        hledger and ledger read (see `export`).
        Another value is a usage error (exit 2).
        """)
    static let yes = OptionSpec(name: "yes", value: nil, summary: "remove the one card whose number begins with CARD",
                                help: L10n.mark("remove the one card whose number begins with CARD"), manual: """
        Remove the one card whose number begins with _CARD_; without it, `forget` takes only a card's
        whole number, IDm or id.
        """)
    /// `scan` and `watch`: flag a balance under AMOUNT (the card's minor units).
    static let below = OptionSpec(name: "below", value: "AMOUNT", type: .amount, summary: "flag a balance under AMOUNT, in minor units", help: L10n.mark("""
        flag a balance under AMOUNT, in the card's minor units (1000: ¥1,000; \
        500: S$5.00): a LOW BALANCE line, "lowBalance": true in JSON (default: \
        below = AMOUNT in transit.conf, else none)
        """), manual: """
        Flag a balance under _AMOUNT_ (the card's minor units: 1000 is ¥1,000, 500 is S$5.00): a
        `LOW BALANCE` line in the text, `"lowBalance": true` in the JSON (false when not under it), which
        `watch`'s `--exec` command gets too.
        Without it, `below = AMOUNT` in _transit.conf_.
        """)
    /// `scan`: show the holder's personal data (a Calypso card's name and birth date) too.
    static let personal = OptionSpec(name: "personal", value: nil, summary: "show the holder's personal data too", help: L10n.mark("""
        show the holder's personal data the card holds (name, birth date), which \
        is otherwise left out; it is never kept in the history archive
        """), manual: """
        Show the holder's personal data a card holds (a Calypso card's name and birth date: metadata
        keys beginning `personal.`), which every output otherwise leaves out.
        It is never kept in the history archive.
        """)
    static let month = OptionSpec(name: "month", value: "YYYY-MM|last", type: .month, summary: "the period: a month", help: L10n.mark("""
        the period: that month, or last: the previous calendar month in the \
        card's zone (default: this month, by this machine's clock; an empty one \
        names the last month that has records)
        """), manual: """
        The period: that month, or `last`: the previous calendar month in the card's zone (default:
        this month, by this machine's clock).
        A month that does not exist (`2026-13`) is a usage error (exit 2).
        """)
    static let from = OptionSpec(name: "from", value: "YYYY-MM-DD", type: .day, summary: "the period's first day, with --to",
                                 help: L10n.mark("the period's first day, with --to"), manual: """
        The period's first day, with `--to`.
        """)
    static let to = OptionSpec(name: "to", value: "YYYY-MM-DD", type: .day, summary: "the period's last day, with --from",
                               help: L10n.mark("the period's last day (included), with --from"), manual: """
        The period's last day, included; a `--from` after it is a usage error (exit 2).
        """)
    static let reportFormat = OptionSpec(name: "format", value: ReportFormat.allCases.map(\.rawValue).joined(separator: "|"),
                                         type: .choice(ReportFormat.allCases.map(\.rawValue), what: L10n.mark("report format")),
                                         summary: "what to write: text (the default), JSON, SFCard Viewer CSV, OFX or HTML", help: L10n.mark("""
        text (default): scan's rows, then the totals; json: {"card", "period", \
        "rows", "totals"} (an array without CARD), amounts in the card's minor \
        unit; sfcard: the CSV SFCard Viewer saves (Shift_JIS, CRLF), for one \
        yen card; ofx: an OFX 2 statement for money tools, the same ids on every \
        run; html: one page to print on A4 with a chart of the fares
        """), manual: """
        What the report is written as (see `report`): `text` by default, `json`, `sfcard` (the CSV
        SFCard Viewer saves), `ofx` (an OFX 2 statement) or `html` (a page to print).
        Another value is a usage error (exit 2).
        """)
    /// `cards --name CARD NICKNAME`.
    static let nickname = OptionSpec(name: "name", value: "CARD NICKNAME", count: 2, summary: "call CARD NICKNAME", help: L10n.mark("""
        call the card NICKNAME ("通勤", "Yuki's PASMO"): a name for it on \
        report, history, export and forget, shown in their output and in watch \
        lines. CARD is its id, number or IDm, or its nickname; "" removes it
        """), manual: """
        Call the card _NICKNAME_: a name for it on `report`, `history`, `export` and `forget`, shown in
        their output and in `watch` lines; an empty one removes it.
        _CARD_ is its id, number or IDm, or its nickname.
        """)

    /// `--json` of a command that prints an array.
    static let jsonArray = json.described(L10n.mark("print a JSON array"))
    /// `--stations` of a command that prints records: "as for scan", repeatable.
    static let moreStations = stations.described(L10n.mark("a station table, as for scan (repeatable)"))
}

/// One command: what it takes, its `--help`, and what runs it.
struct CommandSpec: Sendable {
    typealias Operands = CommandArguments.Operands

    let name: String
    /// What it does in a few words (the completions' list of commands).
    let summary: String
    let operands: Operands
    let options: [OptionSpec]
    /// Reads cards through plugins: the plugin worker is forked as the process starts.
    var reads = false
    /// What `transit NAME --help` says before its options (`HelpText`).
    let intro: String
    /// What transit(1)'s COMMANDS says of it (`CommandManual`).
    let manual: String
    let run: @Sendable (TransitCommand, Arguments) throws -> Void

    /// `transit NAME --help`: the intro, then each option the command means its own way, then
    /// those it takes as scan does, in one line "as for scan"; no line wider than 80 columns in
    /// any language (`LineWrap`).
    var help: String {
        let scan = name == "scan" ? [] : CommandTable.command("scan")?.options ?? []
        let own = options.filter { !scan.contains($0) }, asScan = options.filter { scan.contains($0) }
        var lines = own.map { $0.helpLines() }
        if !asScan.isEmpty {
            // TRANSLATORS: after a list of options a command takes as scan does.
            let flags = asScan.map(\.flag), tail = flags.last! + "   " + L10n.tr("as for scan")
            let words = flags.dropLast().map { $0 + "," } + [tail]
            var group = [String]()
            for word in words {
                if let last = group.last, DisplayWidth.of(last) + 1 + DisplayWidth.of(word) <= 80 { group[group.count - 1] = last + " " + word }
                else { group.append("  " + word) }
            }
            lines += group
        }
        let intro = LineWrap.wrapped(L10n.translated(intro), width: 80)
        return lines.isEmpty ? intro : intro + "\n\n" + lines.joined(separator: "\n")
    }

    /// The usage line of `transit --help` (transit(1)'s SYNOPSIS is `ManPage`'s), wrapped below `width`
    /// columns with continuation lines under the first option.
    func usage(width: Int = 78) -> String {
        let head = "transit \(name)" + (operands.usage.map { " \($0)" } ?? "")
        let required = options.filter(\.required), optional = options.filter { !$0.required }
        var lines = [head + required.map { " \($0.usage)" }.joined()]
        let indent = String(repeating: " ", count: "transit \(name) ".count)
        for option in optional {
            if lines[lines.count - 1].count + 1 + option.usage.count > width { lines.append(indent + option.usage) }
            else { lines[lines.count - 1] += " " + option.usage }
        }
        return lines.joined(separator: "\n")
    }
}

/// The command line, declared once. The parser takes a command's entry (`Arguments`); the usage
/// lines of `transit --help`, each command's `--help`, the shell completions (`CompletionScript`)
/// and transit(1)'s SYNOPSIS, COMMANDS and OPTIONS (`ManPage`) are written from it. A command accepts only
/// the options that mean something for it (no reader options without a reader).
enum CommandTable {
    static let commands: [CommandSpec] = [
        CommandSpec(name: "scan", summary: "read the card on a reader (or a card file) and print it",
                    operands: .none,
                    options: [.reader, .dialect, .config, .wait, .json, .verbose, .card, .index, .log, .noSave,
                              .exchangeTimeout, .readTimeout, .stations, .below, .personal, .keys],
                    reads: true, intro: HelpText.scan, manual: CommandManual.scan) { try $0.scan($1) },
        CommandSpec(name: "decode", summary: "read card files, one JSON line each",
                    operands: .many("FILE"),
                    options: [.config.described(L10n.mark("plugins.conf to use")), .readTimeout.described(L10n.mark("the longest one file's read may take (default 20)")),
                              .moreStations, .save.described(L10n.mark("keep each read in the history archive (as scan does by default)")), .keys],
                    reads: true, intro: HelpText.decode, manual: CommandManual.decode) { try $0.decode($1) },
        CommandSpec(name: "replay", summary: "run the plugins of a log bundle against its recorded exchanges",
                    operands: .one("LOG", required: true),
                    options: [.config.described(L10n.mark("plugins.conf that names the log's plugins")), .json.described(L10n.mark("print JSON")), .verbose,
                              .readTimeout, .stations, .save],
                    reads: true, intro: HelpText.replay, manual: CommandManual.replay) { try $0.replay($1) },
        CommandSpec(name: "dump", summary: "write everything public on the card into a card image",
                    operands: .none,
                    options: [.requiredOut, .reader, .dialect, .wait, .config, .card, .index,
                              .verbose, .exchangeTimeout, .readTimeout, .keys],
                    reads: true, intro: HelpText.dump, manual: CommandManual.dump) { try $0.dump($1) },
        CommandSpec(name: "verify", summary: "read the card and compare it with a reference",
                    operands: .none,
                    options: [.reference, .reader, .dialect, .wait, .config, .card,
                              .index, .log.described(L10n.mark("where to write the log bundle")), .json.described(L10n.mark("""
                                  print {"status", "mismatches", "log"?, "card"} ("log": where the log \
                                  bundle was written; absent when it could not be)
                                  """)), .verbose, .noSave.described(L10n.mark("do not keep this read in the history archive")),
                              .exchangeTimeout, .readTimeout,
                              .stations.described(L10n.mark("a station table, as for scan (repeatable): with one, reference stations may be given by name")), .keys],
                    reads: true, intro: HelpText.verify, manual: CommandManual.verify) { try $0.verify($1) },
        CommandSpec(name: "watch", summary: "read every tap on every reader",
                    operands: .none,
                    options: [.readers, .dialect, .config, .json.described(L10n.mark("""
                                  one JSON line a tap: {"time", "reader", "card", "nickname"?} or {"time", \
                                  "reader", "error"}; "time" is RFC 3339 with this machine's offset
                                  """)), .verbose,
                              .exec, .execTimeout, .noSave.described(L10n.mark("keep nothing in the history archive")),
                              .exchangeTimeout, .readTimeout, .stations, .below.described(L10n.mark("""
                                  flag a balance under AMOUNT (the card's minor units) in the tap's line and \
                                  its JSON ("lowBalance": true), which --exec's command gets too
                                  """)), .keys],
                    reads: true, intro: HelpText.watch, manual: CommandManual.watch) { try $0.watch($1) },
        CommandSpec(name: "cards", summary: "list the cards kept in the history archive",
                    operands: .none, options: [.jsonArray, .nickname], intro: HelpText.cards, manual: CommandManual.cards) { try $0.cards($1) },
        CommandSpec(name: "history", summary: "print the whole timeline of a card from the history archive",
                    operands: .one("CARD", required: false),
                    options: [.since, .json.described(L10n.mark("""
                                  print [{"id", "family", "cardName"?, "serialNumber", "idm"?, "currency", \
                                  "nickname"?, "readsApart", "transactions": [...]}], each transaction \
                                  as scan --json prints it
                                  """)), .stations.described(L10n.mark("""
                                  a station table, as for scan (repeatable): names for the codes, in the \
                                  locale's language; the tables of the data folders are read too
                                  """))],
                    intro: HelpText.history, manual: CommandManual.history) { try $0.history($1) },
        CommandSpec(name: "export", summary: "write the timeline of a card as CSV, JSON or a ledger journal",
                    operands: .one("CARD", required: false),
                    options: [.format, .out, .since, .stations.described(L10n.mark("""
                                  a station table, as for scan (repeatable): names for the codes, English \
                                  unless the locale is Japanese (as scan); the data folders' tables are read too
                                  """))],
                    intro: HelpText.export, manual: CommandManual.export) { try $0.export($1) },
        CommandSpec(name: "report", summary: "report a period: totals, SFCard Viewer CSV, OFX or a page to print",
                    operands: .one("CARD", required: false),
                    options: [.month, .from, .to, .reportFormat, .out.described(L10n.mark("write to FILE (created 0600, never through a symlink) instead of stdout")),
                              .stations.described(L10n.mark("a station table, as for scan (repeatable): names for the codes"))],
                    intro: HelpText.report, manual: CommandManual.report) { try $0.report($1) },
        CommandSpec(name: "forget", summary: "remove a card and all its reads from the history archive",
                    operands: .one("CARD", required: true), options: [.yes],
                    intro: HelpText.forget, manual: CommandManual.forget) { try $0.forget($1) },
        CommandSpec(name: "readers", summary: "list the readers (PC/SC and USB) and the card on each",
                    operands: .none, options: [.json.described(L10n.mark("""
                        print a JSON array of {"name", "card", "atr"?, "technology"? (with a \
                        card), "samInterface", "transport" (pcsc or usb), "problem"? (what kept \
                        transit from looking), "profile": {"name", "dialects", "neverSent", \
                        "transparentSession", "maxCommand"? (where the reader's manual gives \
                        it), "note", "source", "confidence", "summary"}}; a key marked ? is left \
                        out when there is nothing to say
                        """))], intro: HelpText.readers, manual: CommandManual.readers) { try $0.readers($1) },
        CommandSpec(name: "doctor", summary: "check pcscd, readers, plugins.conf and each plugin",
                    operands: .none,
                    options: [.config.described(L10n.mark("plugins.conf to check (default: the one a read would use)")), .json.described(L10n.mark("""
                        print a JSON array of {"check", "ok", "detail", "fix"?} ("fix" where \
                        something is wrong)
                        """))], intro: HelpText.doctor, manual: CommandManual.doctor) { try $0.doctor($1) },
        CommandSpec(name: "plugins", summary: "list the plugins of plugins.conf in probe order",
                    operands: .none, options: [.config.described(L10n.mark("plugins.conf to use (see transit scan --help)")), .jsonArray],
                    intro: HelpText.plugins, manual: CommandManual.plugins) { try $0.plugins($1) },
        CommandSpec(name: "completions", summary: "print the completion script of bash, zsh or fish",
                    operands: .one("bash|zsh|fish", required: true), options: [],
                    intro: HelpText.completions, manual: CommandManual.completions) { try $0.completions($1) },
    ]

    static func command(_ name: String) -> CommandSpec? { commands.first { $0.name == name } }

    /// The commands whose plugin worker is forked at start-up.
    static var readingCommands: Set<String> { Set(commands.filter(\.reads).map(\.name)) }

    /// The usage block of `transit --help`.
    static var usage: String {
        (commands.map { $0.usage() } + ["transit --help | --version | COMMAND --help | help COMMAND"])
            .map { $0.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") }.joined(separator: "\n")
    }
}

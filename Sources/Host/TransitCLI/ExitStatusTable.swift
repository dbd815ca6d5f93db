import TransitModel

/// One exit status of `transit`: its code, the few words `--help` gives it, and what transit(1)'s
/// EXIT STATUS and docs/scripting-and-watch.md say of it (`OptionSpec.manual`'s markup).
struct ExitStatus: Sendable {
    let code: Int32
    /// `--help`'s words, after the code (translated where shown).
    let help: String
    let manual: String

    /// The error kinds `--json` reports with this code, in `TransitError.Kind`'s order: the kinds
    /// come from the errors themselves, so a kind given a new code moves here with it.
    var kinds: [String] {
        var kinds = [String]()
        for kind in TransitError.Kind.allCases where kind.exitCode == code && !kinds.contains(kind.reported) {
            kinds.append(kind.reported)
        }
        return kinds
    }
}

/// `transit`'s exit statuses, declared once: `transit --help`'s exit-code paragraph, transit(1)'s
/// EXIT STATUS (`ManPage`) and the table of docs/scripting-and-watch.md are written from it, and
/// ManAndCompletionTests fails when an error kind's code is not in it.
enum ExitStatusTable {
    static let statuses: [ExitStatus] = [
        ExitStatus(code: 0, help: L10n.mark("the card was read"), manual: """
            The card was read (for `verify`: fully verified; for `watch`: ended by Ctrl-C, SIGTERM, SIGHUP
            or SIGQUIT; for `doctor`: all is well).
            """),
        ExitStatus(code: 1, help: L10n.mark("the card does not match the reference (verify), or something a read needs is wrong (doctor)"), manual: """
            `verify`: the card was read but does not match the reference.
            `doctor`: something is wrong.
            """),
        ExitStatus(code: 2, help: L10n.mark("usage, configuration, or output that cannot be written"), manual: """
            Bad usage, a bad `plugins.conf` line or option (named by file and line), no plugin that could be
            loaded, a card file, log or reference that cannot be used (named; see `SECURITY`), a
            `dump --out` file that cannot be written, stdout that cannot be written (a full disk, a closed
            pipe: “transit: cannot write the output: _reason_” on stderr, the command ends at once).
            `transit plugins` exits 2 whenever a plugin is refused or misconfigured.
            `history`, `export` and `forget`: a _CARD_ that names no kept card or more than one, a `--since`
            that is not a date, a `--format` other than csv or json, an archive that cannot be opened
            (read-only for `forget`, corrupt, from a newer `transit`, a symlink, another user's) or an
            `export --out` file that cannot be written.
            A usage error is reported as `config` in JSON.
            """),
        ExitStatus(code: 3, help: L10n.mark("no reader, no card or pcscd unavailable"), manual: """
            pcscd not running, no (matching) reader, no card.
            """),
        ExitStatus(code: 4, help: L10n.mark("card of no known family"), manual: """
            No plugin recognised the card.
            A MIFARE Classic card no family recognised is said as what it is: blank (“a blank MIFARE Classic
            1K card”), of no known system, or with its sectors locked (the message names `--keys`); an
            Ultralight ticket of no known system likewise.
            Another memory card (ICODE, my-d and the like) no family reads, and a card of a technology no
            family reads inside an export (a DESFire card or a MIFARE Plus in security level 3 in a
            Metrodroid, FareBot or XML export), are refused so too.
            """),
        ExitStatus(code: 5, help: L10n.mark("card refused, communication or malformed answer (and plugin faults)"), manual: """
            The read failed.
            `readerUnsupported` is a FeliCa card on a reader that passes no FeliCa frames, or a MIFARE Classic
            card on a reader that cannot open its sectors (the Sony RC-S300, or a reader that takes no Load
            Keys form transit knows; the message names the reader and what to use instead).
            `cardRefused` includes a MIFARE Classic card a family recognised whose sectors it needs stay
            locked (the message names them and `--keys`).
            `communication` is a reader or radio failure, a reader that stopped answering or a card that
            stayed silent mid-read (never “not this card”); `plugin` is a plugin fault (an unknown status, a
            crash, a plugin past its deadline or its budget of exchanges).
            """),
        ExitStatus(code: 6, help: L10n.mark("card removed during the read"), manual: """
            The card left the reader during the read; no partial result is printed.
            """),
        ExitStatus(code: 7, help: L10n.mark("replay diverged from its log"), manual: """
            `replay`: the read asked something other than the log holds.
            """),
        ExitStatus(code: 70, help: L10n.mark("an internal error (a bug: please report it)"), manual: """
            An error `transit` has no kind for: a bug, or a failure of the system it did not foresee (the
            message says what it was doing); never reported as the card's or the reader's.
            Please report it.
            """),
        ExitStatus(code: 130, help: L10n.mark("cancelled (Ctrl-C or a signal)"), manual: """
            Ctrl-C (or SIGTERM, SIGHUP, SIGQUIT) during the wait or the read.
            """),
    ]

    /// What EXIT STATUS says after the codes.
    static let manualAfter = """
        `decode` exits with the first failing file's status.
        A read that cannot be kept in the history archive is one line on stderr (transit: the read was not
        saved to the history: _reason_); the read is printed and the exit status is the read's.
        `cards`, `history`, `export` and `forget` exit 0 when they did what was asked.
        """

    /// `transit --help`'s paragraph: each code with its words, in the person's language.
    static var helpParagraph: String {
        // TRANSLATORS: between two exit codes of the help's list ("0 read; 2 usage…").
        let separator = L10n.tr("; ")
        // TRANSLATORS: %1$s is the list of exit codes, each a number and its words.
        return L10n.tr("Exit codes: %1$s.", statuses.map { "\($0.code) " + L10n.translated($0.help) }.joined(separator: separator))
    }
}

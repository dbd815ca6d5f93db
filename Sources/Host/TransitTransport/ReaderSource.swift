import TransitModel

/// How transit reaches a reader: through pcscd, or itself over USB.
package enum ReaderTransport: String, Sendable {
    case pcsc, usb
}

/// One reader as its source lists it: its name, the card on it (its ATR, as the reader's channel
/// shows it), or what kept transit from looking (no access to the device node, busy).
package struct ListedReader: Equatable, Sendable {
    package let name: String
    package let transport: ReaderTransport
    /// The card's ATR; nil when no card is on the reader, or it could not be looked at.
    package let atr: [UInt8]?
    package let problem: String?

    package init(name: String, transport: ReaderTransport, atr: [UInt8]?, problem: String? = nil) {
        self.name = name; self.transport = transport; self.atr = atr; self.problem = problem
    }
}

/// What a source listed.
package struct ReaderListing: Equatable, Sendable {
    package var readers: [ListedReader]
    /// False when the service the source needs (pcscd) is not running: only its readers need it.
    package var serviceRunning: Bool

    package init(readers: [ListedReader], serviceRunning: Bool = true) { self.readers = readers; self.serviceRunning = serviceRunning }
}

/// A kind of reader — pcscd's, the USB readers transit drives — as the commands use it: the readers listed
/// with their state, a search for a card, a watch for taps, and every reader held given back as
/// the process ends. `TransitPCSC` and `TransitUSB` each have one; `TransitWatch`'s
/// `ReaderSources.all` holds both.
package protocol ReaderSource: AnyObject, Sendable {
    var transport: ReaderTransport { get }
    /// The readers now, each with its card or its problem, every call bounded by `deadline`; none,
    /// `serviceRunning` false, when the service the source needs is not running (pcscd). Throws
    /// when the service fails otherwise.
    func list(by deadline: Deadline) throws -> ReaderListing
    /// Gives back every reader this source holds open; called once, from a signal's thread too.
    func giveBackAll()
    /// What `transit doctor` says of this kind of reader, every call bounded.
    func check() -> SourceCheck
    /// A search for a card among its readers whose names contain `filter` (case-insensitive).
    func search(filter: String?, exchangeTimeout: Double, log: @escaping (String) -> Void) -> CardSearch
    /// Its readers whose names contain one of `filters` (any, when there is none) watched for
    /// taps, each handed to `handler` (`transit watch`).
    func watch(filters: [String], exchangeTimeout: Double, log: @escaping (String) -> Void, handler: TapHandler) -> TapWatch
}

/// One line of `transit doctor`: what was checked, whether it is fine, what was found, what to do.
package struct ReaderFinding: Equatable, Sendable {
    /// What was checked, what was found and what to do, in English (`doctor --json`) and in the
    /// chosen language (its text).
    package let checkWords: L10n.Words
    package let ok: Bool
    package let detailWords: L10n.Words
    package let fixWords: L10n.Words?

    package var check: String { checkWords.english }
    package var detail: String { detailWords.english }
    package var fix: String? { fixWords?.english }

    package init(check: L10n.Words, ok: Bool, detail: L10n.Words, fix: L10n.Words?) {
        checkWords = check; self.ok = ok; detailWords = detail; fixWords = fix
    }

    /// A finding in words that are the same in every language.
    package init(check: String, ok: Bool, detail: String, fix: String?) {
        self.init(check: L10n.Words(check), ok: ok, detail: L10n.Words(detail), fix: fix.map(L10n.Words.init))
    }
}

/// What `doctor` learnt of one kind of reader: its lines, and what the lines of both kinds
/// together depend on (with no reader on either, one line says what was looked for on each).
package struct SourceCheck: Sendable {
    package var findings: [ReaderFinding]
    /// Readers a read could use.
    package var readers: Int
    /// False when the service the source needs is not running (pcscd).
    package var serviceRunning: Bool
    /// Readers seen that transit does not drive yet, by name.
    package var unsupported: [String]

    package init(findings: [ReaderFinding], readers: Int, serviceRunning: Bool = true, unsupported: [String] = []) {
        self.findings = findings; self.readers = readers; self.serviceRunning = serviceRunning; self.unsupported = unsupported
    }
}

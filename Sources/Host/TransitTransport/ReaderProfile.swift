import TransitModel
/// What transit knows of one reader model: the dialects it carries FeliCa frames in, what must never
/// be sent to it, the largest command it takes, and where those facts come from. The lines are in
/// `ReaderTable` (pcscd's readers) and beside transit's own drivers (`ReaderTable.add`);
/// docs/readers.md is the same table for people.
package struct ReaderProfile: Equatable, Sendable {
    /// How a line was checked (the scale of docs/research/README.md, §"Confidence").
    package enum Confidence: String, Sendable {
        /// Seen in a public log of the real reader.
        case trace
        /// The vendor's manual.
        case manual
        /// Public code that drives the reader, with no log of its answers.
        case code
        /// An inference: the line of a related reader.
        case guess

        /// The word in brackets after a reader's line: its name, and in the chosen language.
        package var words: L10n.Words {
            switch self {
            // TRANSLATORS: how a reader's line of the reader table is known: seen in a log of the real reader.
            case .trace: return L10n.words("trace")
            // TRANSLATORS: how a reader's line is known: from the vendor's manual.
            case .manual: return L10n.words("manual")
            // TRANSLATORS: how a reader's line is known: from public code that drives the reader.
            case .code: return L10n.words("code")
            // TRANSLATORS: how a reader's line is known: inferred from a related reader's.
            case .guess: return L10n.words("guess")
            }
        }
    }

    /// The model for people, e.g. "ACS ACR122U".
    package let name: String
    /// Case-insensitive substrings of the name pcscd gives the reader (pcscd appends
    /// `[interface]`, `(serial)` and ` NN SS`); any one matches.
    package let patterns: [String]
    /// The dialects FeliCa frames are tried in, in order. Empty: the reader passes no FeliCa frames.
    package let dialects: [FeliCaDialect]
    /// Dialects never sent to this reader, even when `--dialect` asks for one, with the reason.
    package let unsafe: [FeliCaDialect: String]
    /// A Part 3 transparent session (Manage Session, `FF C2 00 00`) is opened before the first
    /// Transparent Exchange and closed after the read.
    package let transparentSession: Bool
    /// The largest command APDU the reader takes, in bytes, when its driver may not report it
    /// (libccid reports dwMaxCCIDMessageLength − 10 as SCARD_ATTR_MAXINPUT).
    package let maxCommand: Int?
    /// Whether the reader reads ISO 14443 type B cards (most Calypso cards: Navigo, MOBIB…; CEPAS):
    /// nil when unknown. The source is in `typeBSource`.
    package let readsTypeB: Bool?
    package let typeBSource: String
    /// How the reader takes MIFARE Classic keys; nil: unknown, probed once (`LoadKeysForm`).
    package let loadKeys: LoadKeysForm?
    /// Blocks one Read Binary of a Classic sector may return (16 bytes each), within a sector's
    /// data blocks; 1 unless the manual says more.
    package let blocksPerRead: Int
    /// Why the reader cannot open MIFARE Classic sectors, in one sentence naming it; nil when it can
    /// (or nothing says it cannot).
    package let classicRefusal: String?
    /// Why the reader cannot read MIFARE Ultralight pages; nil when it can.
    package let ultralightRefusal: String?
    /// Why a MIFARE Classic or Ultralight card on the reader is never seen at all, said with "no
    /// card on …"; nil when the reader hands such cards over.
    package let storageCardsUnseen: String?
    /// What else an owner should know (GET DATA, interfaces, what is unconfirmed).
    package let note: String
    /// Where the dialect line comes from.
    package let source: String
    package let confidence: Confidence
    /// True for a reader transit drives itself (the Sony readers on USB): its channel hands every
    /// frame of its one dialect to the card, so a silence to the first frame is the card's (an
    /// answer lost, a card that fails), never a reader that passes no FeliCa frame.
    package let ownDriver: Bool

    package init(name: String, patterns: [String], dialects: [FeliCaDialect], unsafe: [FeliCaDialect: String] = [:],
         transparentSession: Bool = false, maxCommand: Int? = nil,
         loadKeys: LoadKeysForm? = nil, blocksPerRead: Int = 1, classicRefusal: String? = nil, ultralightRefusal: String? = nil,
         storageCardsUnseen: String? = nil, readsTypeB: Bool? = nil, typeBSource: String = "",
         note: String = "", source: String, confidence: Confidence, ownDriver: Bool = false) {
        self.name = name; self.patterns = patterns; self.dialects = dialects; self.unsafe = unsafe
        self.loadKeys = loadKeys; self.blocksPerRead = blocksPerRead
        self.classicRefusal = classicRefusal; self.ultralightRefusal = ultralightRefusal
        self.storageCardsUnseen = storageCardsUnseen
        self.readsTypeB = readsTypeB; self.typeBSource = typeBSource
        self.transparentSession = transparentSession; self.maxCommand = maxCommand; self.note = note
        self.source = source; self.confidence = confidence; self.ownDriver = ownDriver
    }

    /// Readers the table does not know: the PC/SC standard first, then the ACS pass-throughs.
    package static let unknown = ReaderProfile(
        name: "a reader transit has no line for", patterns: [], dialects: FeliCaDialect.unknownReaderOrder,
        note: "tell us what worked (docs/readers.md)", source: "PC/SC 2.02 Part 3 first, then the ACS dialects",
        confidence: .guess)

    /// The table's first line whose pattern the reader's name contains, else `unknown`.
    package static func matching(_ readerName: String) -> ReaderProfile {
        let upper = readerName.uppercased()
        return ReaderTable.all.first { $0.patterns.contains { upper.contains($0.uppercased()) } } ?? .unknown
    }

    /// True for the interface of a reader that holds a SAM, not the contactless card: pcscd names
    /// it by its USB interface, `[ACR1252 Dual Reader SAM]`, `[ACR1552 1S CL Reader SAM]` (ccid's
    /// readers/ACS_ACR1252_Dual.txt, ACS_ACR1552U.txt). Such a reader is used only when named.
    package static func isSAMSlot(_ readerName: String) -> Bool {
        guard let open = readerName.firstIndex(of: "["), let close = readerName[open...].firstIndex(of: "]") else { return false }
        let interface = readerName[readerName.index(after: open) ..< close].uppercased()
        return interface.hasSuffix(" SAM") || interface.contains(" SAM READER") || interface.contains(" SAM SLOT")
    }

    /// The readers of `names` that `filters` pick: those whose name contains one of them
    /// (case-insensitive), all when there is none; a SAM interface only when a filter says "SAM".
    package static func selected(_ names: [String], by filters: [String]) -> [String] {
        let wanted = filters.map { $0.lowercased() }
        return names.filter { name in
            let lower = name.lowercased()
            guard wanted.isEmpty || wanted.contains(where: lower.contains) else { return false }
            return !isSAMSlot(name) || wanted.contains { $0.contains("sam") }
        }
    }

    /// A refusal or reason the table declares (`L10n.mark`ed there), in English and in the chosen language.
    package static func words(_ marked: String) -> L10n.Words { L10n.Words(english: marked, said: L10n.translated(marked)) }

    /// The line for people: the model, the dialects in order, the source's confidence (English,
    /// as `readers --json` writes it).
    package var summary: String { summaryWords.english }

    /// `summary` in English and in the chosen language.
    package var summaryWords: L10n.Words {
        let order = dialects.isEmpty ? L10n.words("passes no FeliCa frames")
            // TRANSLATORS: between the FeliCa dialects of a reader, in the order they are tried ("pn532, then part3").
            : dialects.map { L10n.Words($0.rawValue) }.joined(separator: L10n.words(", then "))
        let session = transparentSession ? L10n.words(" (in a transparent session)") : .init("")
        let head = L10n.Words(name) + L10n.Words(": ") + order
        return head + session + L10n.Words(" [") + confidence.words + L10n.Words("]")
    }
}

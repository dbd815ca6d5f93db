import CardProtocol
import Foundation
import TransitModel

/// The project's card image: a card described as JSON, answered by the emulators exactly as the
/// card would answer. Documented in docs/card-image.md.
public struct CardImage: Codable, Equatable, Sendable {
    /// Always "transit-card-image/1".
    public var format: String
    public var description: String?
    public var felica: FeliCaImage?
    public var iso7816: ISO7816Image?
    /// A MIFARE Classic card (ClassicImage below).
    public var mifareClassic: ClassicImage?
    /// A MIFARE Ultralight or NTAG card (UltralightImage below).
    public var mifareUltralight: UltralightImage?

    /// A FeliCa card: its systems, in card order, and their services' blocks.
    public struct FeliCaImage: Codable, Equatable, Sendable {
        /// IDm of system 0 (16 hex digits); system n answers with n in the upper nibble of byte 0.
        public var idm: String
        public var pmm: String?
        /// The most blocks one Read Without Encryption may name (1–15); more answers status A2.
        public var maxBlocksPerRead: Int?
        public var systems: [FeliCaSystemImage]

        public init(idm: String, pmm: String? = nil, maxBlocksPerRead: Int? = nil, systems: [FeliCaSystemImage]) {
            self.idm = idm; self.pmm = pmm; self.maxBlocksPerRead = maxBlocksPerRead; self.systems = systems
        }
    }

    /// One FeliCa system: code (4 hex digits) and services keyed by 4-digit hex code.
    public struct FeliCaSystemImage: Codable, Equatable, Sendable {
        public var code: String
        /// Readable services: blocks as 32 hex digits each, block 0 first.
        public var services: [String: [String]]
        /// Services that exist but need a key: Request Service finds them, reads are refused.
        public var lockedServices: [String]?
        /// The system's own IDm (16 hex digits), as phones answer: the derived IDm then gets silence.
        public var idm: String?
        /// Key versions by node (4 hex digits each): services, areas, and FFFF for the system itself,
        /// as Request Service answers them. A node listed here and nowhere else is an area.
        public var keyVersions: [String: String]?

        public init(code: String, services: [String: [String]], lockedServices: [String]? = nil, idm: String? = nil,
                    keyVersions: [String: String]? = nil) {
            self.code = code; self.services = services; self.lockedServices = lockedServices; self.idm = idm
            self.keyVersions = keyVersions
        }
    }

    /// An ISO 14443-4 card answering APDUs.
    public struct ISO7816Image: Codable, Equatable, Sendable {
        /// UID answered to `FF CA 00 00 00` (hex).
        public var uid: String
        /// ATR historical bytes (hex); a default is used when absent.
        public var historicalBytes: String?
        /// Applications or files, each entered by its SELECT command.
        public var applications: [ApplicationImage]
        /// Commands answered whatever is selected (APDU hex → answer hex with SW).
        public var commands: [String: String]?
        /// The one class byte the card takes (hex, e.g. "94", as old Calypso cards): any other answers
        /// 6E00, and the image's commands, written with CLA 00, answer with this one. Absent: CLA 00.
        public var onlyClass: String?
        /// False: READ RECORD of every record from P1 (P2 = SFI·8+5, Calypso) answers 6A86. Default true.
        public var multipleRecordReads: Bool?
        /// True: READ RECORD with Le 00 answers an empty 9000, as some Calypso cards do. Default false.
        public var emptyAnswerToLeZero: Bool?
        /// A MIFARE DESFire card's applications (DESFireImage.swift), answered to `90 …` commands.
        public var desfire: DESFireImage?

        public init(uid: String, historicalBytes: String? = nil, applications: [ApplicationImage], commands: [String: String]? = nil,
                    onlyClass: String? = nil, multipleRecordReads: Bool? = nil, emptyAnswerToLeZero: Bool? = nil,
                    desfire: DESFireImage? = nil) {
            self.uid = uid; self.historicalBytes = historicalBytes; self.applications = applications; self.commands = commands
            self.onlyClass = onlyClass; self.multipleRecordReads = multipleRecordReads; self.emptyAnswerToLeZero = emptyAnswerToLeZero
            self.desfire = desfire
        }
    }

    /// A MIFARE Classic card: every block in order, sector trailers included. A block is 32 hex
    /// digits, or "??" in place of a byte the dump did not read (as Flipper writes them). Each
    /// sector's trailer holds the keys that open it, as dumps keep them: key A in bytes 0–5, key B
    /// in 10–15; a key of unread bytes opens nothing. A sector whose blocks are all unread is
    /// locked. Operator keys never ship: images in this project use keys their authors made up.
    public struct ClassicImage: Codable, Equatable, Sendable {
        /// UID answered to `FF CA 00 00 00` (hex, 4 or 7 bytes).
        public var uid: String
        /// "1K" (16 sectors), "4K" (40), "Mini" (5) or "2K" (32 sectors of 4 blocks: a MIFARE
        /// Plus 2K in security level 1); the block count must match.
        public var type: String
        /// ATQA and SAK as the dump gives them (hex), kept for the record.
        public var atqa: String?
        public var sak: String?
        public var blocks: [String]

        public init(uid: String, type: String, atqa: String? = nil, sak: String? = nil, blocks: [String]) {
            self.uid = uid; self.type = type; self.atqa = atqa; self.sak = sak; self.blocks = blocks
        }
    }

    /// A MIFARE Ultralight or NTAG card: its pages in order, 8 hex digits each ("??" for an unread
    /// byte); a page the dump did not read is past the card's end for the emulator.
    public struct UltralightImage: Codable, Equatable, Sendable {
        /// UID answered to `FF CA 00 00 00` (hex, 7 bytes).
        public var uid: String
        /// The chip as the dump names it ("Ultralight", "Ultralight C", "Ultralight EV1", "NTAG213"…).
        public var type: String?
        public var pages: [String]

        public init(uid: String, type: String? = nil, pages: [String]) { self.uid = uid; self.type = type; self.pages = pages }
    }

    /// Something SELECT reaches: the exact SELECT APDU, its answer, and the commands it then answers.
    public struct ApplicationImage: Codable, Equatable, Sendable {
        public var name: String?
        /// The SELECT APDU in hex, e.g. "00A40000024000".
        public var select: String
        /// Answer to the SELECT (data + SW), "9000" when absent.
        public var answer: String?
        /// APDU hex → answer hex (data + SW) while this application is selected.
        public var commands: [String: String]
        /// Record files by short file identifier (two hex digits, e.g. "04"): READ RECORD answers
        /// record n (1-based), and 6A83 past the last.
        public var records: [String: [String]]?
        /// Transparent files by short file identifier: READ BINARY with an SFI answers from the offset.
        public var binaries: [String: String]?

        public init(name: String? = nil, select: String, answer: String? = nil, commands: [String: String] = [:],
                    records: [String: [String]]? = nil, binaries: [String: String]? = nil) {
            self.name = name; self.select = select; self.answer = answer; self.commands = commands
            self.records = records; self.binaries = binaries
        }
    }

    public init(format: String = CardImage.currentFormat, description: String? = nil,
                felica: FeliCaImage? = nil, iso7816: ISO7816Image? = nil,
                mifareClassic: ClassicImage? = nil, mifareUltralight: UltralightImage? = nil) {
        self.format = format; self.description = description; self.felica = felica; self.iso7816 = iso7816
        self.mifareClassic = mifareClassic; self.mifareUltralight = mifareUltralight
    }

    public static let currentFormat = "transit-card-image/1"

    /// What each key of a card image holds, said when a file holds something else.
    package static let shape = JSONShape(expected: [
        "format": "\"\(currentFormat)\"",
        "description": L10n.mark("text"),
        "felica": L10n.mark("an object: idm, systems…"), "iso7816": L10n.mark("an object: uid, applications…"),
        "idm": L10n.mark("8 bytes in hex as text (\"012E4CD8A1B2C3D4\")"), "pmm": L10n.mark("8 bytes in hex as text"),
        "maxBlocksPerRead": L10n.mark("a whole number"),
        "systems": L10n.mark("a list of systems, each {\"code\", \"services\"}"),
        "code": L10n.mark("a system code, 2 bytes in hex as text (\"0003\")"),
        "services": L10n.mark("an object of service codes (hex) to lists of 16-byte blocks (hex)"),
        "lockedServices": L10n.mark("a list of service codes (hex)"),
        "keyVersions": L10n.mark("an object of service codes to key versions (hex)"),
        "uid": L10n.mark("the UID in hex as text"), "historicalBytes": L10n.mark("bytes in hex as text"),
        "applications": L10n.mark("a list of applications, each {\"select\", \"commands\"}"),
        "select": L10n.mark("the SELECT command in hex as text"), "answer": L10n.mark("the answer in hex as text"),
        "commands": L10n.mark("an object of commands (hex) to answers (hex)"),
        "records": L10n.mark("an object of SFIs to lists of records (hex)"), "binaries": L10n.mark("an object of SFIs to contents (hex)"),
        "onlyClass": L10n.mark("a class byte in hex as text (\"94\")"), "multipleRecordReads": L10n.mark("true or false"),
        "emptyAnswerToLeZero": L10n.mark("true or false"),
        "desfire": L10n.mark("an object: applications, each {\"aid\", \"files\"}"),
        "mifareClassic": L10n.mark("an object: uid, type, blocks"), "mifareUltralight": L10n.mark("an object: uid, pages"),
        "type": L10n.mark("\"1K\", \"2K\", \"4K\" or \"Mini\" (Ultralight: the chip's name)"), "atqa": L10n.mark("2 bytes in hex as text"), "sak": L10n.mark("1 byte in hex as text"),
        "blocks": L10n.mark("a list of 16-byte blocks, 32 hex digits each (?? for an unread byte)"),
        "pages": L10n.mark("a list of 4-byte pages, 8 hex digits each (?? for an unread byte)"), "aid": L10n.mark("a DESFire AID, 3 bytes in hex"),
        "files": L10n.mark("a list of DESFire files, each {\"id\", \"type\", \"access\"}"), "frameSize": L10n.mark("a whole number"),
    ], entryNames: ["systems": L10n.mark("system"), "applications": L10n.mark("application")])

    /// The largest card file read (image, Flipper dump or Metrodroid export). The largest real dump
    /// at hand, a whole Suica read by a Flipper (every system and public service, 138 blocks), is
    /// 21,824 bytes; 4 MiB holds about 190 times as much, some 26,000 blocks of 16 bytes.
    public static let fileLimit = 4 << 20

    /// Reads a card file of one card (CardFile says which formats): every problem, a file of
    /// several cards and a card of another technology included, is a `CardImageError` naming the
    /// file.
    public static func load(_ path: String) throws -> CardImage {
        do {
            return try CardFile.load(path).card(index: nil)
        } catch let e as CardFileTechnologyError {
            throw CardImageError(e.words)
        }
    }

    /// Checks what parsing cannot: field sizes, hex, system count, as the emulators need them.
    public func validate() throws { _ = try VirtualReader(image: self) }

    /// The one card of a file's bytes.
    public static func parse(_ data: Data) throws -> CardImage {
        let (format, entries) = try CardFile.parse(data)
        guard entries.count == 1, let entry = entries.first else {
            throw CardImageError(L10n.words("%1$s of %2$s cards", CardFile.formatWords(format), .init(String(entries.count))))
        }
        switch entry {
        case .card(let image): return image
        case .otherTechnology(let what): throw CardImageError(L10n.words("%1$s: no transit family reads this technology", .init(what)))
        case .unusable(let why): throw CardImageError(CardFile.formatWords(format) + .init(": ") + why)
        }
    }
}

/// A card image that cannot be used.
public struct CardImageError: SaidError {
    public let words: L10n.Words
    /// The message, in words that are the same in every language (a format's own terms); a value
    /// from the file is quoted in it with `quote`, and the whole is kept to `maxLength` characters
    /// whatever a file holds.
    public init(_ d: String) { self.init(L10n.Words(d)) }

    /// The message in English and in the chosen language, each kept to `maxLength` characters.
    public init(_ words: L10n.Words) {
        func cut(_ d: String) -> String { d.count > Self.maxLength ? String(d.prefix(Self.maxLength)) + "…" : d }
        self.words = L10n.Words(english: cut(words.english), said: cut(words.said))
    }

    public static let maxLength = 4_000

    /// At most 80 characters of a value the file holds, then "…": a message names what it found
    /// without echoing a whole line or string of the file.
    public static func quote<S: StringProtocol>(_ value: S) -> String { TerminalText.excerpt(value) }
}

/// Hex text of image fields to bytes (spaces between digits ignored), a `CardImageError` when it is not hex.
enum HexText {
    static func bytes(_ s: String) throws -> [UInt8] {
        guard let bytes = HexFormat.bytes(s, ignoringSpaces: true) else {
            throw CardImageError(s.utf8.filter { $0 != UInt8(ascii: " ") }.count % 2 == 1 ? "odd hex string \(CardImageError.quote(s))" : "bad hex \(CardImageError.quote(s))")
        }
        return bytes
    }
}

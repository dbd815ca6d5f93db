import FileFormats
import Foundation
import TransitFiles
import TransitModel

/// A card file as users hold it, recognised from its content: the project's card image, a Flipper
/// Zero NFC file, a Metrodroid JSON or XML export, a FareBot export, a Proxmark3 JSON dump, a MIFARE
/// Classic Tool dump, or a Metrodroid zip of any of them; a raw MIFARE Classic image by its name and
/// size (RawClassicDump). It holds one card or several; each is a card image, or a card transit cannot read (another
/// technology, or data the file does not keep), said per card. A problem of the file itself is a
/// `CardImageError` that names it. Every byte read counts against `CardImage.fileLimit`: the file,
/// and what a zip's members inflate to.
public struct CardFile {
    public enum Entry: Equatable {
        case card(CardImage)
        /// A card of a technology no transit family reads, e.g. "MIFARE Classic card".
        case otherTechnology(String)
        /// A card the file describes but transit cannot read from it, and why (in English and in
        /// the chosen language).
        case unusable(L10n.Words)
    }

    /// The most cards a file may hold (as a zip's 100 members): a bigger file is no export a person
    /// made, and each card costs its parse.
    public static let maxCards = 100

    public let path: String
    /// What the file is, for messages: "a Metrodroid zip export", "a FareBot export (version 31)".
    public let format: String
    public let entries: [Entry]

    public static func load(_ path: String) throws -> CardFile {
        let data: Data
        do { data = try BoundedFile.read(path, limit: CardImage.fileLimit) } catch let e as BoundedFileError { throw CardImageError(e.words) }
        do {
            let (format, entries) = try parse(data, name: path)
            return CardFile(path: path, format: format, entries: entries)
        } catch let e as CardImageError {
            throw CardImageError(L10n.Words("\(path): ") + e.words)
        }
    }

    /// The file's format and cards; `name` (the file's, or a zip member's) lets a raw MIFARE
    /// Classic image be recognised by its extension.
    public static func parse(_ data: Data, name: String? = nil) throws -> (format: String, entries: [Entry]) {
        if ZipArchive.isZip(data) {
            let wanted = [".json", ".xml", ".mfc", ".nfc"]
            let members: [ZipArchive.Member]
            do {
                members = try ZipArchive.members(data, budget: CardImage.fileLimit - data.count) { name in
                    let lower = name.lowercased()
                    return wanted.contains(where: lower.hasSuffix) && !(name as NSString).lastPathComponent.hasPrefix(".")
                }
            } catch let e as FileFormatError {
                throw CardImageError(e.words)
            }
            var entries = [Entry]()
            for m in members { // in the archive's order
                do {
                    entries += try plain(m.data, name: m.name).entries
                } catch let e as CardImageError {
                    entries.append(.unusable(L10n.Words("\(CardImageError.quote(m.name)): ") + e.words))
                }
            }
            guard !entries.isEmpty else { throw CardImageError(L10n.words("a zip with no card file (.json, .xml, .nfc, .mfc) in it")) }
            try checkCount(entries.count)
            return ("a Metrodroid zip export of \(members.count) card files", entries)
        }
        return try plain(data, name: name)
    }

    /// A file that is not an archive: its format and cards, at least one and at most `maxCards`.
    private static func plain(_ data: Data, name: String? = nil) throws -> (format: String, entries: [Entry]) {
        let (format, entries) = try recognised(data, name: name)
        guard !entries.isEmpty else { throw CardImageError(L10n.words("%1$s that holds no card", Self.formatWords(format))) }
        return (format, entries)
    }

    /// Refuses a file of more cards than `maxCards`: a list before any card of it is parsed, a zip
    /// once its members are (each member itself a file of at most `maxCards`).
    static func checkCount(_ count: Int) throws {
        guard count <= maxCards else {
            throw CardImageError(L10n.words("a file of %1$s cards: transit reads files of at most %2$s", .init(String(count)), .init(String(maxCards))))
        }
    }

    private static func recognised(_ data: Data, name: String?) throws -> (format: String, entries: [Entry]) {
        guard RawClassicDump.mayBe(name: name, size: data.count) else { return try recognisedByContent(data) }
        // A raw image is bytes of any value: read as one only when no format recognises them.
        do {
            return try recognisedByContent(data)
        } catch is CardImageError {
            return (L10n.mark("a raw MIFARE Classic dump"), [Entry { try RawClassicDump.parse(data) }])
        }
    }

    private static func recognisedByContent(_ data: Data) throws -> (format: String, entries: [Entry]) {
        if let text = String(data: data, encoding: .utf8), FlipperDump.isFlipper(text) {
            return (L10n.mark("a Flipper Zero NFC file"), [Entry { try FlipperDump.parse(text) }])
        }
        if MCTDump.isMCT([UInt8](data.prefix(64))), let text = String(data: data, encoding: .utf8) {
            return (L10n.mark("a MIFARE Classic Tool dump"), [Entry { try MCTDump.parse(text) }])
        }
        if ExportXML.isXML(data) { return (L10n.mark("an XML export"), try ExportXML.entries(data)) }
        guard let json = try? JSONSerialization.jsonObject(with: data) else {
            throw CardImageError(L10n.words("""
                neither a card image, a Flipper NFC file, a Metrodroid or FareBot export (JSON, XML or zip), nor a Proxmark3 JSON or MIFARE Classic Tool dump \
                (a raw MIFARE Classic dump is read from a .mfd, .mfc, .dump or .bin file of 320, 1024, 2048 or 4096 bytes)
                """))
        }
        if let list = json as? [Any] {
            try checkCount(list.count)
            return (L10n.mark("a list of exported cards"), FareBotExport.entries(list))
        }
        guard let object = json as? [String: Any] else { throw CardImageError(L10n.words("a JSON value that is no card")) }
        if ProxmarkDump.isProxmark(object) { return (L10n.mark("a Proxmark3 dump"), [ProxmarkDump.entry(object)]) }
        if FareBotExport.isExport(object) {
            let cards = object["cards"] as? [Any] ?? []
            try checkCount(cards.count)
            return (FareBotExport.format(object), FareBotExport.entries(cards))
        }
        if FareBotExport.isCard(object) { return (L10n.mark("a FareBot card export"), [FareBotExport.entry(object)]) }
        if MetrodroidDump.isMetrodroid(object) { return (L10n.mark("a Metrodroid export"), MetrodroidDump.entries(object)) }
        if object["format"] == nil, object["tagId"] != nil { return (L10n.mark("a Metrodroid export"), MetrodroidDump.entries(object)) }
        return (L10n.mark("a card image"), [try cardImage(data)])
    }

    private static func cardImage(_ data: Data) throws -> Entry {
        let image: CardImage
        do {
            image = try JSONDecoder().decode(CardImage.self, from: data)
        } catch {
            throw CardImageError(L10n.words("not a card image: %1$s (docs/card-image.md)", CardImage.shape.problem(error, in: data)))
        }
        guard image.format == CardImage.currentFormat else {
            throw CardImageError(L10n.words("format %1$s is not %2$s", .init(image.format), .init(CardImage.currentFormat)))
        }
        let cards = [image.felica != nil, image.iso7816 != nil, image.mifareClassic != nil, image.mifareUltralight != nil].filter { $0 }.count
        guard cards == 1 else {
            throw CardImageError(L10n.words("a card image holds exactly one of felica, iso7816, mifareClassic and mifareUltralight"))
        }
        try image.validate()
        return .card(image)
    }

    /// The card `index` (1-based) names, or the file's only card. A file of several cards without
    /// an index, an index past them, or a card transit cannot read is an error naming the file.
    public func card(index: Int?) throws -> CardImage {
        let position: Int
        guard !entries.isEmpty else { throw CardImageError(L10n.words("%1$s holds no card", .init(path))) }
        if let index {
            guard index >= 1, index <= entries.count else {
                throw CardImageError(L10n.wordsn("%1$s holds %2$s card: there is no card %3$s", "%1$s holds %2$s cards: there is no card %3$s", entries.count,
                                                 .init(path), .init(String(entries.count)), .init(String(index))))
            }
            position = index - 1
        } else {
            guard entries.count == 1 else {
                throw CardImageError(L10n.words("%1$s holds %2$s cards (%3$s): choose one with --index N", .init(path), .init(String(entries.count)), summaryWords))
            }
            position = 0
        }
        // TRANSLATORS: which card of a file of several ("samples/cards.zip, card 2").
        let which = entries.count > 1 ? L10n.words("%1$s, card %2$s", .init(path), .init(String(position + 1))) : .init(path)
        switch entries[position] {
        case .card(let image): return image
        case .otherTechnology(let what):
            throw CardFileTechnologyError(words: L10n.words("%1$s: %2$s: no transit family reads this technology", which, .init(what)))
        case .unusable(let why):
            throw CardImageError(entries.count > 1 ? L10n.words("%1$s: %2$s, card %3$s: %4$s", .init(path), Self.formatWords(format), .init(String(position + 1)), why)
                : L10n.words("%1$s: %2$s: %3$s", .init(path), Self.formatWords(format), why))
        }
    }

    /// The cards in a line: "1 FeliCa 012E4CD8A1B2C3D4, 2 MIFARE Classic card, 3 ISO 14443-4 08A1B2C3".
    public var summary: String { summaryWords.english }

    /// `summary` in English and in the chosen language.
    public var summaryWords: L10n.Words {
        entries.enumerated().map { i, e in
            switch e {
            case .card(let image): return L10n.Words("\(i + 1) " + Self.name(image))
            case .otherTechnology(let what): return L10n.Words("\(i + 1) \(what)")
            case .unusable: return L10n.words("%1$s unreadable", .init(String(i + 1)))
            }
        }.joined(separator: .init(", "))
    }

    /// A file's format as its messages name it ("a Flipper Zero NFC file"), marked where it is
    /// named (`L10n.mark`), and in the chosen language.
    static func formatWords(_ format: String) -> L10n.Words { L10n.Words(english: format, said: L10n.translated(format)) }

    /// A card's technology and identifier, as the summary names it.
    private static func name(_ image: CardImage) -> String {
        if let f = image.felica { return "FeliCa \(f.idm)" }
        if let c = image.mifareClassic { return "MIFARE Classic \(c.type) \(c.uid)" }
        if let u = image.mifareUltralight { return "MIFARE \(u.type ?? "Ultralight") \(u.uid)" }
        return "ISO 14443-4 \(image.iso7816?.uid ?? "")"
    }
}

extension CardFile.Entry {
    /// The card `make` builds, checked as the emulators need it; or what is wrong with it.
    init(_ make: () throws -> CardImage) {
        do {
            let image = try make()
            // A MIFARE dump's parser checked its layout too (MifareLayout.check); the emulators check
            // every image as they need it.
            if let c = image.mifareClassic { try MifareLayout.check(c) }
            if let u = image.mifareUltralight { try MifareLayout.check(u) }
            try image.validate()
            self = .card(image)
        } catch let e as CardImageError {
            self = .unusable(e.words)
        } catch {
            self = .unusable(L10n.Words(error: error))
        }
    }
}

/// A card of a technology no transit family reads (a MIFARE Classic in a Metrodroid export): not a
/// problem of the file, and not `tagNotSupported` by guess either: the file says so.
public struct CardFileTechnologyError: SaidError {
    public let words: L10n.Words
}

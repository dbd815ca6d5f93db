import FileFormats
import Foundation
import TransitModel

/// The XML exports Metrodroid (to 2.9.37) and FareBot (to 2016, and its current write-only
/// exporter) wrote: a `<card type="N" id="HEX" scanned_at="ms">`, or several in `<cards>`. Byte
/// contents are base64 (the `id` attribute and China balances hex). Facts from Metrodroid's
/// XmlCardFormat and its old card/** classes, and FareBot's card/** simple-xml classes:
/// - type 4 FeliCa: `<pmm>`, `<system code="DEC">` → `<service code="DEC">` → `<block address="DEC">`,
///   with or without the `<systems>`, `<services>`, `<blocks>` wrappers;
/// - type 5 ISO 7816: `<application type="…">` with `application-name` (the AID) and
///   `application-data` (the FCI), `<file name="SELECTOR">` (`<data>`, `<record index="N">`),
///   `<sfi-file sfi="N">`, and the type's `<balance>` (decimal), `<balances>`, `<purses>`, `<histories>`;
/// - type 0 MIFARE Classic: `<sector index="N">` with `<blocks><block index="N"><data>` (the index
///   inside the sector), the `key` that opened it and its `keytype` (KeyA, the default, or KeyB),
///   or `unauthorized="true"`, or `invalid="true"` (old ClassicSector, UnauthorizedClassicSector,
///   InvalidClassicSector, ClassicBlock; Metrodroid's XmlCardFormat reads them so);
/// - type 1 MIFARE Ultralight: `<page index="N"><data>`, or `unauthorized="true"`, and the
///   `cardModel` attribute (UltralightCard, UltralightPage);
/// - type 3 CEPAS keeps values read from the card, not its answers; 2 DESFire, 6/8 NFC-V, 9 MIFARE
///   Plus are technologies no family reads.
enum ExportXML {
    /// True when the first byte that is not white space opens a tag.
    static func isXML(_ data: Data) -> Bool {
        data.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) } == UInt8(ascii: "<")
    }

    static func entries(_ data: Data) throws -> [CardFile.Entry] {
        let root: XMLTree.Element
        do { root = try XMLTree.parse(data) } catch let e as FileFormatError { throw CardImageError(e.words) }
        switch root.name.lowercased() {
        case "card": return [entry(root)]
        case "cards":
            let cards = root.children("card")
            try CardFile.checkCount(cards.count)
            return cards.map(entry)
        default: throw CardImageError(L10n.words("an XML file whose root is <%1$s>, not a Metrodroid or FareBot <card> or <cards>", .init(CardImageError.quote(root.name))))
        }
    }

    private static func entry(_ card: XMLTree.Element) -> CardFile.Entry {
        switch card.attributes["type"].flatMap({ Int($0) }) {
        case 4: return CardFile.Entry { try felica(card) }
        case 5: return CardFile.Entry { try iso(card) }
        case 3: return .unusable(L10n.words("a CEPAS card in the old XML form, which keeps values read from the card, not its answers"))
        case 0: return CardFile.Entry { try classic(card) }
        case 1: return CardFile.Entry { try ultralight(card) }
        case 2: return .otherTechnology("MIFARE DESFire card")
        case 6, 8: return .otherTechnology("NFC-V (ISO 15693) card")
        case 9: return .otherTechnology("MIFARE Plus card")
        case let type: return .unusable(L10n.words("an XML card of type %1$s, which no version of Metrodroid or FareBot wrote for a transit card", .init(type.map(String.init) ?? "none")))
        }
    }

    private static func felica(_ card: XMLTree.Element) throws -> CardImage {
        guard let id = card.attributes["id"] else { throw CardImageError(L10n.words("a FeliCa <card> without its id (the IDm)")) }
        let systems = try card.descendants("system").map { s -> CardImageAssembler.System in
            guard let code = decimalCode(s.attributes["code"]) else { throw CardImageError(L10n.words("a <system> without a code")) }
            let services = try s.descendants("service").map { service -> CardImageAssembler.Service in
                guard let serviceCode = decimalCode(service.attributes["code"]) else { throw CardImageError(L10n.words("a <service> of system %1$s without a code", .init("\(code)"))) }
                var blocks = [Int: [UInt8]]()
                for block in service.descendants("block") {
                    guard let address = block.attributes["address"].flatMap({ Int($0) }) else { throw CardImageError(L10n.words("a <block> without an address")) }
                    blocks[address < 0 ? address & 0xFF : address] = try base64(block) // FareBot's addresses are signed bytes
                }
                return .init(code: serviceCode, blocks: blocks, locked: service.attributes["skipped"] == "true")
            }
            return .init(code: code, services: services)
        }
        return try CardImageAssembler.felica(idm: try HexText.bytes(id), pmm: try card.child("pmm").map(base64), systems: systems,
                                             description: "FeliCa card of an XML export")
    }

    private static func classic(_ card: XMLTree.Element) throws -> CardImage {
        let elements = card.descendants("sector")
        guard elements.count <= ExportMifare.maxSectors else {
            throw CardImageError(L10n.words("a MIFARE Classic <card> of %1$s sectors (a 4K, the largest, has %2$s)", .init("\(elements.count)"), .init("\(ExportMifare.maxSectors)")))
        }
        let sectors = try elements.map { s -> ExportMifare.Sector in
            guard let index = s.attributes["index"].flatMap({ Int($0) }) else { throw CardImageError(L10n.words("a MIFARE Classic <sector> without an index")) }
            guard s.attributes["unauthorized"] != "true", s.attributes["invalid"] != "true" else { return .init(index: index) }
            let entries = s.descendants("block")
            guard entries.count <= MifareLayout.blocksInSector(index) else {
                throw CardImageError(L10n.words("MIFARE Classic sector %1$s lists %2$s blocks, more than its %3$s", .init("\(index)"), .init("\(entries.count)"), .init("\(MifareLayout.blocksInSector(index))")))
            }
            var blocks = [Int: [UInt8]]()
            for (position, block) in entries.enumerated() {
                let n = block.attributes["index"].flatMap { Int($0) } ?? position
                guard blocks[n] == nil else { throw CardImageError(L10n.words("MIFARE Classic sector %1$s, block %2$s is listed twice", .init("\(index)"), .init("\(n)"))) }
                guard let data = block.child("data") else { throw CardImageError(L10n.words("MIFARE Classic sector %1$s, block %2$s has no <data>", .init("\(index)"), .init("\(n)"))) }
                blocks[n] = try ExportMifare.base64(data.trimmedText, L10n.words("MIFARE Classic sector %1$s, block %2$s", .init(String(index)), .init(String(n))))
            }
            let key = try s.attributes["key"].map { try ExportMifare.base64($0, L10n.words("MIFARE Classic sector %1$s: its key", .init(String(index)))) }
            let isB = s.attributes["keytype"] == "KeyB"
            return .init(index: index, blocks: blocks, keyA: isB ? nil : key, keyB: isB ? key : nil)
        }
        return try ExportMifare.classic(tagId: try card.attributes["id"].map(HexText.bytes), sectors: sectors,
                                        description: "MIFARE Classic card of an XML export")
    }

    private static func ultralight(_ card: XMLTree.Element) throws -> CardImage {
        let elements = card.descendants("page")
        guard elements.count <= MifareLayout.maxPages else {
            throw CardImageError(L10n.words("a MIFARE Ultralight <card> of %1$s pages (at most %2$s)", .init("\(elements.count)"), .init("\(MifareLayout.maxPages)")))
        }
        let pages = try elements.enumerated().map { position, page -> ExportMifare.Page in
            let index = page.attributes["index"].flatMap { Int($0) } ?? position
            guard page.attributes["unauthorized"] != "true" else { return .init(index: index) }
            guard let data = page.child("data") else { throw CardImageError(L10n.words("MIFARE Ultralight page %1$s has no <data>", .init("\(index)"))) }
            return .init(index: index, data: try ExportMifare.base64(data.trimmedText, L10n.words("MIFARE Ultralight page %1$s", .init(String(index)))))
        }
        return try ExportMifare.ultralight(tagId: try card.attributes["id"].map(HexText.bytes),
                                           type: ExportMifare.ultralightType(metrodroidModel: card.attributes["cardModel"]),
                                           pages: pages, description: "MIFARE Ultralight card of an XML export")
    }

    private static func iso(_ card: XMLTree.Element) throws -> CardImage {
        var apps = [CardImage.ApplicationImage]()
        for app in card.descendants("application") {
            let type = app.attributes["type"] ?? "generic"
            if type == "cepas" {
                apps.append(CardImageAssembler.cepas(purses: try indexed(app, "purse"), histories: try indexed(app, "history")))
                continue
            }
            guard let aid = try bytes(app, "application-name"), (5 ... 16).contains(aid.count) else { continue }
            var commands = [[UInt8]: [UInt8]]()
            if type == "tmoney" || type == "ksx6924", let text = app.child("balance")?.trimmedText, let balance = UInt32(text) {
                commands = CardImageAssembler.ksx6924Balance((0 ..< 4).map { UInt8(truncatingIfNeeded: balance >> (24 - 8 * $0)) })
            }
            if type == "china" {
                var balances = [Int: [UInt8]]()
                for b in app.descendants("balance") {
                    guard let idx = b.attributes["idx"].flatMap({ Int($0) }), let hex = b.child("data")?.trimmedText else { continue }
                    balances[idx] = try HexText.bytes(hex)
                }
                commands = CardImageAssembler.chinaBalances(balances)
            }
            apps.append(CardImageAssembler.application(name: type, aid: aid, fci: try bytes(app, "application-data"),
                                                       files: try files(app), commands: commands))
        }
        guard !apps.isEmpty else { throw CardImageError(L10n.words("an ISO 7816 <card> with no application transit can select")) }
        return CardImage(description: "ISO 7816 card of an XML export", iso7816: .init(uid: card.attributes["id"] ?? "", applications: apps))
    }

    /// `<file name="SELECTOR">` and `<sfi-file sfi="N"><file>…</file></sfi-file>` by short file identifier.
    private static func files(_ app: XMLTree.Element) throws -> [UInt8: CardImageAssembler.StoredFile] {
        var out = [UInt8: CardImageAssembler.StoredFile]()
        for sfiFile in app.descendants("sfi-file") {
            guard let sfi = sfiFile.attributes["sfi"].flatMap({ UInt8($0) }), (1 ... 30).contains(sfi), let file = sfiFile.child("file") else { continue }
            out[sfi] = try stored(file)
        }
        for file in app.descendants("file") {
            guard let name = file.attributes["name"], let sfi = CardImageAssembler.shortFileIdentifier(selector: name) else { continue }
            out[sfi] = try stored(file)
        }
        return out
    }

    private static func stored(_ file: XMLTree.Element) throws -> CardImageAssembler.StoredFile {
        var stored = CardImageAssembler.StoredFile(binary: try file.child("data").map(base64))
        for record in file.descendants("record") {
            guard let n = record.attributes["index"].flatMap({ Int($0) }) else { continue }
            stored.records[n] = try base64(record)
        }
        return stored
    }

    /// `<purse idx="N">` (or `id`) elements' base64 contents by number.
    private static func indexed(_ app: XMLTree.Element, _ name: String) throws -> [Int: [UInt8]] {
        var out = [Int: [UInt8]]()
        for e in app.descendants(name) {
            guard let n = (e.attributes["idx"] ?? e.attributes["id"]).flatMap({ Int($0) }) else { continue }
            out[n] = try base64(e)
        }
        return out
    }

    /// A child element's, or else an attribute's, base64 bytes.
    private static func bytes(_ e: XMLTree.Element, _ name: String) throws -> [UInt8]? {
        if let child = e.child(name) { return try base64(child) }
        return try e.attributes[name].map(Base64Text.bytes)
    }

    private static func base64(_ e: XMLTree.Element) throws -> [UInt8] { try Base64Text.bytes(e.trimmedText) }

    private static func decimalCode(_ text: String?) -> UInt16? { text.flatMap { Int($0) }.flatMap { (0 ... 0xFFFF).contains($0) ? UInt16($0) : nil } }
}

/// Base64 text (standard alphabet, padding optional, white space ignored) to bytes.
enum Base64Text {
    static func bytes(_ text: String) throws -> [UInt8] {
        let compact = text.filter { !$0.isWhitespace }
        let padded = compact + String(repeating: "=", count: (4 - compact.count % 4) % 4)
        guard let data = Data(base64Encoded: padded) else { throw CardImageError(L10n.words("bad base64 %1$s", .init(CardImageError.quote(text)))) }
        return [UInt8](data)
    }
}

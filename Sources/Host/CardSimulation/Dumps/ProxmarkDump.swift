import CardProtocol
import TransitModel

/// Proxmark3 JSON dumps (client/src/fileutils.c, `saveFileJSON`/`prepareJSON`): `"Created":
/// "proxmark3"` and a `"FileType"`; `"Card"` holds `UID`, `ATQA`, `SAK` as hex without spaces, and
/// `"blocks"` an object of block numbers ("0", "1"…) to hex. MIFARE Classic: `"mfcard"` (older
/// clients), `"mfc v2"` and `"mfc v3"` (which adds ATS and signature), blocks of 16 bytes; the
/// `"SectorKeys"` object repeats each trailer's keys and is not needed. MIFARE Ultralight and NTAG:
/// `"mfu"`, pages of 4 bytes, `Card.UID` of 7 bytes. Proxmark writes every block it dumped; a block
/// the object lacks is taken as unread, and the card's size is the smallest that holds the highest
/// block. ATQA is kept as Proxmark writes it.
enum ProxmarkDump {
    static let classicFileTypes: Set = ["mfcard", "mfc v2", "mfc v3"]

    static func isProxmark(_ object: [String: Any]) -> Bool {
        object["Created"] as? String == "proxmark3" || (object["FileType"] as? String).map { classicFileTypes.contains($0) || $0 == "mfu" } == true
    }

    /// The one card of the dump: a card image, or a card of a kind this parser does not take.
    static func entry(_ object: [String: Any]) -> CardFile.Entry {
        let fileType = object["FileType"] as? String ?? ""
        if classicFileTypes.contains(fileType) { return CardFile.Entry { try classic(object) } }
        if fileType == "mfu" { return CardFile.Entry { try ultralight(object) } }
        return .otherTechnology("a Proxmark3 dump of file type \(CardImageError.quote(fileType))")
    }

    static func classic(_ object: [String: Any]) throws -> CardImage {
        let numbered = try blocks(object, size: 16, limit: 256)
        guard let last = numbered.keys.max(), let (type, count) = MifareLayout.smallestClassicType(holding: last + 1) else {
            throw CardImageError(L10n.words("Proxmark3 dump without blocks"))
        }
        let blocks = (0 ..< count).map { numbered[$0] ?? MifareLayout.unreadBlock }
        let card = object["Card"] as? [String: Any] ?? [:]
        let uid: String
        if let given = card["UID"] {
            uid = try hex(given, L10n.Words("Card.UID"))
            guard [8, 14].contains(uid.utf8.count) else { throw CardImageError(L10n.words("%1$s: a UID of %2$s bytes (4 or 7 expected)", L10n.words("Proxmark3 dump"), .init("\(uid.utf8.count / 2)"))) }
        } else {
            let block0 = try HexText.bytes(blocks[0] == MifareLayout.unreadBlock ? "" : blocks[0]).map { Optional($0) }
            guard let derived = MifareLayout.uid(block0: block0) else { throw CardImageError(L10n.words("Proxmark3 dump with neither Card.UID nor block 0")) }
            uid = HexFormat.string(derived)
        }
        let classic = CardImage.ClassicImage(uid: uid, type: type, atqa: try card["ATQA"].map { try hex($0, L10n.Words("Card.ATQA")) },
                                             sak: try card["SAK"].map { try hex($0, L10n.Words("Card.SAK")) }, blocks: blocks)
        try MifareLayout.check(classic)
        return CardImage(description: "Proxmark3 MIFARE Classic dump", mifareClassic: classic)
    }

    static func ultralight(_ object: [String: Any]) throws -> CardImage {
        let numbered = try blocks(object, size: 4, limit: MifareLayout.maxPages)
        // Pages are the card's memory from page 0: a missing one would shift the rest.
        let pages = try (0 ..< numbered.count).map { n -> String in
            guard let page = numbered[n] else { throw CardImageError(L10n.words("%1$s: page %2$s is missing", L10n.words("Proxmark3 dump"), .init("\(n)"))) }
            return page
        }
        let card = object["Card"] as? [String: Any] ?? [:]
        guard let given = card["UID"] else { throw CardImageError(L10n.words("Proxmark3 Ultralight dump without Card.UID")) }
        let image = CardImage.UltralightImage(uid: try hex(given, L10n.Words("Card.UID")), pages: pages)
        try MifareLayout.check(image)
        return CardImage(description: "Proxmark3 MIFARE Ultralight dump", mifareUltralight: image)
    }

    /// The `blocks` object as numbers to hex of `size` bytes, numbers below `limit`.
    private static func blocks(_ object: [String: Any], size: Int, limit: Int) throws -> [Int: String] {
        guard let raw = object["blocks"] as? [String: Any] else { throw CardImageError(L10n.words("Proxmark3 dump without a \"blocks\" object")) }
        guard raw.count <= limit else { throw CardImageError(L10n.words("Proxmark3 dump of %1$s blocks (at most %2$s)", .init("\(raw.count)"), .init("\(limit)"))) }
        var out = [Int: String]()
        for (key, value) in raw {
            guard let n = DumpLines.number(ArraySlice(key.utf8)) else { throw CardImageError(L10n.words("%1$s: block number %2$s", L10n.words("Proxmark3 dump"), .init(CardImageError.quote(key)))) }
            guard n < limit else { throw CardImageError(L10n.words("%1$s: block %2$s is past the card's end (%3$s blocks at most)", L10n.words("Proxmark3 dump"), .init("\(n)"), .init("\(limit)"))) }
            let text = try hex(value, L10n.words("block %1$s", .init(String(n))))
            guard text.utf8.count == size * 2 else { throw CardImageError(L10n.words("%1$s: block %2$s is %3$s bytes, not %4$s", L10n.words("Proxmark3 dump"), .init("\(n)"), .init("\(text.utf8.count / 2)"), .init("\(size)"))) }
            out[n] = text
        }
        return out
    }

    /// A hex string value, uppercase; an error naming `what` for anything else.
    private static func hex(_ value: Any, _ what: L10n.Words) throws -> String {
        guard let s = value as? String, let bytes = HexFormat.bytes(s) else {
            throw CardImageError(L10n.words("%1$s: %2$s is not hex: %3$s", L10n.words("Proxmark3 dump"), what, .init(CardImageError.quote(String(describing: value)))))
        }
        return HexFormat.string(bytes)
    }
}

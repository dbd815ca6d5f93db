import CardProtocol
import Foundation
import TransitModel

/// MIFARE Classic and Ultralight cards of the peers' exports — Metrodroid's JSON, FareBot's JSON
/// and the XML both once wrote — made into the same card image a Flipper, Proxmark3 or MCT dump
/// of the card gives (issue 42). Each parser reduces its format to sectors or pages; this builds,
/// checks and bounds the image once.
///
/// Classic: a sector the app could not open (Metrodroid `isUnauthorized` or `error`, FareBot
/// `unauthorized` or `invalid`) is unread, "??" in each byte: locked for the emulator, as a
/// Flipper dump's. A sector's blocks are numbered from its first (FareBot and Metrodroid's
/// readers number them so: ClassicCardReader.kt, ClassicTagReader.java); a block a sector does
/// not list is unread. The keys an export keeps for a sector (Metrodroid `keyA`, `keyB`; the old
/// XML's `key` and `keytype`) go where a Flipper or MCT dump keeps them, in the sector's trailer
/// (key A bytes 0–5, key B bytes 10–15, MF1S50YYX datasheet, "Sector trailer"), so they open
/// that dump's sectors as any dump's trailer keys do (EmulatedChannel.trailerKeys); a trailer
/// without them stays as the app read it (key A as the card answers it, zeros). The card's type is
/// the smallest that holds the highest sector listed (the apps list every sector of the card).
/// Keys are secrets: no message here quotes a key, a trailer or any block's bytes.
///
/// Ultralight: pages by number from 0; an unauthorized page, or one a list skips, is unread
/// ("??"), and the image ends at the last page read, as a Flipper dump's ends at `Pages read`.
enum ExportMifare {
    /// One sector as an export keeps it.
    struct Sector {
        var index: Int
        /// Blocks read, by their number inside the sector (0 first); nil for a sector not opened.
        var blocks: [Int: [UInt8]]?
        var keyA: [UInt8]?
        var keyB: [UInt8]?
    }

    /// One page as an export keeps it; nil data for a page not read.
    struct Page {
        var index: Int
        var data: [UInt8]?
    }

    /// The most sectors a Classic card has: a 4K's 40 (MF1S70YYX datasheet, "Memory organization").
    static let maxSectors = 40

    static func classic(tagId: [UInt8]?, sectors: [Sector], description: String) throws -> CardImage {
        guard sectors.count <= maxSectors else {
            throw CardImageError(L10n.words("a MIFARE Classic card of %1$s sectors (a 4K, the largest, has %2$s)", .init("\(sectors.count)"), .init("\(maxSectors)")))
        }
        var bySector = [Int: Sector]()
        for s in sectors {
            guard (0 ..< maxSectors).contains(s.index) else {
                throw CardImageError(L10n.words("MIFARE Classic sector %1$s is past a 4K's last sector (0 to %2$s)", .init("\(s.index)"), .init("\(maxSectors - 1)")))
            }
            guard bySector[s.index] == nil else { throw CardImageError(L10n.words("MIFARE Classic sector %1$s is listed twice", .init("\(s.index)"))) }
            let size = MifareLayout.blocksInSector(s.index)
            for (n, block) in s.blocks ?? [:] {
                guard (0 ..< size).contains(n) else {
                    throw CardImageError(L10n.words("MIFARE Classic sector %1$s: block %2$s is past the sector's %3$s blocks", .init("\(s.index)"), .init("\(n)"), .init("\(size)")))
                }
                guard block.count == 16 else {
                    throw CardImageError(L10n.words("MIFARE Classic sector %1$s, block %2$s: %3$s bytes, not 16", .init("\(s.index)"), .init("\(n)"), .init("\(block.count)")))
                }
            }
            for (key, name) in [(s.keyA, "A"), (s.keyB, "B")] {
                if let key, key.count != 6 { throw CardImageError(L10n.words("MIFARE Classic sector %1$s: key %2$s of %3$s bytes, not 6", .init("\(s.index)"), .init("\(name)"), .init("\(key.count)"))) }
            }
            bySector[s.index] = s
        }
        guard let highest = bySector.keys.max(),
              let (type, count) = MifareLayout.smallestClassicType(holding: MifareLayout.firstBlock(ofSector: highest) + MifareLayout.blocksInSector(highest))
        else { throw CardImageError(L10n.words("a MIFARE Classic card without sectors")) }
        var blocks = Array(repeating: [UInt8?](repeating: nil, count: 16), count: count)
        for (index, s) in bySector {
            guard let read = s.blocks, !read.isEmpty || s.keyA != nil || s.keyB != nil else { continue }
            let first = MifareLayout.firstBlock(ofSector: index), trailer = first + MifareLayout.blocksInSector(index) - 1
            for (n, block) in read { blocks[first + n] = block.map { Optional($0) } }
            if let a = s.keyA { blocks[trailer].replaceSubrange(0 ..< 6, with: a.map { Optional($0) }) }
            if let b = s.keyB { blocks[trailer].replaceSubrange(10 ..< 16, with: b.map { Optional($0) }) }
        }
        // The tag ID is the UID; an export without one of 4 or 7 bytes has it in block 0.
        let uid: [UInt8]
        if let tagId, tagId.count == 4 || tagId.count == 7 {
            uid = tagId
        } else if let derived = MifareLayout.uid(block0: blocks[0]) {
            uid = derived
        } else {
            throw CardImageError(L10n.words("a MIFARE Classic card with neither a tag ID of 4 or 7 bytes nor block 0"))
        }
        let image = CardImage.ClassicImage(uid: HexFormat.string(uid), type: type, blocks: blocks.map(MifareLayout.text))
        try MifareLayout.check(image)
        return CardImage(description: description, mifareClassic: image)
    }

    static func ultralight(tagId: [UInt8]?, type: String?, pages: [Page], description: String) throws -> CardImage {
        guard pages.count <= MifareLayout.maxPages else {
            throw CardImageError(L10n.words("a MIFARE Ultralight card of %1$s pages (at most %2$s)", .init("\(pages.count)"), .init("\(MifareLayout.maxPages)")))
        }
        var byIndex = [Int: [UInt8]]()
        var listed = Set<Int>()
        for p in pages {
            guard (0 ..< MifareLayout.maxPages).contains(p.index) else {
                throw CardImageError(L10n.words("MIFARE Ultralight page %1$s is past the largest card's end (%2$s pages)", .init("\(p.index)"), .init("\(MifareLayout.maxPages)")))
            }
            guard listed.insert(p.index).inserted else { throw CardImageError(L10n.words("MIFARE Ultralight page %1$s is listed twice", .init("\(p.index)"))) }
            if let data = p.data {
                guard data.count == 4 else { throw CardImageError(L10n.words("MIFARE Ultralight page %1$s: %2$s bytes, not 4", .init("\(p.index)"), .init("\(data.count)"))) }
                byIndex[p.index] = data
            }
        }
        guard let last = byIndex.keys.max() else { throw CardImageError(L10n.words("a MIFARE Ultralight card of which no page was read")) }
        let texts = (0 ... last).map { byIndex[$0].map { HexFormat.string($0) } ?? String(repeating: "??", count: 4) }
        // UID0–2 in page 0 (then BCC0), UID3–6 in page 1 (MF0ICU1 datasheet, "UID/serial number").
        let uid: [UInt8]
        if let tagId, tagId.count == 7 {
            uid = tagId
        } else if let p0 = byIndex[0], let p1 = byIndex[1] {
            uid = Array(p0.prefix(3)) + p1
        } else {
            throw CardImageError(L10n.words("a MIFARE Ultralight card with neither a tag ID of 7 bytes nor pages 0 and 1"))
        }
        let image = CardImage.UltralightImage(uid: HexFormat.string(uid), type: type, pages: texts)
        try MifareLayout.check(image)
        return CardImage(description: description, mifareUltralight: image)
    }

    /// The image's chip name for Metrodroid's `cardModel` (UltralightCard.kt `UltralightType`), in
    /// Flipper's words as the Flipper parser keeps them; nil for one it does not name.
    static func ultralightType(metrodroidModel: String?) -> String? {
        switch metrodroidModel {
        case "MF0ICU1": return "Ultralight"
        case "MF0ICU2": return "Ultralight C"
        case "EV1_MF0UL11": return "Ultralight 11"
        case "EV1_MF0UL21": return "Ultralight 21"
        case let name? where ["NTAG213", "NTAG215", "NTAG216"].contains(name): return name
        default: return nil
        }
    }

    // MARK: Bytes that may be secret

    /// Hex text of a block or key: its problem said without its bytes.
    static func hex(_ text: String, _ what: @autoclosure () -> L10n.Words) throws -> [UInt8] {
        if let bytes = HexFormat.bytes(text, ignoringSpaces: true) { return bytes }
        let digits = text.utf8.filter { $0 != UInt8(ascii: " ") }
        let odd = digits.count % 2 == 1 && digits.allSatisfy { MifareLayout.digit($0) != nil }
        throw CardImageError(odd ? L10n.words("%1$s is an odd number of hex digits", what()) : L10n.words("%1$s is not hex", what()))
    }

    /// Base64 text of a block or key: its problem said without its bytes.
    static func base64(_ text: String, _ what: @autoclosure () -> L10n.Words) throws -> [UInt8] {
        let compact = text.filter { !$0.isWhitespace }
        let padded = compact + String(repeating: "=", count: (4 - compact.count % 4) % 4)
        guard let data = Data(base64Encoded: padded) else { throw CardImageError(L10n.words("%1$s is not base64", what())) }
        return [UInt8](data)
    }
}

import CardProtocol
import TransitModel

/// What the MIFARE dump parsers share: the Classic memory map, block and page text as the card
/// image writes it ("??" for an unread byte), the UID a Classic block 0 carries, and the checks a
/// parsed image must pass before it becomes a card.
enum MifareLayout {
    /// Block counts by the image's type: Mini 5 sectors, 1K 16, 2K 32 (MIFARE Plus 2K in SL1, as
    /// Flipper's "Plus 2K"), 4K 40 (32 of 4 blocks, then 8 of 16): Flipper
    /// lib/nfc/protocols/mf_classic/mf_classic.c `mf_classic_features`; Proxmark3 client/src/cmdhfmf.c
    /// `MIFARE_*_MAXBLOCK`.
    static let classicBlockCounts: [(type: String, blocks: Int)] = [("Mini", 20), ("1K", 64), ("2K", 128), ("4K", 256)]

    static func classicType(blockCount: Int) -> String? { classicBlockCounts.first { $0.blocks == blockCount }?.type }
    static func blockCount(classicType: String) -> Int? { classicBlockCounts.first { $0.type == classicType }?.blocks }

    /// The smallest card type that holds `blocks` blocks (a dump that stops early), nil past a 4K.
    static func smallestClassicType(holding blocks: Int) -> (type: String, blocks: Int)? {
        classicBlockCounts.first { $0.blocks >= blocks }
    }

    /// Sectors 0–31 have 4 blocks, 32–39 have 16 (MIFARE Classic 4K data sheet, memory organisation).
    static func blocksInSector(_ sector: Int) -> Int { sector < 32 ? 4 : 16 }
    static func firstBlock(ofSector sector: Int) -> Int { sector < 32 ? sector * 4 : 128 + (sector - 32) * 16 }
    static func isTrailer(_ block: Int) -> Bool { block < 128 ? block % 4 == 3 : (block - 128) % 16 == 15 }

    /// The UID block 0 holds: 7 bytes when byte 0 is 04 (NXP) and bytes 8–9 are 04 00 or 44 00 (the
    /// ATQA of a double-size UID), else 4 (Metrodroid serializers/classic/MfcCardImporter.kt
    /// `block0ToUid`). Nil when block 0 is shorter or unread.
    static func uid(block0: [UInt8?]) -> [UInt8]? {
        guard block0.count == 16 else { return nil }
        let known = block0.compactMap { $0 }
        guard known.count == 16 else { return nil }
        let seven = known[0] == 0x04 && (known[8] == 0x04 || known[8] == 0x44) && known[9] == 0x00
        return Array(known.prefix(seven ? 7 : 4))
    }

    /// Bytes as image text: two hex digits a byte, "??" for one not read.
    static func text(_ bytes: [UInt8?]) -> String {
        bytes.map { $0.map { HexFormat.string([$0]) } ?? "??" }.joined()
    }

    static let unreadBlock = String(repeating: "??", count: 16)

    /// One byte of text: two hex digits, or "??" (nil inside). Anything else is not a byte.
    static func byte(_ hi: UInt8, _ lo: UInt8) -> UInt8?? {
        if hi == UInt8(ascii: "?"), lo == UInt8(ascii: "?") { return .some(nil) }
        guard let h = digit(hi), let l = digit(lo) else { return nil }
        return .some(h << 4 | l)
    }

    static func digit(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a") ... UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A") ... UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// The largest Ultralight-family image taken: 1,024 pages. The largest chip Flipper knows, the
    /// NTAG I2C Plus 2K, has 492 (lib/nfc/protocols/mf_ultralight/mf_ultralight.c).
    static let maxPages = 1024

    /// Checks a Classic image as the emulators need it: a known type, its block count, blocks of 16
    /// bytes (hex or "??"), a UID of 4 or 7 bytes.
    static func check(_ c: CardImage.ClassicImage) throws {
        guard let count = blockCount(classicType: c.type) else {
            throw CardImageError(L10n.words("MIFARE Classic type %1$s is none of Mini, 1K, 2K, 4K", .init(CardImageError.quote(c.type))))
        }
        guard c.blocks.count == count else { throw CardImageError(L10n.words("a MIFARE Classic %1$s has %2$s blocks, not %3$s", .init(c.type), .init(String(count)), .init(String(c.blocks.count)))) }
        for (i, block) in c.blocks.enumerated() where !isBytes(block, count: 16) {
            throw CardImageError(L10n.words("MIFARE Classic block %1$s is not 16 bytes of hex or ??: %2$s", .init(String(i)), .init(CardImageError.quote(block))))
        }
        let uid = try HexText.bytes(c.uid)
        guard uid.count == 4 || uid.count == 7 else { throw CardImageError(L10n.words("a MIFARE Classic UID of %1$s bytes (4 or 7 expected)", .init(String(uid.count)))) }
    }

    /// Checks an Ultralight image: a 7-byte UID, 1 to `maxPages` pages of 4 bytes (hex or "??").
    static func check(_ u: CardImage.UltralightImage) throws {
        let uid = try HexText.bytes(u.uid)
        guard uid.count == 7 else { throw CardImageError(L10n.words("a MIFARE Ultralight UID of %1$s bytes (7 expected)", .init(String(uid.count)))) }
        guard !u.pages.isEmpty, u.pages.count <= maxPages else {
            throw CardImageError(L10n.words("a MIFARE Ultralight image of %1$s pages (1 to %2$s)", .init(String(u.pages.count)), .init(String(maxPages))))
        }
        for (i, page) in u.pages.enumerated() where !isBytes(page, count: 4) {
            throw CardImageError(L10n.words("MIFARE Ultralight page %1$s is not 4 bytes of hex or ??: %2$s", .init(String(i)), .init(CardImageError.quote(page))))
        }
    }

    private static func isBytes(_ s: String, count: Int) -> Bool {
        let u = Array(s.utf8)
        guard u.count == count * 2 else { return false }
        return stride(from: 0, to: u.count, by: 2).allSatisfy { byte(u[$0], u[$0 + 1]) != nil }
    }
}

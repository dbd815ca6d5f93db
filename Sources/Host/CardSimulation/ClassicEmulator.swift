import TransitModel
/// A MIFARE Classic card answered from a card image, as the card itself behaves behind a reader:
/// one sector open at a time (the one the last successful authentication opened), reads only
/// inside it, nothing ever written. Key A reads back as zeros from a trailer, as the card hides it
/// (NXP MF1S50YYX datasheet, "Sector trailer": key A is never readable, reading it gives
/// zeros; key B and the access bits are answered as the image stores them). A byte the image does not know (`??`) makes its block
/// unreadable, and a key of unknown bytes opens nothing.
public struct ClassicEmulator {
    /// The two keys of a sector, by the code General Authenticate names them with (PC/SC Part 3,
    /// 3.2.2.1.6: 60 key A, 61 key B).
    public enum KeyType: UInt8, Sendable {
        case a = 0x60
        case b = 0x61
    }

    /// The card's layout: 1K, 4K, Mini, or a MIFARE Plus 2K in security level 1.
    public enum Layout: String, CaseIterable, Sendable {
        case mini = "Mini", classic1K = "1K", plus2K = "2K", classic4K = "4K"

        /// Sectors of 4 blocks, then sectors of 16 (4K only): NXP MF1S70YYX datasheet, "Memory organization".
        var sectorSizes: [Int] {
            switch self {
            case .mini: return Array(repeating: 4, count: 5)
            case .classic1K: return Array(repeating: 4, count: 16)
            case .plus2K: return Array(repeating: 4, count: 32)
            case .classic4K: return Array(repeating: 4, count: 32) + Array(repeating: 16, count: 8)
            }
        }

        /// The card name bytes of the PC/SC Part 3 storage-card ATR (Part 3, 3.1.3.2.3; Mini 00 26
        /// and MIFARE Plus SL1 2K 00 36 from the Part 3 supplement's card name list).
        var cardName: [UInt8] {
            switch self {
            case .mini: return [0x00, 0x26]
            case .classic1K: return [0x00, 0x01]
            case .plus2K: return [0x00, 0x36]
            case .classic4K: return [0x00, 0x02]
            }
        }
    }

    /// The card's layout.
    public let layout: Layout
    /// The UID (4 or 7 bytes).
    public let uid: [UInt8]
    /// Each block, `nil` standing for a byte the image does not know.
    private let blocks: [[UInt8?]]
    /// The first block of each sector, and one past the last block.
    private let sectorStarts: [Int]

    /// The sector the last authentication opened; nil before any, and after a failed one.
    public private(set) var openSector: Int?
    /// General Authenticate commands that reached the card, opened a sector or not.
    public private(set) var authentications = 0
    /// Authentications that opened nothing (wrong key, unknown key, block off the card).
    public private(set) var failedAuthentications = 0
    /// Read commands that reached the card (one a Read Binary, however many blocks it names).
    public private(set) var reads = 0

    public init(_ image: CardImage.ClassicImage) throws {
        guard let layout = Layout(rawValue: image.type) ?? Layout.allCases.first(where: { $0.rawValue.lowercased() == image.type.lowercased() }) else {
            throw CardImageError(L10n.words("MIFARE Classic type %1$s is not 1K, 2K, 4K or Mini", .init(CardImageError.quote(image.type))))
        }
        self.layout = layout
        uid = try HexText.bytes(image.uid)
        guard uid.count == 4 || uid.count == 7 else { throw CardImageError(L10n.words("a MIFARE Classic UID is 4 or 7 bytes, not %1$s", .init(String(uid.count)))) }
        var starts = [0]
        for size in layout.sectorSizes { starts.append((starts.last ?? 0) + size) }
        sectorStarts = starts
        let expected = starts.last ?? 0
        guard image.blocks.count == expected else {
            throw CardImageError(L10n.words("a MIFARE Classic %1$s holds %2$s blocks, this image %3$s", .init(layout.rawValue), .init(String(expected)), .init(String(image.blocks.count))))
        }
        blocks = try image.blocks.enumerated().map { index, text in
            guard let bytes = MaskedHex.bytes(text), bytes.count == 16 else {
                throw CardImageError(L10n.words("MIFARE Classic block %1$s %2$s is not 32 hex digits (?? for an unread byte)", .init(String(index)), .init(CardImageError.quote(text))))
            }
            return bytes
        }
    }

    /// Sectors on the card.
    public var sectorCount: Int { sectorStarts.count - 1 }
    /// Blocks on the card.
    public var blockCount: Int { blocks.count }

    /// The sector holding `block`, or nil off the card.
    public func sector(ofBlock block: Int) -> Int? {
        guard block >= 0, block < blockCount else { return nil }
        return sectorStarts.lastIndex { $0 <= block }
    }

    /// The blocks of `sector` (its trailer last), or an empty range off the card.
    public func blocks(ofSector sector: Int) -> Range<Int> {
        guard sector >= 0, sector < sectorCount else { return 0 ..< 0 }
        return sectorStarts[sector] ..< sectorStarts[sector + 1]
    }

    /// True when `block` is its sector's trailer (keys and access bits).
    public func isTrailer(_ block: Int) -> Bool {
        guard let s = sector(ofBlock: block) else { return false }
        return blocks(ofSector: s).last == block
    }

    /// The card's three-pass authentication for the sector of `block` with `key`: opens it when
    /// the key equals the trailer's key of that type and all six bytes are known. Whatever the
    /// outcome, the sector open before is closed (the card leaves its authenticated state).
    @discardableResult
    public mutating func authenticate(block: Int, keyType: KeyType, key: [UInt8]) -> Bool {
        authentications += 1
        openSector = nil
        guard key.count == 6, let s = sector(ofBlock: block), let trailerIndex = blocks(ofSector: s).last else {
            failedAuthentications += 1
            return false
        }
        // Key A in trailer bytes 0–5, key B in 10–15 (MF1S50YYX datasheet, "Sector trailer").
        let stored = keyType == .a ? blocks[trailerIndex][0 ..< 6] : blocks[trailerIndex][10 ..< 16]
        guard stored.allSatisfy({ $0 != nil }), stored.map({ $0 ?? 0 }) == key else {
            failedAuthentications += 1
            return false
        }
        openSector = s
        return true
    }

    /// `count` blocks from `block`, all in the open sector and all known, or nil. A trailer
    /// answers key A as zeros.
    public mutating func read(block: Int, count: Int = 1) -> [UInt8]? {
        reads += 1
        guard count >= 1, count <= blockCount, let open = openSector else { return nil }
        let range = blocks(ofSector: open)
        guard range.contains(block), range.contains(block + count - 1) else { return nil }
        var out = [UInt8]()
        for index in block ..< block + count {
            var bytes = blocks[index]
            if index == range.last { for i in 0 ..< 6 { bytes[i] = 0x00 } }
            guard bytes.allSatisfy({ $0 != nil }) else { return nil }
            out += bytes.map { $0 ?? 0 }
        }
        return out
    }

    /// Leaves the authenticated state, as a card that is reset or halted does.
    public mutating func reset() { openSector = nil }
}

/// Hex text where "??" stands for an unknown byte (nil), as Flipper dumps write unread bytes.
enum MaskedHex {
    static func bytes(_ text: String) -> [UInt8?]? {
        let digits = Array(text.utf8.filter { $0 != UInt8(ascii: " ") })
        guard digits.count % 2 == 0 else { return nil }
        var out = [UInt8?]()
        out.reserveCapacity(digits.count / 2)
        var i = 0
        while i < digits.count {
            let pair = (digits[i], digits[i + 1])
            i += 2
            if pair == (UInt8(ascii: "?"), UInt8(ascii: "?")) { out.append(nil); continue }
            guard let hi = nibble(pair.0), let lo = nibble(pair.1) else { return nil }
            out.append(hi << 4 | lo)
        }
        return out
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a") ... UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A") ... UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

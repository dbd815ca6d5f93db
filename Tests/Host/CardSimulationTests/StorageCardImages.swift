import CardSimulation

/// Made-up MIFARE Classic and Ultralight cards for the storage-card tests, every byte chosen so a
/// test can say by hand what each read answers. The keys are invented (and the factory key
/// FFFFFFFFFFFF); no operator's key is here.
enum StorageCardImages {
    /// Sector 0: key A A1B2C3D4E5F6, key B 6F5E4D3C2B1A.
    static let sector0KeyA = "A1B2C3D4E5F6", sector0KeyB = "6F5E4D3C2B1A"
    /// Sector 1 (blocks 4–7): key A FFFFFFFFFFFF (the ACR122T manual's example), key B C0FFEE123456.
    static let sector1KeyB = "C0FFEE123456"
    /// Block 4, the block the ACR122T manual's examples read.
    static let block4 = "00112233445566778899AABBCCDDEEFF"
    /// Access bits FF 07 80 (transport configuration) and general purpose byte 69.
    static let access = "FF078069"

    /// A data block filled with its own number: block 5 is sixteen 05 bytes.
    static func filled(_ block: Int) -> String { String(repeating: hex(block), count: 16) }

    static func hex(_ n: Int) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[(n >> 4) & 0xF], digits[n & 0xF]])
    }

    /// A 1K card (16 sectors of 4 blocks). Sector 0 and 1 as above; sector 2 locked (every byte
    /// unread, as a dump without its keys); sector 4's key B unread (its trailer cannot be read
    /// whole); block 21 (sector 5) holds one unread byte; other sectors open with FFFFFFFFFFFF
    /// as both keys. Data blocks hold their own number, block 4 excepted.
    static func classic1K() -> CardImage {
        var blocks = [String]()
        for sector in 0 ..< 16 {
            for i in 0 ..< 3 { blocks.append(filled(sector * 4 + i)) }
            switch sector {
            case 0: blocks.append(sector0KeyA + access + sector0KeyB)
            case 1: blocks.append("FFFFFFFFFFFF" + access + sector1KeyB)
            case 4: blocks.append("FFFFFFFFFFFF" + access + "????????????")
            default: blocks.append("FFFFFFFFFFFF" + access + "FFFFFFFFFFFF")
            }
        }
        blocks[4] = block4
        for b in 8 ..< 12 { blocks[b] = String(repeating: "??", count: 16) }
        blocks[21] = "1515151515??15151515151515151515"
        return CardImage(mifareClassic: .init(uid: "A1B2C3D4", type: "1K", atqa: "0004", sak: "08", blocks: blocks))
    }

    /// A 4K card: 32 sectors of 4 blocks, then 8 of 16 (blocks 128–255); every key FFFFFFFFFFFF,
    /// data blocks filled with their number modulo 256.
    static func classic4K() -> CardImage {
        var blocks = [String]()
        for sector in 0 ..< 40 {
            let size = sector < 32 ? 4 : 16
            for _ in 0 ..< size - 1 { blocks.append(filled(blocks.count)) }
            blocks.append("FFFFFFFFFFFF" + access + "FFFFFFFFFFFF")
        }
        return CardImage(mifareClassic: .init(uid: "04A1B2C3D4E5F6", type: "4K", blocks: blocks))
    }

    /// A card of `type` with `blocks` blocks, all keys FFFFFFFFFFFF where a trailer would be.
    static func classic(type: String, blocks count: Int) -> CardImage {
        let blocks = (0 ..< count).map { $0 % 4 == 3 ? "FFFFFFFFFFFF" + access + "FFFFFFFFFFFF" : filled($0) }
        return CardImage(mifareClassic: .init(uid: "A1B2C3D4", type: type, blocks: blocks))
    }

    /// An Ultralight of 16 pages, page n holding four n bytes (page 4: 04 04 04 04), but page 15
    /// with an unread third byte.
    static func ultralight() -> CardImage {
        var pages = (0 ..< 16).map { String(repeating: hex($0), count: 4) }
        pages[15] = "0F0F??0F"
        return CardImage(mifareUltralight: .init(uid: "04A1B2C3D4E5F6", type: "Ultralight", pages: pages))
    }

    /// Hex text to bytes, for writing vectors as the manuals print them.
    static func bytes(_ text: String) -> [UInt8] {
        let digits = Array(text.utf8.filter { $0 != UInt8(ascii: " ") })
        return stride(from: 0, to: digits.count - 1, by: 2).compactMap { UInt8(String(decoding: digits[$0 ... $0 + 1], as: UTF8.self), radix: 16) }
    }
}

import CardProtocol
import TransitModel

/// MIFARE Classic Tool (MCT) text dumps, as Metrodroid reads them (serializers/classic/
/// MctCardImporter.kt): `+Sector: N`, then the sector's blocks, one a line, 32 hex digits each
/// (4 blocks in sectors 0–31, 16 in 32–39). `-` stands for a digit MCT could not read: a byte with
/// any `-` is unread ("??"), a line of 32 `-` an unread block, and a trailer that starts (ends)
/// with `-` hides key A (B). Sectors the file does not list are unread. The card's type is the
/// smallest of 1K, 2K, 4K that holds the highest sector (MCT names no type; Metrodroid does the
/// same, so a Mini's 5 sectors read as a 1K with 11 unread sectors). The UID comes from block 0
/// (MifareLayout.uid).
enum MCTDump {
    /// The first line that is not empty starts `+Sector:`.
    static func isMCT(_ data: [UInt8]) -> Bool {
        let start = data.firstIndex { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } ?? data.endIndex
        return data[start...].starts(with: "+Sector:".utf8)
    }

    static func parse(_ text: String) throws -> CardImage {
        var sectors = [Int: [String]]()
        var current: Int?
        for line in DumpLines.of(text) {
            if line.starts(with: "+Sector:".utf8) {
                guard let n = DumpLines.number(DumpLines.trimmed(line.dropFirst(8))), n < 40 else {
                    throw CardImageError(L10n.words("%1$s: %2$s names no sector 0–39", L10n.words("MCT dump"), .init(CardImageError.quote(DumpLines.string(line)))))
                }
                guard sectors[n] == nil else { throw CardImageError(L10n.words("%1$s: sector %2$s is listed twice", L10n.words("MCT dump"), .init("\(n)"))) }
                if let current { try checkComplete(current, sectors[current] ?? []) }
                sectors[n] = []
                current = n
                continue
            }
            guard let current else { throw CardImageError(L10n.words("%1$s: a line before the first `+Sector:`", L10n.words("MCT dump"))) }
            guard sectors[current, default: []].count < MifareLayout.blocksInSector(current) else {
                throw CardImageError(L10n.words("%1$s: sector %2$s has more than %3$s blocks", L10n.words("MCT dump"), .init("\(current)"), .init("\(MifareLayout.blocksInSector(current))")))
            }
            sectors[current, default: []].append(try block(line, sector: current))
        }
        if let current { try checkComplete(current, sectors[current] ?? []) }
        guard let highest = sectors.keys.max() else { throw CardImageError(L10n.words("MCT dump without sectors")) }
        let (type, count) = highest < 16 ? ("1K", 64) : highest < 32 ? ("2K", 128) : ("4K", 256)
        var blocks = Array(repeating: MifareLayout.unreadBlock, count: count)
        for (sector, lines) in sectors {
            for (i, b) in lines.enumerated() { blocks[MifareLayout.firstBlock(ofSector: sector) + i] = b }
        }
        let block0 = Array(blocks[0].utf8)
        let bytes0: [UInt8?] = stride(from: 0, to: block0.count, by: 2).map { MifareLayout.byte(block0[$0], block0[$0 + 1]) ?? nil }
        guard let uid = MifareLayout.uid(block0: bytes0) else { throw CardImageError(L10n.words("%1$s: block 0 is not read, so the UID is unknown", L10n.words("MCT dump"))) }
        let classic = CardImage.ClassicImage(uid: HexFormat.string(uid), type: type, blocks: blocks)
        try MifareLayout.check(classic)
        return CardImage(description: "MIFARE Classic Tool dump", mifareClassic: classic)
    }

    private static func checkComplete(_ sector: Int, _ lines: [String]) throws {
        guard lines.count == MifareLayout.blocksInSector(sector) else {
            throw CardImageError(L10n.words("%1$s: sector %2$s has %3$s blocks, not %4$s", L10n.words("MCT dump"), .init("\(sector)"), .init("\(lines.count)"), .init("\(MifareLayout.blocksInSector(sector))")))
        }
    }

    /// One block line as image text.
    private static func block(_ line: DumpLines.Line, sector: Int) throws -> String {
        let u = Array(line)
        guard u.count == 32 else {
            throw CardImageError(L10n.words("%1$s: a block of sector %2$s is %3$s characters, not 32: %4$s", L10n.words("MCT dump"), .init("\(sector)"), .init("\(u.count)"), .init(CardImageError.quote(DumpLines.string(line)))))
        }
        var bytes = [UInt8?]()
        for i in stride(from: 0, to: 32, by: 2) {
            if u[i] == UInt8(ascii: "-") || u[i + 1] == UInt8(ascii: "-") {
                guard u[i] == UInt8(ascii: "-") || MifareLayout.digit(u[i]) != nil, u[i + 1] == UInt8(ascii: "-") || MifareLayout.digit(u[i + 1]) != nil else {
                    throw CardImageError(L10n.words("%1$s: bad hex in sector %2$s: %3$s", L10n.words("MCT dump"), .init("\(sector)"), .init(CardImageError.quote(DumpLines.string(line)))))
                }
                bytes.append(nil)
            } else if let h = MifareLayout.digit(u[i]), let l = MifareLayout.digit(u[i + 1]) {
                bytes.append(h << 4 | l)
            } else {
                throw CardImageError(L10n.words("%1$s: bad hex in sector %2$s: %3$s", L10n.words("MCT dump"), .init("\(sector)"), .init(CardImageError.quote(DumpLines.string(line)))))
            }
        }
        return MifareLayout.text(bytes)
    }
}

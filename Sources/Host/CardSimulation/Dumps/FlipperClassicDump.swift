import CardProtocol
import TransitModel

/// Flipper Zero "NFC device" files of MIFARE Classic cards (`Device type: Mifare Classic`), as the
/// firmware writes them (documentation/file_formats/NfcFileFormats.md; lib/nfc/protocols/mf_classic/
/// mf_classic.c): `Mifare Classic type: MINI|1K|Plus 2K|4K`, `Data format version: 2`, then
/// `Block N: ` and 16 space-separated bytes, each `??` when the Flipper did not read it (in a
/// trailer: key A bytes 0–5, access bits 6–9, key B 10–15, each part known or not). A block the
/// file does not list is unread. File versions 2–4; version 2 wrote the ATQA least significant byte
/// first, versions 3 and 4 most significant first (NfcFileFormats.md, "Version differences"): the
/// image keeps it most significant first. Data format 1 (key masks, no `??`) is refused.
enum FlipperClassicDump {
    static func parse(_ text: String) throws -> CardImage {
        var version: Int?, uid: [UInt8?]?, atqa: [UInt8?]?, sak: [UInt8?]?
        var typeName: String?, dataFormat: Int?
        var blocks = [String]()
        for line in DumpLines.of(text) where line.first != UInt8(ascii: "#") {
            guard let (key, value) = DumpLines.keyValue(line) else {
                throw CardImageError(L10n.words("%1$s: a line that is no `key: value`: %2$s", L10n.words("Flipper Classic dump"), .init(CardImageError.quote(DumpLines.string(line)))))
            }
            switch DumpLines.string(key) {
            case "Version": version = DumpLines.number(value)
            case "UID": uid = DumpLines.bytes(value)
            case "ATQA": atqa = DumpLines.bytes(value)
            case "SAK": sak = DumpLines.bytes(value)
            case "Mifare Classic type": typeName = DumpLines.string(value)
            case "Data format version": dataFormat = DumpLines.number(value)
            case let k where k.hasPrefix("Block "):
                if blocks.isEmpty {
                    // The type line comes before the blocks: the card's size is known here.
                    guard let typeName else { throw CardImageError(L10n.words("%1$s: blocks before the `Mifare Classic type` line", L10n.words("Flipper Classic dump"))) }
                    guard let type = imageType(typeName), let count = MifareLayout.blockCount(classicType: type) else {
                        throw CardImageError(L10n.words("%1$s: unknown Mifare Classic type %2$s (MINI, 1K, Plus 2K or 4K)", L10n.words("Flipper Classic dump"), .init(CardImageError.quote(typeName))))
                    }
                    blocks = Array(repeating: "", count: count)
                }
                guard let n = DumpLines.number(key.dropFirst(6)) else {
                    throw CardImageError(L10n.words("%1$s: unreadable block number in %2$s", L10n.words("Flipper Classic dump"), .init(CardImageError.quote(DumpLines.string(line)))))
                }
                guard n < blocks.count else {
                    throw CardImageError(L10n.words("%1$s: block %2$s is past the card's end (%3$s blocks)", L10n.words("Flipper Classic dump"), .init("\(n)"), .init("\(blocks.count)")))
                }
                guard blocks[n].isEmpty else { throw CardImageError(L10n.words("%1$s: block %2$s is listed twice", L10n.words("Flipper Classic dump"), .init("\(n)"))) }
                guard let bytes = DumpLines.bytes(value), bytes.count == 16 else {
                    throw CardImageError(L10n.words("%1$s: block %2$s is not 16 bytes of hex or ??: %3$s", L10n.words("Flipper Classic dump"), .init("\(n)"), .init(CardImageError.quote(DumpLines.string(value)))))
                }
                blocks[n] = MifareLayout.text(bytes)
            default: continue
            }
        }
        guard let version, (2 ... 4).contains(version) else {
            throw CardImageError(L10n.words("%1$s: file version %2$s (2, 3 or 4 read)", L10n.words("Flipper Classic dump"), version.map { L10n.Words(String($0)) } ?? L10n.words("missing")))
        }
        guard let dataFormat, dataFormat >= 2 else {
            throw CardImageError(L10n.words("%1$s: data format version %2$s (2 read; 1 kept key masks)", L10n.words("Flipper Classic dump"),
                                            dataFormat.map { L10n.Words(String($0)) } ?? L10n.words("missing")))
        }
        guard let typeName, let type = imageType(typeName) else {
            throw CardImageError(L10n.words("%1$s: no known `Mifare Classic type` (MINI, 1K, Plus 2K or 4K)", L10n.words("Flipper Classic dump")))
        }
        let uidBytes = uid?.compactMap { $0 } ?? []
        guard uidBytes.count == uid?.count, uidBytes.count == 4 || uidBytes.count == 7 else {
            throw CardImageError(L10n.words("%1$s: no UID of 4 or 7 bytes", L10n.words("Flipper Classic dump")))
        }
        if blocks.isEmpty, let count = MifareLayout.blockCount(classicType: type) { blocks = Array(repeating: "", count: count) }
        for i in blocks.indices where blocks[i].isEmpty { blocks[i] = MifareLayout.unreadBlock }
        let atqaText = try atqa.map { bytes -> String in
            guard bytes.count == 2, bytes.allSatisfy({ $0 != nil }) else { throw CardImageError(L10n.words("%1$s: an ATQA that is not 2 bytes", L10n.words("Flipper Classic dump"))) }
            return MifareLayout.text(version == 2 ? bytes.reversed() : bytes)
        }
        let sakText = try sak.map { bytes -> String in
            guard bytes.count == 1, bytes[0] != nil else { throw CardImageError(L10n.words("%1$s: a SAK that is not 1 byte", L10n.words("Flipper Classic dump"))) }
            return MifareLayout.text(bytes)
        }
        let classic = CardImage.ClassicImage(uid: HexFormat.string(uidBytes), type: type, atqa: atqaText, sak: sakText, blocks: blocks)
        try MifareLayout.check(classic)
        return CardImage(description: "Flipper Zero MIFARE Classic dump", mifareClassic: classic)
    }

    /// The image's type for Flipper's name: MINI → Mini, 1K, Plus 2K → 2K, 4K.
    static func imageType(_ flipperName: String) -> String? {
        switch flipperName {
        case "MINI", "Mini": return "Mini"
        case "1K": return "1K"
        case "Plus 2K", "2K": return "2K"
        case "4K": return "4K"
        default: return nil
        }
    }
}

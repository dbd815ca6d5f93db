import CardProtocol
import Foundation
import TransitModel

/// Raw MIFARE Classic images (`.mfd` of libnfc's nfc-mfclassic, `.mfc` of Metrodroid's exports,
/// `.dump`/`.bin` of Proxmark3 and others): every block in order, 16 bytes each, trailers with the
/// keys, nothing else. 320 bytes is a Mini, 1,024 a 1K, 2,048 a 2K, 4,096 a 4K (Proxmark3
/// client/src/cmdhfmf.c, `hf mf dump` card memory sizes). The UID comes from block 0
/// (MifareLayout.uid, after Metrodroid's MfcCardImporter.kt). Such a file says nothing of itself,
/// so it is taken only by its name's extension and size, when no other format reads it.
enum RawClassicDump {
    static let extensions: Set = ["mfd", "mfc", "dump", "bin"]

    /// True when a file of this name and size may be a raw image.
    static func mayBe(name: String?, size: Int) -> Bool {
        guard let name, let dot = name.lastIndex(of: ".") else { return false }
        return extensions.contains(name[name.index(after: dot)...].lowercased()) && MifareLayout.classicType(blockCount: size / 16) != nil && size % 16 == 0
    }

    static func parse(_ data: Data) throws -> CardImage {
        let bytes = [UInt8](data)
        guard bytes.count % 16 == 0, let type = MifareLayout.classicType(blockCount: bytes.count / 16) else {
            throw CardImageError(L10n.words("a raw MIFARE Classic dump of %1$s bytes (320, 1024, 2048 or 4096 expected)", .init(String(bytes.count))))
        }
        let blocks = stride(from: 0, to: bytes.count, by: 16).map { HexFormat.string(bytes[$0 ..< $0 + 16]) }
        guard let uid = MifareLayout.uid(block0: bytes.prefix(16).map { Optional($0) }) else {
            throw CardImageError(L10n.words("a raw MIFARE Classic dump without block 0"))
        }
        let classic = CardImage.ClassicImage(uid: HexFormat.string(uid), type: type, blocks: blocks)
        try MifareLayout.check(classic)
        return CardImage(description: "raw MIFARE Classic dump", mifareClassic: classic)
    }
}

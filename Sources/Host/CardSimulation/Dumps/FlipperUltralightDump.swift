import CardProtocol
import TransitModel

/// Flipper Zero "NFC device" files of MIFARE Ultralight and NTAG cards, as the firmware writes them
/// (documentation/file_formats/NfcFileFormats.md; lib/nfc/protocols/mf_ultralight/mf_ultralight.c):
/// `Device type: NTAG/Ultralight` and the chip in `NTAG/Ultralight type:` (data format 2), or the
/// chip in `Device type:` itself (data format 1, older files: `Mifare Ultralight`, `NTAG213`…);
/// `Pages total: N`, `Pages read: R` (absent before data format 1: all pages read), then
/// `Page N: ` and 4 space-separated bytes. Pages from R on are not the card's data (the Flipper
/// writes every page of the chip, read or not), so the image stops at page R − 1: past it the card
/// answers as past its end. The image's type is Flipper's name without "Mifare ".
enum FlipperUltralightDump {
    /// A `Device type:` value of this family: the current one, or a chip name of older files.
    static func isUltralight(deviceType: String) -> Bool {
        deviceType == "NTAG/Ultralight" || deviceType.hasPrefix("Mifare Ultralight") || deviceType.hasPrefix("NTAG")
    }

    static func parse(_ text: String) throws -> CardImage {
        var deviceType: String?, chip: String?, uid: [UInt8?]?
        var total: Int?, read: Int?
        var pages = [String]()
        for line in DumpLines.of(text) where line.first != UInt8(ascii: "#") {
            guard let (key, value) = DumpLines.keyValue(line) else {
                throw CardImageError(L10n.words("%1$s: a line that is no `key: value`: %2$s", L10n.words("Flipper Ultralight dump"), .init(CardImageError.quote(DumpLines.string(line)))))
            }
            switch DumpLines.string(key) {
            case "Device type": deviceType = DumpLines.string(value)
            case "NTAG/Ultralight type": chip = DumpLines.string(value)
            case "UID": uid = DumpLines.bytes(value)
            case "Pages total": total = try count(value, "Pages total")
            case "Pages read": read = try count(value, "Pages read")
            case let k where k.hasPrefix("Page "):
                guard let total else { throw CardImageError(L10n.words("%1$s: pages before the `Pages total` line", L10n.words("Flipper Ultralight dump"))) }
                guard let n = DumpLines.number(key.dropFirst(5)) else {
                    throw CardImageError(L10n.words("%1$s: unreadable page number in %2$s", L10n.words("Flipper Ultralight dump"), .init(CardImageError.quote(DumpLines.string(line)))))
                }
                guard n < total else { throw CardImageError(L10n.words("%1$s: page %2$s is past the card's end (%3$s pages)", L10n.words("Flipper Ultralight dump"), .init("\(n)"), .init("\(total)"))) }
                guard let bytes = DumpLines.bytes(value), bytes.count == 4 else {
                    throw CardImageError(L10n.words("%1$s: page %2$s is not 4 bytes of hex: %3$s", L10n.words("Flipper Ultralight dump"), .init("\(n)"), .init(CardImageError.quote(DumpLines.string(value)))))
                }
                // Pages come in order, as the Flipper writes them: a gap or a repeat would misplace data.
                guard n == pages.count else { throw CardImageError(L10n.words("%1$s: page %2$s where page %3$s was due", L10n.words("Flipper Ultralight dump"), .init("\(n)"), .init("\(pages.count)"))) }
                pages.append(MifareLayout.text(bytes))
            default: continue
            }
        }
        guard let total else { throw CardImageError(L10n.words("%1$s: no `Pages total` line", L10n.words("Flipper Ultralight dump"))) }
        let valid = read ?? total
        guard valid <= total else { throw CardImageError(L10n.words("%1$s: %2$s pages read of %3$s", L10n.words("Flipper Ultralight dump"), .init("\(valid)"), .init("\(total)"))) }
        guard pages.count >= valid else { throw CardImageError(L10n.words("%1$s: %2$s pages read, %3$s listed", L10n.words("Flipper Ultralight dump"), .init("\(valid)"), .init("\(pages.count)"))) }
        guard valid > 0 else { throw CardImageError(L10n.words("%1$s: no page was read", L10n.words("Flipper Ultralight dump"))) }
        let uidBytes = uid?.compactMap { $0 } ?? []
        guard uidBytes.count == 7, uid?.count == 7 else { throw CardImageError(L10n.words("%1$s: no UID of 7 bytes", L10n.words("Flipper Ultralight dump"))) }
        let name = deviceType == "NTAG/Ultralight" ? chip : deviceType
        let type = name.map { $0.hasPrefix("Mifare ") ? String($0.dropFirst(7)) : $0 }
        let image = CardImage.UltralightImage(uid: HexFormat.string(uidBytes), type: type, pages: Array(pages.prefix(valid)))
        try MifareLayout.check(image)
        return CardImage(description: "Flipper Zero MIFARE Ultralight dump", mifareUltralight: image)
    }

    private static func count(_ value: DumpLines.Line, _ what: String) throws -> Int {
        guard let n = DumpLines.number(value), n <= MifareLayout.maxPages else {
            throw CardImageError(L10n.words("%1$s: `%2$s` is not a page count up to %3$s: %4$s", L10n.words("Flipper Ultralight dump"), .init("\(what)"), .init("\(MifareLayout.maxPages)"), .init(CardImageError.quote(DumpLines.string(value)))))
        }
        return n
    }
}

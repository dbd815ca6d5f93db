/// The card's technology, told by the ATR the reader built.
package enum CardTechnology: String {
    case felica, iso7816

    /// PC/SC Part 3 ATR of a storage card: `3B 8F 80 01 80 4F 0C` + RID `A0 00 00 03 06` + standard
    /// byte + card name (PC/SC Part 3, 3.1.3.2.3). Standard 11h is FeliCa; anything else is ISO 14443-4.
    package init(atr: [UInt8]) {
        let storagePrefix: [UInt8] = [0x3B, 0x8F, 0x80, 0x01, 0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06]
        let isFeliCa = atr.count > storagePrefix.count && atr.starts(with: storagePrefix) && atr[storagePrefix.count] == 0x11
        self = isFeliCa ? .felica : .iso7816
    }
}

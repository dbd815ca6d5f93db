/// What the ATR a reader built says of the card, in each form real readers build it. The card's
/// technology comes from here, so a FeliCa card is never sent ISO SELECTs and an ISO card never
/// FeliCa frames; an ATR of no known form is `unknown`, and `CardSession.identify` asks the card.
package enum ATRVerdict: Equatable {
    /// A FeliCa card, in the form `how` names (for the log); `idm` when the ATR carries it.
    case felica(how: String, idm: [UInt8]?)
    /// An ISO 14443-4 card: `3B 8n 80 01 <historical bytes> TCK`, with type A's ATS historical
    /// bytes or type B's application data (PC/SC Part 3, 3.1.3.2.3.1; ACS readers put the whole
    /// ATQB, `50 …`, there: ACR122U API v2.04, 3.1.2).
    case iso14443
    /// A memory card (MIFARE Classic, Ultralight, ICODE…), by its PC/SC name: Classic and Ultralight
    /// are read through the storage-card commands (`StorageCardReader`), the others by no family.
    case storage(name: String)
    /// Fits no form above.
    case unknown

    /// The verdict in a word, for listings: felica, iso14443, "storage: NAME" or unknown.
    package var word: String {
        switch self {
        case .felica: return "felica"
        case .iso14443: return "iso14443"
        case .storage(let name): return "storage: \(name)"
        case .unknown: return "unknown"
        }
    }

    /// RID of the PC/SC Workgroup in a storage card's ATR: `80` category, `4F 0C` AID of 12 bytes,
    /// then `A0 00 00 03 06`, the standard byte SS, the card name C0 C1 and four RFU bytes
    /// (PC/SC Part 3, 3.1.3.2.3.2).
    private static let storagePrefix: [UInt8] = [0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06]

    package init(atr: [UInt8]) {
        guard let historical = ATR.historicalBytes(atr) else { self = .unknown; return }
        if historical.starts(with: Self.storagePrefix), historical.count >= 11 {
            self = Self.storageCard(standard: historical[8], name: UInt16(historical[9]) << 8 | UInt16(historical[10]))
            return
        }
        // `3B 8n 80 01`: T0 announces TD1 and n historical bytes, TD1 = 80 (TD2 follows, T=0),
        // TD2 = 01 (T=1): how PC/SC Part 3 builds every contactless ATR.
        guard atr.count >= 4, atr[0] == 0x3B, atr[1] & 0xF0 == 0x80, atr[2] == 0x80, atr[3] == 0x01 else {
            self = .unknown
            return
        }
        // SCM / Identiv readers: historical bytes `04 43 FD <IDm, 8 bytes> <timeout>` for a FeliCa
        // card (SCL3711 reference manual, 5.3.3.4; pcsc-tools' smartcard_list: "3B 8C 80 01 04 43 FD
        // … RFID - NFC Forum tag type 3 (FeliCa)"; liblogicalaccess atrparser.cpp takes the same prefix).
        if historical.starts(with: [0x04, 0x43, 0xFD]) {
            self = .felica(how: "SCM/Identiv form, 04 43 FD", idm: historical.count >= 11 ? Array(historical[3 ..< 11]) : nil)
            return
        }
        self = .iso14443
    }

    /// A storage card's standard byte and card name: FeliCa by the PC/SC name 003B (any standard
    /// byte) or the standard byte 11 (PC/SC Part 3 supplement; smartcard_list: `… 03 06 11 00 3B …
    /// 42` "RFID - FeliCa (generic)", Suica, Octopus); by ACS's names F011 (212 kbps) and F012 (424
    /// kbps) under standard byte 03 (ACR122U API v2.04, 3.1 and 7.3; smartcard_list: `… 03 06 03 F0
    /// 11 … 8A`). Any other known name is a memory card; an unknown one is `unknown`.
    private static func storageCard(standard: UInt8, name: UInt16) -> ATRVerdict {
        if name == 0x003B || standard == 0x11 { return .felica(how: "PC/SC storage-card form", idm: nil) }
        if standard == 0x03, name == 0xF011 || name == 0xF012 {
            return .felica(how: "ACS form, \(name == 0xF011 ? "FeliCa 212K" : "FeliCa 424K")", idm: nil)
        }
        if let known = memoryCardNames[name] { return .storage(name: known) }
        return .unknown
    }

    /// Card names C0 C1 of the PC/SC Part 3 supplement for memory cards (as pcsc-tools'
    /// smartcard_list.txt lists them, "as per PCSC std part3"), and ACS's F004 (Topaz, NFC Forum
    /// type 1, ACR122U API v2.04, 3.1).
    package static let memoryCardNames: [UInt16: String] = [
        0x0001: "MIFARE Classic 1K", 0x0002: "MIFARE Classic 4K", 0x0003: "MIFARE Ultralight",
        0x0004: "SLE55R", 0x0006: "SR176", 0x0007: "SRI X4K", 0x0012: "Tag-it", 0x0013: "LRI512",
        0x0014: "ICODE SLI", 0x0016: "I.CODE1", 0x0017: "PicoPass 2K", 0x0018: "PicoPass 2KS",
        0x0019: "PicoPass 16K", 0x001A: "PicoPass 16KS", 0x0021: "LRI64", 0x0026: "MIFARE Mini",
        0x0027: "my-d move", 0x0028: "my-d NFC", 0x002F: "Jewel", 0x0030: "Topaz",
        0x0035: "I-CODE SL2", 0x0036: "MIFARE Plus SL1 2K", 0x0037: "MIFARE Plus SL1 4K",
        0x0038: "MIFARE Plus SL2 2K", 0x0039: "MIFARE Plus SL2 4K", 0x003A: "MIFARE Ultralight C",
        0x003C: "Melexis MLX90129", 0x003D: "MIFARE Ultralight EV1", 0xF004: "Topaz (NFC Forum type 1)",
    ]
}

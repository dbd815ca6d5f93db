/// The way a reader carries FeliCa frames inside APDUs.
public enum FeliCaDialect: String, CaseIterable, Sendable {
    /// ACR122U (PN532 behind the reader): `FF 00 00 00 Lc D4 40 01 <frame>` → `D5 41 <status> <frame> 90 00`.
    case pn532
    /// ACR1252U and later ACS readers: `FF 00 00 00 Lc <frame>` → `<frame> 90 00`.
    case acsDirect = "acs-direct"
    /// PC/SC 2.02 Part 3 Transparent Exchange: `FF C2 00 01 Lc 95 <len> <frame>` → `C0 03 <status> 97 <len> <frame> 90 00`.
    case part3
}

/// A contactless reader with one card on it, emulated from a card image: answers the reader-level
/// pseudo-APDUs (UID, FeliCa pass-through in each dialect) and hands the rest to the card.
/// Both `transit-sim` (behind vpcd) and `transit scan --card` (in process) use it.
public final class VirtualReader {
    private var felica: FeliCaEmulator?
    private var iso: ISO7816Emulator?
    /// The one dialect accepted, or nil for all three.
    public let dialect: FeliCaDialect?
    /// APDUs answered since the card was put on the reader.
    public private(set) var exchanges = 0

    public init(image: CardImage, dialect: FeliCaDialect? = nil) throws {
        if let f = image.felica { felica = try FeliCaEmulator(f) }
        if let i = image.iso7816 { iso = try ISO7816Emulator(i) }
        guard felica != nil || iso != nil else { throw CardImageError("card image holds no card") }
        self.dialect = dialect
        historical = try image.iso7816?.historicalBytes.map(HexText.bytes) ?? [0x80, 0x73, 0xC8, 0x21, 0x10]
        guard historical.count <= 15 else { throw CardImageError("an ATR holds at most 15 historical bytes") }
        uid = try felica?.idm ?? HexText.bytes(image.iso7816?.uid ?? "")
    }

    private let historical: [UInt8]
    private let uid: [UInt8]

    /// The ATR a PC/SC reader builds for the card (PC/SC Part 3, section 3.1.3.2.3):
    /// FeliCa as a storage card with standard byte 11h and card name 003Bh; an ISO 14443-4 card
    /// with its historical bytes.
    public var atr: [UInt8] {
        let body: [UInt8]
        if felica != nil {
            body = [0x3B, 0x8F, 0x80, 0x01, 0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06, 0x11, 0x00, 0x3B, 0x00, 0x00, 0x00, 0x00]
        } else {
            body = [0x3B, 0x80 | UInt8(historical.count & 0x0F), 0x80, 0x01] + historical.prefix(15)
        }
        return body + [body.dropFirst().reduce(0, ^)] // TCK: XOR of T0 … last historical byte
    }

    /// Answers one APDU from the host.
    public func transmit(_ apdu: [UInt8]) -> [UInt8] {
        exchanges += 1
        if apdu.starts(with: [0xFF, 0xCA, 0x00, 0x00]) { return uid + [0x90, 0x00] }
        if let felica { return felicaPassThrough(felica, apdu) }
        return iso?.answer(apdu) ?? [0x6F, 0x00]
    }

    private func felicaPassThrough(_ card: FeliCaEmulator, _ apdu: [UInt8]) -> [UInt8] {
        let unsupported: [UInt8] = [0x6A, 0x81]
        guard apdu.count >= 6, apdu[0] == 0xFF, Int(apdu[4]) == apdu.count - 5 || Int(apdu[4]) == apdu.count - 6 else { return unsupported }
        let data = Array(apdu[5 ..< 5 + Int(apdu[4])])
        let (form, frame): (FeliCaDialect, [UInt8])
        switch (apdu[1], apdu[2], apdu[3]) {
        case (0x00, 0x00, 0x00) where data.starts(with: [0xD4, 0x40, 0x01]): (form, frame) = (.pn532, Array(data.dropFirst(3)))
        case (0x00, 0x00, 0x00) where data.first.map(Int.init) == data.count: (form, frame) = (.acsDirect, data)
        case (0xC2, 0x00, 0x01) where data.count >= 2 && data[0] == 0x95 && Int(data[1]) <= data.count - 2:
            (form, frame) = (.part3, Array(data[2 ..< 2 + Int(data[1])]))
        default: return unsupported
        }
        if let dialect, dialect != form { return unsupported }
        let answer = card.answer(frame)
        switch form {
        case .pn532: return answer.map { [0xD5, 0x41, 0x00] + $0 + [0x90, 0x00] } ?? [0xD5, 0x41, 0x01, 0x90, 0x00]
        case .acsDirect: return answer.map { $0 + [0x90, 0x00] } ?? [0x63, 0x00]
        case .part3:
            // C0 03 <error object, SW1, SW2>: 00 90 00 success; 01 64 01 no answer from the card (Part 3, table 3.1).
            guard let answer, answer.count <= 255 else { return [0xC0, 0x03, 0x01, 0x64, 0x01, 0x90, 0x00] }
            return [0xC0, 0x03, 0x00, 0x90, 0x00, 0x97, UInt8(answer.count)] + answer + [0x90, 0x00]
        }
    }
}

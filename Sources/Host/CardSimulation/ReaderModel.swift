/// The readers `transit-sim --reader-model` answers as, each written from its manual or public
/// client (docs/readers.md), independently of the host's reader table: the ATR it builds, the
/// pass-throughs it takes, what it answers to the others.
public enum ReaderModel: String, CaseIterable, Sendable {
    /// A PC/SC reader that takes all three wrapped dialects (the simulator's default).
    case pcsc
    /// ACS ACR122U (API v2.04): FeliCa ATR with card name F0 11 (212 kbps); the PN532 wrapper and
    /// the bare frame (7.3).
    case acr122u
    /// The same reader with a 424 kbps FeliCa card: card name F0 12.
    case acr122u424 = "acr122u-424"
    /// ACS ACR1252U (ACM1252U-Y3 reference manual 5.2.6, 5.2.3): the PC/SC FeliCa ATR; direct
    /// transmit and Part 3.
    case acr1252u
    /// ACS ACR1281U (ACM1281U-C7 reference manual v1.02): direct transmit and Part 3, as the
    /// ACR1252U (GUESS); MIFARE Classic keys in the ACR128 family's session key (§5.1.3.1).
    case acr1281u
    /// Sony RC-S300: Part 3 Transparent Exchange inside a transparent session (oyajun/pcsc-sample).
    case rcs300 = "rc-s300"
    /// Identiv uTrust 3700 F: the SCM ATR carrying the IDm (SCL3711 manual 5.3.3.4); Part 3.
    /// `FF 00 00 00` is its load-keys / change-PIN command (uTrust 3720F manual p.77).
    case utrust3700f = "utrust-3700f"
    /// HID OMNIKEY 5022: `FF CA` gives the IDm; no FeliCa pass-through (HID's sample code).
    case omnikey5022 = "omnikey-5022"
    /// Elatec TWN4: 64-byte CCID messages, so commands and answers of at most 54 bytes.
    case twn4
    /// An Android phone running vsmartcard's Remote Smart Card Reader: ISO-DEP only, and every
    /// APDU, `FF CA` too, goes to the card (remote-reader NFCReader.transmit).
    case phone

    /// The wrapped dialects the reader carries FeliCa frames in.
    var dialects: Set<SimulatedDialect> {
        switch self {
        case .pcsc: return [.pn532, .acsDirect, .part3]
        case .acr122u, .acr122u424: return [.pn532, .bareFrame]
        case .acr1252u, .acr1281u: return [.acsDirect, .part3]
        case .rcs300, .utrust3700f, .twn4: return [.part3]
        case .omnikey5022, .phone: return []
        }
    }

    /// A Transparent Exchange needs an open transparent session.
    var needsSession: Bool { self == .rcs300 }

    /// The reader answers `FF CA` itself (the phone hands it to the card).
    var answersGetData: Bool { self != .phone }

    /// The longest command or answer the reader carries (its CCID messages less the 10-byte header).
    var maxMessage: Int? { self == .twn4 ? 54 : nil }

    /// The ATR the reader builds for a FeliCa card with `idm`.
    func felicaATR(idm: [UInt8]) -> [UInt8] {
        let storage: [UInt8] = [0x3B, 0x8F, 0x80, 0x01, 0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06]
        let body: [UInt8]
        switch self {
        // ACR122U API v2.04 3.1: standard byte 03, card name F0 11 / F0 12.
        case .acr122u: body = storage + [0x03, 0xF0, 0x11, 0x00, 0x00, 0x00, 0x00]
        case .acr122u424: body = storage + [0x03, 0xF0, 0x12, 0x00, 0x00, 0x00, 0x00]
        // SCL3711 manual 5.3.3.4: card mode 04 (212 kbps), card type 43 (FeliCa), IFS FD, the IDm,
        // the write timeout.
        case .utrust3700f: body = [0x3B, 0x8C, 0x80, 0x01, 0x04, 0x43, 0xFD] + idm + [0x0A]
        // PC/SC Part 3 3.1.3.2.3.2: standard byte 11, card name 00 3B.
        default: body = storage + [0x11, 0x00, 0x3B, 0x00, 0x00, 0x00, 0x00]
        }
        return body + [body.dropFirst().reduce(0, ^)]
    }

    /// What the reader answers to a pass-through in a dialect it does not carry.
    func refusal(of dialect: SimulatedDialect) -> [UInt8] {
        switch (self, dialect) {
        // The PN532 gets a byte other than D4 and fails: the reader's "operation failed" (GUESS).
        case (.acr122u, .acsDirect), (.acr122u424, .acsDirect): return [0x63, 0x00]
        // Direct transmit hands `D4 40 01 …` to the card, which ignores it (ACR1252U manual: 63 00).
        case (.acr1252u, .pn532): return [0x63, 0x00]
        // "Function not supported" (ISO 7816-4).
        default: return [0x6A, 0x81]
        }
    }
}

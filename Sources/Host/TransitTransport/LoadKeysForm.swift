import CardProtocol

/// How a PC/SC reader takes a MIFARE Classic key and names it in General Authenticate: PC/SC Part 3
/// leaves Load Keys' P1 and P2 to the vendor, and three reader families read them three ways
/// (docs/readers.md, "MIFARE Classic and Ultralight"). A reader the table has no form for, or
/// that refuses its table's form, is probed once in this order (ACS, ACS session key, OMNIKEY,
/// Identiv) and the form that loads a key is kept. The session-key form goes before OMNIKEY's: an
/// OMNIKEY answered 69 86 to P1 00 P2 20 (stackoverflow q/18830280), and an ACR128-family reader
/// that takes it is spared a write of its EEPROM (ACR1283L reference manual v1.00 p.21, note 3).
package enum LoadKeysForm: String, Codable, Sendable, CaseIterable {
    /// ACS (ACR122U, ACR1252U, ACR1255U-J1): `FF 82 00 00 06 <key>`, P1 00 the reader's volatile
    /// memory, P2 the key number 00; General Authenticate names key number 00 (ACR122T API v2.02
    /// p.12; ACM1252U-Y3 reference manual v1.03 §5.2.4.1-5.2.4.2).
    case acs
    /// ACS ACR128 family (ACM1281U-C7 reference manual v1.02 §5.1.3.1, ACR128 API v1.7 §7.1,
    /// ACR1281S, ACR1283L): `FF 82 00 20 06 <key>`, P1 00 volatile, P2 20 "(Session Key) =
    /// Volatile memory"; key numbers 00-1F are non-volatile. General Authenticate names key number
    /// 20 (ACR1283L reference manual v1.00 p.22).
    case acsSessionKey = "acs-session-key"
    /// HID OMNIKEY: `FF 82 20 00 06 <key>`, P1 20 "in non volatile reader memory", P2 the key number
    /// 00; General Authenticate names key number 00 (HID's mifare-sample MifareTest.cpp). An OMNIKEY
    /// answered 69 86 to P1 00 (stackoverflow q/18830280).
    case omnikey
    /// Identiv / SCM / Cherry: `FF 82 00 <60|61> 06 <key>`, P2 the key's type (A or B); General
    /// Authenticate names key number 01 (uTrust 3720F reference manual §6.2.3-6.2.4; SCL3711
    /// reference manual §6.2.3; CLOUD 47x0 F reference manual §6.2.4).
    case identiv

    /// The Load Keys APDU for `key`, of type A (60) or B (61).
    package func loadKeys(_ key: [UInt8], typeB: Bool) -> [UInt8] {
        switch self {
        case .acs: return [0xFF, 0x82, 0x00, 0x00, 0x06] + key
        case .acsSessionKey: return [0xFF, 0x82, 0x00, 0x20, 0x06] + key
        case .omnikey: return [0xFF, 0x82, 0x20, 0x00, 0x06] + key
        case .identiv: return [0xFF, 0x82, 0x00, typeB ? 0x61 : 0x60, 0x06] + key
        }
    }

    /// General Authenticate of `block` with the key loaded by `loadKeys` (PC/SC Part 3 §3.2.2.1.6:
    /// version 01, block MSB 00, block LSB, key type 60/61, key number).
    package func authenticate(block: Int, typeB: Bool) -> [UInt8] {
        let keyNumber: UInt8
        switch self {
        case .acs, .omnikey: keyNumber = 0x00
        case .acsSessionKey: keyNumber = 0x20
        case .identiv: keyNumber = 0x01
        }
        return [0xFF, 0x86, 0x00, 0x00, 0x05, 0x01, 0x00, UInt8(truncatingIfNeeded: block), typeB ? 0x61 : 0x60, keyNumber]
    }

    /// True when a key loaded for type A serves type B too (only Identiv loads a key by its type).
    package var loadsByType: Bool { self == .identiv }
}

/// The Load Keys command with its key hidden: what log bundles record and `replay` compares, so no
/// key ever reaches a log (issue 42: "record that a key was loaded, never its bytes").
package enum StorageCommand {
    /// `FF 82 P1 P2 06` then twelve `X`s, for a Load Keys APDU; any other command as it is (hex).
    package static func recorded(_ apdu: [UInt8]) -> String {
        if apdu.count == 11, apdu[0] == 0xFF, apdu[1] == 0x82, apdu[4] == 0x06 {
            return HexFormat.string(Array(apdu.prefix(5))) + String(repeating: "X", count: 12)
        }
        return HexFormat.string(apdu)
    }
}

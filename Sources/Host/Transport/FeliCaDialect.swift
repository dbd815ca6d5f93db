/// The way a reader carries FeliCa frames inside pseudo-APDUs (`FeliCaFraming` wraps and unwraps).
enum FeliCaDialect: String, CaseIterable, Sendable {
    /// ACR122U (a PN532 behind the reader): `FF 00 00 00 Lc D4 40 01 <frame>` → `D5 41 <status> <frame> 90 00`.
    case pn532
    /// ACR1252U and later ACS readers: `FF 00 00 00 Lc <frame>` → `<frame> 90 00`.
    case acsDirect = "acs-direct"
    /// PC/SC 2.02 Part 3 Transparent Exchange: `FF C2 00 01 Lc 5F 46 04 <timer> 95 <len> <frame> 00` →
    /// `C0 03 <status> 97 <len> <frame> 90 00`.
    case part3

    /// The first guess from the reader's name: ACR122 → pn532; other ACS contactless readers →
    /// acs-direct; everyone else is assumed to follow PC/SC Part 3.
    static func guess(forReader name: String) -> FeliCaDialect {
        let n = name.uppercased()
        if n.contains("ACR122") { return .pn532 }
        if ["ACR1252", "ACR1255", "ACR1281", "ACR1552"].contains(where: n.contains) { return .acsDirect }
        return .part3
    }
}

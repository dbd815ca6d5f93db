/// The way a reader carries FeliCa frames inside pseudo-APDUs (`FeliCaFraming` wraps and unwraps).
/// Which dialects a reader is asked in, and in which order, comes from its line in `ReaderTable`.
package enum FeliCaDialect: String, CaseIterable, Codable, Sendable {
    /// ACR122U (a PN532 behind the reader): `FF 00 00 00 Lc D4 40 01 <frame>` → `D5 41 <status> <frame> 90 00`.
    case pn532
    /// ACR1252U and later ACS readers: `FF 00 00 00 Lc <frame>` → `<frame> 90 00`.
    case acsDirect = "acs-direct"
    /// PC/SC 2.02 Part 3 Transparent Exchange: `FF C2 00 01 Lc 5F 46 04 <timer> 95 <len> <frame> 00` →
    /// `C0 03 <status> 97 <len> <frame> 90 00`.
    case part3
    /// ACR122U: the FeliCa frame itself as the whole command APDU → `<frame> 90 00` (ACR122U API
    /// v2.04, 7.3: the same Read Without Encryption sent bare and inside `FF 00 00 00 … D4 40 01`).
    case bareFrame = "bare-frame"

    /// The order readers that `ReaderTable` does not know are asked in: PC/SC Part 3 first (the
    /// standard), then the two ACS pass-throughs.
    package static let unknownReaderOrder: [FeliCaDialect] = [.part3, .pn532, .acsDirect]

    /// The dialect names `--dialect` takes, for messages.
    package static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

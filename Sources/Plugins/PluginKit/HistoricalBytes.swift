/// What an ISO 14443-4 card's historical bytes tell before any exchange (docs/research/pcsc.md
/// §"Historical bytes"). A PC/SC reader builds the ATR `3B 8n 80 01 <historical bytes> TCK` (PC/SC
/// Part 3, 3.1.3.2.3.1): for type A the historical bytes of the card's ATS, for type B the ATQB's
/// application data (4 bytes), protocol info (3 bytes) and the ATTRIB's MBLI (1 byte), 8 in all.
public enum HistoricalBytes {
    /// `80` alone: ISO/IEC 7816-4's category indicator for COMPACT-TLV objects, and none follows. A
    /// type A card with no application data in its ATS, as MIFARE DESFire answers (NXP AN10833: ATS
    /// `06 75 77 81 02 80`; pcsc-tools' ATR list: `3B 81 80 01 80 80` for DESFire, Opal, Oyster,
    /// PRESTO, LEGIC advant). A type B card's ATR carries 8 (12 from ACS readers, the whole ATQB).
    public static let noApplicationData: [UInt8] = [0x80]

    /// True when `historical` is exactly `80`. A family whose every known card shows application data
    /// there (its issuer's or chip's bytes, or a type B card's ATQB) may say "not this card" on it
    /// without an exchange; no family can be sure of its card from this alone (DESFire EV2 and later
    /// let the issuer set the ATS, AN10833 §2.2).
    public static func showNoApplicationData(_ historical: [UInt8]?) -> Bool {
        historical == noApplicationData
    }

    /// The historical bytes of a type A ATS (ISO/IEC 14443-4, 5.2): TL (the ATS's length, itself
    /// included, without the CRC), T0 (b5, b6, b7 announce TA, TB, TC), the interface bytes, then
    /// the historical bytes to the end. Nil when the ATS is shorter than it says or than T0 needs.
    public static func ofATS(_ ats: [UInt8]) -> [UInt8]? {
        guard let length = ats.first, length >= 1, ats.count >= Int(length) else { return nil }
        guard length >= 2 else { return [] } // TL alone: no T0, no historical bytes
        let t0 = ats[1]
        let interface = [0x10, 0x20, 0x40].filter { t0 & $0 != 0 }.count
        let first = 2 + interface
        guard first <= Int(length) else { return nil }
        return Array(ats[first ..< Int(length)])
    }
}

extension CardLink {
    /// Throws `notThisCard` when the card's historical bytes are exactly `80`
    /// (`HistoricalBytes.showNoApplicationData`), saying so in the log; for the families whose
    /// every known card shows application data there (docs/research/pcsc.md §"Historical bytes").
    public func skipWhenNoApplicationData(_ family: String) throws {
        guard HistoricalBytes.showNoApplicationData(historicalBytes) else { return }
        log("historical bytes 80 (no application data, as DESFire shows): no \(family) card", level: .debug)
        throw PluginError.notThisCard
    }
}

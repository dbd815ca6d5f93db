/// A card's radio technology, once for both sides: the host tells it from the ATR the reader built
/// (`ATRVerdict`) or, for an ATR of no known form, from the card's answer to a FeliCa Polling
/// (`CardSession.identify`); a plugin says which it reads, and the host asks it only of such cards.
public enum CardTechnology: String, Sendable, CaseIterable, Codable {
    case felica, iso7816
    /// MIFARE Classic 1K, 4K or Mini: sectors opened with keys (ABI release 5).
    case mifareClassic
    /// MIFARE Ultralight and NTAG (NFC Forum type 2): pages read without keys (ABI release 5).
    case mifareUltralight
}

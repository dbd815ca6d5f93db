/// The 7-byte UID of a MIFARE Ultralight / NTAG card: the one the host polled, or else its bytes in
/// pages 0–1 (page 0 bytes 0–2 are UID0–UID2, byte 3 a check byte; page 1 is UID3–UID6; NXP
/// MF0ICU1 data sheet, "UID/serial number").
public enum UltralightUID {
    public static func read(_ card: CardLink) throws -> Bytes {
        if card.uid.count == 7 { return Bytes(card.uid) }
        let pages = Bytes(try card.ultralightPages(0, count: 2))
        return Bytes(try pages.slice(0, 3).storage + pages.slice(4, 4).storage)
    }
}

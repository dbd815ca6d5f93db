import PluginKit

/// One of a Nextfare Ultralight ticket's two 16-byte records (pages 8–11 and 12–15); Metrodroid
/// transit/nextfareul/NextfareUltralightTransaction.kt for the fields:
///   bytes 0–1, little-endian: bits 0–4 the record type, bits 5–15 minutes after midnight;
///   byte 2: the day, counted back from the ticket's base date;
///   bytes 4–6, little-endian: bits 0–6 the sequence number, bits 5–15 the balance in cents
///     (the two fields overlap in Metrodroid's reading; kept as it reads them);
///   byte 8: the expiry, signed days counted back from the base date (negative: after it);
///   bytes 9–10, little-endian: the location; byte 11: the route; bytes 12–13, big-endian: the machine.
struct NextfareRecord {
    let recordType: Int, minutes: Int, daysBack: Int
    let sequence: Int, balance: Int, expiryDaysBack: Int
    let location: Int, route: Int, machine: Int
    let raw: Bytes

    /// The record at `offset` of pages 8–15, or nil when its first 12 bytes are zero (no record:
    /// Metrodroid `isTransactionValid`).
    init?(_ pages: Bytes, at offset: Int) throws {
        let r = try pages.slice(offset, 16)
        guard try r.slice(0, 12).storage.contains(where: { $0 != 0 }) else { return nil }
        let timeField = Int(try r.le(0, 2)), sequenceField = Int(try r.le(4, 3))
        recordType = timeField & 0x1F
        minutes = timeField >> 5
        daysBack = Int(try r.u8(2))
        sequence = sequenceField & 0x7F
        balance = sequenceField >> 5 & 0x7FF
        expiryDaysBack = Int(Int8(bitPattern: try r.u8(8)))
        location = Int(try r.le(9, 2))
        route = Int(try r.u8(11))
        machine = Int(try r.be(12, 2))
        raw = r
    }

    /// True when this record was written after `other`: sequence numbers count modulo 128, and one
    /// less than 63 ahead is newer (Metrodroid `isSeqNoGreater`).
    func isNewer(than other: NextfareRecord) -> Bool { (sequence - other.sequence) & 0x7F < 0x3F }

    /// Record types that open a journey: 2, 4, 12 and 16 hex, and 6 on a bus; 6 elsewhere closes
    /// one (Metrodroid `isTapOn` / `isTapOff`).
    func tap(onBus: Bool) -> String? {
        switch recordType {
        case 2, 4, 0x12, 0x16: return "on"
        case 6: return onBus ? "on" : "off"
        default: return nil
        }
    }
}

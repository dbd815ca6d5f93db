import PluginKit

/// One 170F history block: 0 type · 1–3 sequence · 4–7 time (15 bits days since 2000-01-01, 17 bits
/// seconds of the day, Japan time) · 8–11 amount and 12–15 balance, big-endian (Metrodroid EdyTrip).
enum EdyRecord {
    /// 20 payment; 02 charge; 04 gift (Metrodroid EdyTrip: DEBIT, CHARGE, GIFT).
    static let kinds: [UInt8: TransactionType] = [0x20: .purchase, 0x02: .topup, 0x04: .topup]

    /// The transaction, or nil for an empty slot (time 0).
    static func decode(_ b: Bytes) throws -> Transaction? {
        let raw = UInt32(try b.be(4, 4))
        guard raw != 0 else { return nil }
        let type = try b.u8(0)
        var t = Transaction(type: kinds[type] ?? .unknown, date: time(raw), rawType: Hex.string([type]), rawPayload: b.hex)
        if t.type != .unknown { t.amount = try b.be(8, 4) }
        t.balance = Int64(try b.be(12, 4))
        return t
    }

    /// Edy's packed time in Japan Standard Time; nil when zero.
    static func time(_ raw: UInt32) -> CivilTime? {
        guard raw != 0 else { return nil }
        let seconds = Int64(raw >> 17) * 86_400 + Int64(raw & 0x1FFFF)
        return CivilTime(seconds: seconds, sinceYear: 2000, month: 1, day: 1, utcOffset: Zone.japan)
    }
}

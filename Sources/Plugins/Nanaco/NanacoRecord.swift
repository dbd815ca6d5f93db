import PluginKit

/// One 564F history block: 0 type · 1–4 amount and 5–8 balance, big-endian · 9–12 time bit fields
/// (11 bits year − 2000, 4 month, 5 day, 6 hour, 6 minute; JST) · 13–14 sequence number
/// (felicalib nanaco.c, TRET NanacoCardData).
enum NanacoRecord {
    /// 47 payment; 6F, 70 charge; 5C credit (TRET); 83 charge by point exchange. 35 is a transfer
    /// (引継) to another card: unknown with metadata event "transfer", like every other type no amount.
    static let kinds: [UInt8: TransactionType] = [0x47: .purchase, 0x6F: .topup, 0x70: .topup, 0x5C: .topup, 0x83: .topup]
    static let transfer: UInt8 = 0x35

    /// The transaction, or nil for an empty slot (no time).
    static func decode(_ b: Bytes) throws -> Transaction? {
        let raw = try b.be(9, 4)
        guard raw != 0 else { return nil }
        let type = try b.u8(0)
        let date = CivilTime(year: 2000 + Int(raw >> 21), month: Int(raw >> 17 & 0x0F), day: Int(raw >> 12 & 0x1F),
                             hour: Int(raw >> 6 & 0x3F), minute: Int(raw & 0x3F), utcOffset: Zone.japan)
        var t = Transaction(type: kinds[type] ?? .unknown, date: date, rawType: Hex.string([type]), rawPayload: b.hex)
        if t.type != .unknown { t.amount = try b.be(1, 4) }
        t.balance = Int64(try b.be(5, 4))
        // TRANSLATORS: a record that moved the balance (nanaco's transfer type).
        if type == transfer { t.metadata[MetadataKey.event] = PluginWords.mark("transfer", in: "nanaco") }
        return t
    }
}

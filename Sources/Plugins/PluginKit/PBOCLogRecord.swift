/// One SFI 0x18 log record of the PBOC e-purse (23 bytes; Metrodroid ChinaTrip, NFCard parseLog24):
///   0–1 counter · 2–4 overdraft · 5–8 amount in fen, big-endian · 9 type · 10–15 terminal
///   16–22 time, BCD YYYYMMDDhhmmss, China Standard Time. The record stores no balance after it
///   (the PBOC log layout has none), so the transactions carry none.
public enum PBOCLogRecord {
    /// Types 01 and 02 are top-ups (docs/specification.md §"Amounts and balances"); 05, 06 and 09 purchases (PBOC e-purse; 06 and 09 in NFCard
    /// and the Guangzhou YCT settlement model, 05 by the PBOC convention; 09 compound purchase, GB/T 31778).
    public static let kinds: [UInt8: TransactionType] = [0x01: .topup, 0x02: .topup, 0x05: .purchase, 0x06: .purchase, 0x09: .purchase]

    /// The transaction, or nil for an empty record (no amount and no time). `amountScale` turns the
    /// record's unit into the currency's minor unit (Macau Pass counts 0.1 MOP: 10).
    public static func decode(_ r: Bytes, amountScale: UInt64 = 1) throws -> Transaction? {
        let amount = try r.be(5, 4)
        let time = try r.slice(16, 7)
        if amount == 0, time.storage.allSatisfy({ $0 == 0 || $0 == 0xFF }) { return nil }
        let type = try r.u8(9)
        var t = Transaction(type: kinds[type] ?? .unknown, date: BCD.civilTime(time, utcOffset: Zone.china),
                            rawType: Hex.string([type]), rawPayload: r.hex)
        if t.type != .unknown { t.amount = amount * amountScale }
        return t
    }
}

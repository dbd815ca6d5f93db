import PluginKit

/// One SFI 4 transaction record (46 bytes; Metrodroid TMoneyTrip, checked against a real T-Money dump):
///   0 type (02 top-up; the others trips, as Metrodroid has it) · 2–5 balance after (published as the
///   record's balance) · 6–9 counter
///   10–13 amount, big-endian · 26–32 time, BCD YYYYMMDDhhmmss, Korea time (all FF: none).
enum KSX6924Record {
    static let topUp: UInt8 = 0x02

    /// The transaction, or nil for an unused slot: amount 0 and no time (all FF) or a zero time (all 00).
    static func decode(_ r: Bytes) throws -> Transaction? {
        let type = try r.u8(0)
        let amount = try r.be(10, 4)
        let time = try r.slice(26, 7)
        let noTime = time.storage.allSatisfy { $0 == 0xFF }
        if amount == 0, noTime || time.storage.allSatisfy({ $0 == 0 }) { return nil }
        return Transaction(type: type == topUp ? .topup : .trip, amount: amount,
                           date: noTime ? nil : BCD.civilTime(time, utcOffset: Zone.korea),
                           rawType: Hex.string([type]), rawPayload: r.hex, balance: Int64(try r.be(2, 4)))
    }

    /// Snapper's records: 46 bytes whose bytes 26–45 are all FF.
    static func hasSnapperFiller(_ r: Bytes) throws -> Bool {
        guard r.count == 46 else { return false }
        return try r.slice(26, 20).storage.allSatisfy { $0 == 0xFF }
    }
}

import PluginKit

/// One 16-byte log record (Metrodroid CEPASTransaction): 0 type · 1–3 amount (signed, cents,
/// debits negative) · 4–7 seconds since 1995-01-01 00:00 Singapore time · 8–15 user data (ASCII).
enum CEPASTransaction {
    /// Type table (docs/specification.md §"Amounts and balances", following Metrodroid): 30 MRT and 31 bus are trips; 03 and 75 top-ups and
    /// 76 bus refund top-ups; 01 retail and 04 service charge purchases.
    static let kinds: [UInt8: TransactionType] = [
        0x30: .trip, 0x31: .trip, 0x03: .topup, 0x75: .topup, 0x76: .topup, 0x01: .purchase, 0x04: .purchase,
    ]

    static func decode(_ r: Bytes) throws -> Transaction {
        let type = try r.u8(0)
        var t = Transaction(type: kinds[type] ?? .unknown, rawType: Hex.string([type]), rawPayload: r.hex)
        // A zero timestamp is no date (not 1995-01-01 00:00).
        let seconds = try r.be(4, 4)
        if seconds != 0 {
            t.date = CivilTime(seconds: Int64(seconds), sinceYear: 1995, month: 1, day: 1, utcOffset: Zone.singapore)
        }
        // Other types keep their raw payload and have no amount.
        if t.type != .unknown { t.amount = try r.signedBE(1, 3).magnitude }
        let userData = try r.slice(8, 8).storage
        let text = String(decoding: userData.filter { (0x20 ... 0x7E).contains($0) }, as: UTF8.self)
        let trimmed = text.trimmingSpaces
        if !trimmed.isEmpty { t.metadata[MetadataKey.userData] = trimmed }
        return t
    }

    static func date(days: UInt64) -> CivilTime? {
        guard days > 0 else { return nil }
        return CivilTime(seconds: Int64(days) * 86_400, sinceYear: 1995, month: 1, day: 1, utcOffset: Zone.singapore)?.dateOnly
    }
}

private extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}

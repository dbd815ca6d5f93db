import PluginKit

/// The GET PURSE answer (Metrodroid CEPASPurse, FareBot CEPASPurse):
///   0 version · 1 status · 2–4 balance (signed, cents) · 5–7 autoload amount · 8–15 CAN
///   16–23 CSN · 24–25 expiry and 26–27 creation (days since 1995-01-01) · 40 log record count.
struct CEPASPurse {
    let balance: Int64
    let can: String
    let expires: CivilTime?
    let created: CivilTime?
    let logRecordCount: Int

    init(_ d: Bytes) throws {
        guard d.count >= 41 else { throw PluginError.malformedResponse("purse of \(d.count) bytes (at least 41 due)") }
        balance = try d.signedBE(2, 3)
        can = try d.slice(8, 8).hex
        expires = try CEPASTransaction.date(days: d.be(24, 2))
        created = try CEPASTransaction.date(days: d.be(26, 2))
        logRecordCount = try Int(d.u8(40))
    }

    /// Issuer from the CAN prefix: 100 EZ-Link, 111 NETS FlashPay (Metrodroid CEPASTransitData).
    var issuerName: String? {
        if can.hasPrefix("100") { return "EZ-Link" }
        if can.hasPrefix("111") { return "NETS FlashPay" }
        return nil
    }
}

import PluginKit

/// Opal (Sydney): application 31 45 53, file 7, 16 bytes anyone may read (Metrodroid
/// OpalTransitData and its wiki page "Opal"; FareBot #105). Read reversed (byte 15 first), bits
/// MSB first: 0–15 CRC16 · 16–19 weekly journeys · 20 auto top-up · 21–24 last action · 25–27 last
/// mode · 28–38 minute of the day · 39–53 days since 1980-01-01 (Sydney local time) · 54–74 balance,
/// signed cents · 75–90 transaction number · 91 unused · 92–95 check digit · 96–127 serial. The
/// printed number is 3085 2200 followed by serial × 10 + check digit. The card keeps no history.
enum OpalCard: DESFireFamily {
    static let aids: [[UInt8]] = [[0x31, 0x45, 0x53]]
    static let file: UInt8 = 7
    static let modes = ["0": "rail", "1": "ferry or light rail", "2": "bus"]
    /// Last actions (Metrodroid OpalData).
    static let actions = [1: "new journey", 2: "transfer, same mode", 3: "transfer, other mode", 4: "Manly new journey",
                          5: "Manly transfer, same mode", 6: "Manly transfer, other mode", 7: "journey completed (distance)",
                          8: "journey completed (flat rate)", 9: "journey completed (auto tap on)",
                          10: "journey completed (auto tap off)", 11: "tap on reversal", 12: "tap on rejected"]

    static func read(_ card: DESFireCard, aid: [UInt8]) throws -> CardResult {
        guard let raw = try card.file(file, as: .data)?.bytes else { throw PluginError.cardRefused("Opal file 7 could not be read") }
        guard raw.count >= 16 else { throw PluginError.malformedResponse("Opal file 7 of \(raw.count) bytes") }
        var bits = BitReader(Bytes(try raw.slice(0, 16).storage.reversed()))
        let checksum = try bits.read(16), weekly = try bits.read(4), autoTopUp = try bits.read(1)
        let action = try bits.read(4), mode = try bits.read(3), minute = try bits.read(11), day = try bits.read(15)
        let rawBalance = try bits.read(21), number = try bits.read(16)
        _ = try bits.read(1)
        let checkDigit = try bits.read(4), serial = try bits.read(32)
        let balance = Int64(rawBalance) - (rawBalance & 0x10_0000 != 0 ? 0x20_0000 : 0) // 21-bit two's complement
        let printed = String(3085_2200_0000_0000 + serial * 10 + checkDigit)
        let local = SummerTimeZone.localSeconds(year: 1980, month: 1, day: 1, minutes: Int(minute)) + Int64(day) * 86_400
        let tap = Transaction(type: action == 0 ? .unknown : .trip, date: SummerTimeZone.sydney.civilTime(localSeconds: local),
                              metadata: ["action": actions[Int(action)] ?? "action \(action)", "mode": modes[String(mode)] ?? "mode \(mode)",
                                         "transactionNumber": String(number)],
                              rawType: String(action), rawPayload: raw.hex)
        return CardResult(family: "opal", cardName: "Opal", serialNumber: grouped(printed, [4, 4, 4, 4]), balance: balance, currency: "AUD",
                          metadata: ["weeklyJourneys": String(weekly), "autoTopUp": autoTopUp == 1 ? "yes" : "no",
                                     "checksum": Hex.string(UInt16(checksum)),
                                     "note": "Opal cards keep only the last tap; the journey history is online"],
                          transactions: [tap])
    }
}

import PluginKit

/// EasyCard (悠遊卡, Taipei), the MIFARE Classic generation. Layout from Metrodroid
/// transit/easycard (EasyCardTransitData, EasyCardTransaction, EasyCardTopUp):
/// - recognised by sector 0 block 1 = `0E 14 00 01 07 02 08 03 09 04 08 10 00 00 00 00`;
/// - balance: sector 2 block 0 bytes 0–3, little-endian, whole New Taiwan dollars;
/// - last top-up: sector 2 block 2; trips: sector 3 blocks 1–2, sectors 4 and 5 blocks 0–2.
/// A record: bytes 1–4 Unix time (LE) · byte 5 = 0x11 on a tap-out · bytes 6–7 amount (LE,
/// NT$) · byte 11 place (1 a shop, 5 a bus, else an MRT station) · bytes 12–15 machine (LE).
/// Amounts are given in cents (ISO 4217 minor units of TWD): NT$ × 100.
/// Times are shown in Taipei time (UTC+8, no summer time since 1979).
/// The sectors read hold no printed card number, so the number given is the chip's UID.
enum EasyCardPlugin: CardFamilyPlugin {
    static let name = "easycard"
    static let technology: CardTechnology = .mifareClassic

    /// Sector 0 block 1 of every EasyCard (Metrodroid EasyCardTransitData.MAGIC).
    static let magic: [UInt8] = [0x0E, 0x14, 0x00, 0x01, 0x07, 0x02, 0x08, 0x03, 0x09, 0x04, 0x08, 0x10, 0, 0, 0, 0]
    /// Record byte 11 values that are not stations (Metrodroid EasyCardTransaction.POS / BUS).
    static let shop = 1, bus = 5
    /// Record byte 5 of a tap-out (Metrodroid EasyCardTransaction.isEndTap).
    static let tapOutMark: UInt8 = 0x11
    static let taipei = 8 * 3600

    static func read(_ card: CardLink) throws -> CardResult {
        guard card.classicSectorCount >= 16, let s0 = try card.classicSectorBytes(0),
              try s0.block(1).storage == magic else { throw PluginError.notThisCard }
        var sectors: [Int: Bytes] = [:]
        var locked: [Int] = []
        for n in 2 ... 5 {
            if let s = try card.classicSectorBytes(n) { sectors[n] = s } else { locked.append(n) }
        }
        guard locked.isEmpty, let s2 = sectors[2], let s3 = sectors[3], let s4 = sectors[4], let s5 = sectors[5] else {
            throw PluginError.locked("EasyCard sectors \(locked.map(String.init).joined(separator: ", ")) are locked")
        }
        let rawBalance = Int32(bitPattern: UInt32(try s2.block(0).le(0, 4)))
        let records = [try s3.block(1), try s3.block(2)] + (try [s4, s5].flatMap { s in try (0 ... 2).map { try s.block($0) } })
        var transactions = try trips(records)
        let topUp = try s2.block(2)
        if !topUp.isAllZero { transactions.append(try topUpTransaction(topUp)) }
        transactions.sort { ($0.date?.iso8601 ?? "") > ($1.date?.iso8601 ?? "") }
        return CardResult(family: name, cardName: "EasyCard", serialNumber: Hex.string(card.uid),
                          balance: Int64(rawBalance) * 100, currency: "TWD",
                          metadata: ["note": "EasyCard keeps no printed number in the sectors read; the number shown is the chip UID"],
                          transactions: transactions)
    }

    /// One tap as the card stores it.
    struct Tap {
        let seconds: Int64, isTapOut: Bool, fare: UInt64, place: Int, machine: UInt64, raw: Bytes
    }

    static func tap(_ b: Bytes) throws -> Tap {
        Tap(seconds: Int64(try b.le(1, 4)), isTapOut: try b.u8(5) == tapOutMark, fare: try b.le(6, 2),
            place: Int(try b.u8(11)), machine: try b.le(12, 4), raw: b)
    }

    /// The trip records, empty slots and repeated times dropped, a tap-in and the tap-out that
    /// follows it (both at MRT stations) merged into one trip whose fare is the two amounts' sum
    /// (Metrodroid TransactionTrip.merge and EasyCardTransaction.isSameTrip).
    static func trips(_ blocks: [Bytes]) throws -> [Transaction] {
        var taps: [Tap] = []
        for b in blocks where !b.isAllZero {
            let t = try tap(b)
            if !taps.contains(where: { $0.seconds == t.seconds }) { taps.append(t) }
        }
        taps.sort { $0.seconds < $1.seconds }
        var result: [Transaction] = []
        var index = 0
        while index < taps.count {
            let t = taps[index]
            let next = index + 1 < taps.count ? taps[index + 1] : nil
            if let out = next, !t.isTapOut, out.isTapOut, isStation(t.place), isStation(out.place) {
                result.append(Transaction(type: .trip, amount: (t.fare + out.fare) * 100, date: civil(t.seconds),
                                          entryStation: station(t.place), exitStation: station(out.place),
                                          metadata: ["mode": "metro", "exitTime": civil(out.seconds)?.iso8601 ?? "",
                                                     "machine": machineID(t.machine)],
                                          rawType: "tap-in+tap-out", rawPayload: t.raw.hex + " " + out.raw.hex))
                index += 2
                continue
            }
            let mode = t.place == shop ? "shop" : t.place == bus ? "bus" : "metro"
            result.append(Transaction(type: t.place == shop ? .purchase : .trip, amount: t.fare * 100, date: civil(t.seconds),
                                      entryStation: isStation(t.place) && !t.isTapOut ? station(t.place) : nil,
                                      exitStation: isStation(t.place) && t.isTapOut ? station(t.place) : nil,
                                      metadata: ["mode": mode, "tap": t.isTapOut ? "out" : "in",
                                                 "machine": machineID(t.machine)],
                                      rawType: t.isTapOut ? "tap-out" : "tap-in", rawPayload: t.raw.hex))
            index += 1
        }
        return result
    }

    /// The last top-up (sector 2 block 2, same fields as a trip record).
    static func topUpTransaction(_ b: Bytes) throws -> Transaction {
        let t = try tap(b)
        return Transaction(type: .topup, amount: t.fare * 100, date: civil(t.seconds), entryStation: station(t.place),
                           metadata: ["machine": machineID(t.machine)],
                           rawType: "top-up", rawPayload: b.hex)
    }

    /// The machine number as Metrodroid shows it (hex).
    static func machineID(_ v: UInt64) -> String { String(v, radix: 16, uppercase: true) }
    static func isStation(_ place: Int) -> Bool { place != shop && place != bus }
    static func station(_ place: Int) -> String { "station \(place)" }
    static func civil(_ unixSeconds: Int64) -> CivilTime? {
        CivilTime(seconds: unixSeconds + Int64(taipei), sinceYear: 1970, month: 1, day: 1, utcOffset: taipei)
    }
}

@_cdecl("transit_plugin_entry_v1")
public func transitPluginEntry(_ hostVersion: UInt32) -> UnsafeRawPointer? { PluginExport.entry(EasyCardPlugin.self, hostVersion) }

import PluginKit

/// HSL v2 (Helsinki, application 14 20 EF) and Waltti (other Finnish cities, 00 10 AB): files anyone
/// may read (HSL's public API document "HSL Matkakortin kuvaus ja API kehittäjille" for the files,
/// Metrodroid HSLTransitData / HSLKausi / HSLTransaction / HSLLookup for the v2 and Waltti bit
/// layouts; facts only). Bits MSB first; dates are EN 1545 days since 1997-01-01 and times minutes
/// of the day, Helsinki local time.
///   file 8 (application info): the printed number is its hex digits 2–19, grouped 6 4 4 4.
///   file 2 (stored value): bits 0–19 the balance in euro cents; the last load: date 14 (bits
///     20–33), time 11 (34–44), amount 20 (45–64, cents) (Metrodroid HSLRefill). The history never
///     holds loads (HSL's API document §2.6, as issue 43 cites it), so the last load is a top-up
///     transaction of its own, as Metrodroid shows it ("Balance refill" beside the trips).
///   file 1 (period pass), v2: two products of 56 bits at bytes 0 and 7 (code type 1, product code
///     14, area type 2, area 6, start date 14, end date 14); Waltti: two of 80 bits at bytes 0 and 10
///     (region 8, code type 4, product code 14, invoicable 1, zone 6, start 14, end 14).
///   file 4 (history), a record file, records oldest first as Read Records answers them (NXP's
///     DESFire datasheet); the transactions are sorted newest first by time (Waltti's read as v2's,
///     a guess: Metrodroid's layouts are per version):
///     value ticket 1, date 14, time 11, transfer end date 14, time 11,
///     price 14 (cents), passengers 6, remaining value 20.
/// The v1 application (11 20 EF) has other layouts and is not read (HSL's own example library
/// reads only v1 and says it is not usable with the new cards).
enum HSLCard: DESFireFamily {
    static let v2: [UInt8] = [0x14, 0x20, 0xEF]
    static let waltti: [UInt8] = [0x00, 0x10, 0xAB]
    static let aids: [[UInt8]] = [v2, waltti]

    static func read(_ card: DESFireCard, aid: [UInt8]) throws -> CardResult {
        let isWaltti = aid == waltti
        guard let info = try card.file(8, as: .data)?.bytes else { throw PluginError.cardRefused("HSL application info (file 8) could not be read") }
        guard info.count >= 10 else { throw PluginError.malformedResponse("HSL application info (file 8) of \(info.count) bytes") }
        guard let value = try card.file(2, as: .data)?.bytes else { throw PluginError.cardRefused("HSL stored value (file 2) could not be read") }
        var balanceBits = BitReader(value)
        let balance = Int64(try balanceBits.read(20))
        let passes = try card.file(1, as: .data).map { try periodPasses($0.bytes, waltti: isWaltti) } ?? []
        let load = try lastLoad(value)
        let history = try historyRecords(card) + (load.map { [$0] } ?? [])
        // Newest first by time, never by the card's order (Read Records answers oldest first).
        let transactions = history.sorted { $0.0 > $1.0 }.map(\.1)
        let number = String(info.hex.dropFirst(2).prefix(18))
        return CardResult(family: "hsl", cardName: isWaltti ? "Waltti" : "HSL", serialNumber: grouped(number, [6, 4, 4, 4]),
                          balance: balance, currency: "EUR", transactions: transactions, passes: passes)
    }

    /// The stored value file's last load, as a top-up: nil when the file is too short to hold it (a
    /// field the balance does not need) or its date is zero (never loaded).
    static func lastLoad(_ value: Bytes) throws -> (Int64, Transaction)? {
        guard value.count * 8 >= 65 else { return nil }
        var b = BitReader(value)
        _ = try b.read(20)
        let day = try b.read(14), minute = try b.read(11), amount = try b.read(20)
        guard day != 0 else { return nil }
        return (order(day, minute), Transaction(type: .topup, amount: amount, date: time(day, minute),
                                                 metadata: [MetadataKey.event: PluginWords.mark("last load", in: "hsl")], rawPayload: value.hex))
    }

    /// A place in time for sorting: minutes since the epoch.
    static func order(_ day: UInt64, _ minute: UInt64) -> Int64 { Int64(day) * 1440 + Int64(minute) }

    /// Local seconds since 1970 of an EN 1545 date (`EN1545.civilDay`) and `minutes` after its midnight.
    static func localSeconds(_ days: UInt64, _ minutes: UInt64) -> Int64 {
        let day = EN1545.civilDay(days)
        return SummerTimeZone.localSeconds(year: day.year, month: day.month, day: day.day) + Int64(minutes) * 60
    }

    static func date(_ days: UInt64) -> CivilTime? {
        guard days != 0 else { return nil }
        return SummerTimeZone.helsinki.civilTime(localSeconds: localSeconds(days, 0))?.dateOnly
    }

    static func time(_ days: UInt64, _ minutes: UInt64) -> CivilTime? {
        SummerTimeZone.helsinki.civilTime(localSeconds: localSeconds(days, minutes))
    }

    /// The period pass file's products; an all-zero product is none.
    static func periodPasses(_ f: Bytes, waltti: Bool) throws -> [Pass] {
        let (length, offsets) = waltti ? (10, [0, 10]) : (7, [0, 7])
        return try offsets.compactMap { offset in
            let product = try f.slice(offset, length)
            guard product.storage.contains(where: { $0 != 0 }) else { return nil }
            var b = BitReader(product)
            var zones: String?, metadata = [String: String]()
            let code: UInt64
            if waltti {
                let region = try b.read(8); _ = try b.read(4); code = try b.read(14); _ = try b.read(1)
                let zone = try b.read(6)
                metadata["region"] = String(region)
                zones = walttiZones(Int(zone))
            } else {
                _ = try b.read(1); code = try b.read(14)
                let areaType = try b.read(2), area = try b.read(6)
                zones = areaType == 2 ? zoneLetters(area) : "area \(areaType)/\(area)"
            }
            let start = try b.read(14), end = try b.read(14)
            // Waltti marks an unused product slot with start day 999 and end day 0 (Metrodroid HSLKausi).
            if waltti, start == 999, end == 0 { return nil }
            return Pass(name: waltti ? PluginWords.mark("Waltti period pass", in: "hsl") : PluginWords.mark("HSL period pass", in: "hsl"), tariff: String(code),
                        validFrom: date(start), validUntil: date(end), zones: zones, metadata: metadata)
        }
    }

    /// Area type 2 is a zone range: from in bits 3–5, to in bits 0–2, zones lettered from A (HSLLookup).
    static func zoneLetters(_ area: UInt64) -> String {
        let from = Int(area >> 3), to = Int(area & 7)
        guard from <= to else { return "zones \(area)" }
        return String((from ... to).map { Character(Unicode.Scalar(UInt8(65 + $0))) })
    }

    /// A Waltti zone code: 0 none, 1–10 one zone (A…J), then every range start–end of zones 1–10 in
    /// order, 1–2 … 1–10, 2–3 … 9–10 (Metrodroid HSLLookup's validity split; zones lettered from A,
    /// as for most regions: Oulu's and Lahti's own zone names are not applied).
    static func walttiZones(_ code: Int) -> String? {
        let ranges = (1 ... 10).map { ($0, $0) } + (1 ... 10).flatMap { start in (start + 1 ..< 11).map { (start, $0) } }
        guard code >= 1, code <= ranges.count else { return nil }
        let (from, to) = ranges[code - 1]
        func letter(_ n: Int) -> String { String(Character(Unicode.Scalar(UInt8(64 + n)))) }
        return from == to ? letter(from) : "\(letter(from))-\(letter(to))"
    }

    /// File 4's records with their times; a locked or empty file holds none.
    static func historyRecords(_ card: DESFireCard) throws -> [(Int64, Transaction)] {
        guard let content = try card.file(4, as: .records) else { return [] }
        return try content.records(size: 12).compactMap { r in
            guard r.count >= 12, r.storage.contains(where: { $0 != 0 }) else { return nil }
            var b = BitReader(r)
            let valueTicket = try b.read(1), day = try b.read(14), minute = try b.read(11)
            let endDay = try b.read(14), endMinute = try b.read(11), price = try b.read(14), passengers = try b.read(6)
            let remaining = try b.read(20)
            var metadata = ["passengers": String(passengers), "valueTicket": valueTicket == 1 ? "yes" : "no"]
            if endDay != 0, let end = time(endDay, endMinute) { metadata["transferUntil"] = end.iso8601 }
            return (order(day, minute), Transaction(type: .trip, amount: price, date: time(day, minute), metadata: metadata,
                                                    rawPayload: r.hex, balance: Int64(remaining)))
        }
    }
}

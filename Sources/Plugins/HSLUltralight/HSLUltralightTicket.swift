import PluginKit

/// Decodes an HSL Ultralight ticket from pages 4–15 (48 bytes; Metrodroid
/// transit/hsl/HSLUltralightTransitData.kt):
///   page 4: bits 0–3 the application version (1 or 2), bits 4–7 its key version, bytes 1–3 92 46 21;
///   page 5: byte 0 the city (1 Tampere, else HSL), bits 16–19 the serial's last digit, bits
///     20–22 the platform type, bit 23 the security level;
///   bytes 7–47: the eTicket and its last validation (`HSLUltralightLayout`).
/// The printed number: bytes 1–5 in hex, then (UID bytes 1–3 XOR UID bytes 4–6) AND 7FFFFF in
/// seven decimal digits, then that last digit; grouped 6 4 4, the rest after.
enum HSLUltralightTicket {
    /// Page 4 (and the three after it) of an HSL Ultralight ticket.
    static func isTicket(_ header: Bytes) throws -> Bool {
        let version = try header.u8(0) >> 4, marker = try header.be(1, 3)
        return (1 ... 2).contains(version) && marker == 0x92_4621
    }

    static func decode(_ raw: Bytes, uid: Bytes) throws -> CardResult {
        let version = Int(try raw.u8(0) >> 4), city = Int(try raw.u8(4)), page5Byte2 = try raw.u8(6)
        let metadata = ["applicationVersion": String(version), "applicationKeyVersion": String(try raw.u8(0) & 0x0F),
                        "platformType": String(page5Byte2 >> 1 & 0x07), "securityLevel": String(page5Byte2 & 0x01),
                        "city": String(city)]
        let eTicket = try raw.slice(7, 41)
        var passes = [Pass](), transactions = [Transaction]()
        if eTicket.storage.contains(where: { $0 != 0 }) {
            passes.append(try pass(eTicket, version: version, city: city))
            if let validation = try lastValidation(eTicket, version: version, city: city) { transactions.append(validation) }
        }
        return CardResult(family: "hsl", cardName: city == HSLArea.tampere ? "Tampere Ultralight" : "HSL Ultralight",
                          serialNumber: try printedNumber(raw, uid: uid), balance: nil, currency: "EUR",
                          metadata: metadata, transactions: transactions, passes: passes)
    }

    static func printedNumber(_ raw: Bytes, uid: Bytes) throws -> String {
        let mixed = (try uid.be(1, 3) ^ uid.be(4, 3)) & 0x7F_FFFF
        let seven = String(mixed), last = String(try raw.u8(6) >> 4)
        let digits = try raw.slice(1, 5).hex + String(repeating: "0", count: max(0, 7 - seven.count)) + seven + last
        var groups = [String](), rest = Substring(digits)
        for size in [6, 4, 4] {
            groups.append(String(rest.prefix(size)))
            rest = rest.dropFirst(size)
        }
        return (groups + (rest.isEmpty ? [] : [String(rest)])).joined(separator: " ")
    }

    /// A date and time, nil when both are zero (Metrodroid En1545FixedInteger.parseTime).
    static func time(_ day: UInt64?, _ minute: UInt64?) -> CivilTime? {
        let d = day ?? 0, m = minute ?? 0
        guard d != 0 || m != 0 else { return nil }
        return SummerTimeZone.helsinki.civilTime(en1545Date: d, minutes: m)
    }

    static func pass(_ eTicket: Bytes, version: Int, city: Int) throws -> Pass {
        let v = try EN1545.parse(version == 2 ? HSLUltralightLayout.eTicketV2 : HSLUltralightLayout.eTicketV1, eTicket)
        func int(_ name: String) -> Int { Int(clamping: v.integer(name) ?? 0) }
        let area = HSLArea(type: int("areaType"), value: int("area"), city: city, validity: true)
        let languages = [PluginWords.mark("Finnish", in: "hsl"), PluginWords.mark("Swedish", in: "hsl"), PluginWords.mark("English", in: "hsl")]
        var metadata = ["period": period(int("period"), units: int("periodUnits")),
                        "language": languages.indices.contains(int("language")) ? languages[int("language")] : "language \(int("language"))",
                        // TRANSLATORS: a ticket's passenger profile.
                        "profile": int("child") == 1 ? PluginWords.mark("child", in: "hsl") : PluginWords.mark("adult", in: "hsl"),
                        "price": euros(int("price")), "passengers": String(int("passengers")),
                        "saleDevice": "\(int("saleDeviceType"))/\(int("saleDevice"))"]
        if let sale = v.integer("saleDate"), sale != 0, let day = SummerTimeZone.helsinki.civilTime(en1545Date: sale, minutes: nil) {
            metadata["saleDate"] = day.iso8601
            metadata["saleHour"] = String(int("saleHour"))
        }
        if let area, area.zones == nil { metadata["area"] = area.text }
        if let status = v.integer("validityStatus") { metadata["validityStatus"] = String(status) }
        return Pass(name: name(area), tariff: String(int("product")),
                    validFrom: time(v.integer("startDate"), v.integer("startTime")),
                    validUntil: time(v.integer("endDate"), v.integer("endTime")),
                    zones: area?.zones, metadata: metadata)
    }

    /// The eTicket's name, marked for the family's catalog (`PluginWords`): the zones it is valid in
    /// are the pass's zones, `%1$s` in the msgid; a region's or mode's name (`HSLArea.names`) is
    /// not a msgid of its own, so "eTicket for Helsinki" stays English in every language.
    static func name(_ area: HSLArea?) -> String {
        guard let area else { return PluginWords.mark("eTicket", in: "hsl") }
        guard let zones = area.zones else { return "eTicket for \(area.text)" }
        // TRANSLATORS: %1$s is the zone's letter (B) or the zones' letters (AB).
        return PluginWords.fill(zones.count == 1 ? PluginWords.mark("eTicket for zone %1$s", in: "hsl")
                                                 : PluginWords.mark("eTicket for zones %1$s", in: "hsl"), zones)
    }

    /// The eTicket's last validation, or nil when it has none (date and time zero).
    static func lastValidation(_ eTicket: Bytes, version: Int, city: Int) throws -> Transaction? {
        var reader = BitReader(eTicket, startingAtByte: HSLUltralightLayout.validationByte)
        let v = try EN1545.parse(version == 2 ? HSLUltralightLayout.validationV2 : HSLUltralightLayout.validationV1, from: &reader)
        guard let date = time(v.integer("date"), v.integer("time")) else { return nil }
        func int(_ name: String) -> Int { Int(clamping: v.integer(name) ?? 0) }
        let location = int("location")
        var metadata = ["vehicle": String(int("vehicle")), "direction": String(int("direction")),
                        "route": String(location % 1000), "mode": mode(location: location)]
        if let area = HSLArea(type: int("areaType"), value: int("area"), city: city, validity: false) { metadata["area"] = area.text }
        let raw = try eTicket.slice(HSLUltralightLayout.validationByte, 8)
        return Transaction(type: .trip, date: date, metadata: metadata, rawPayload: raw.hex)
    }

    /// The mode a boarding location number stands for (Metrodroid HSLTransaction `mode`): 1300 metro,
    /// 1019 ferry, 1000–1010 tram, 3000–3999 train, any other a bus.
    static func mode(location: Int) -> String {
        switch location {
        case 1300: return PluginWords.mark("metro", in: "hsl")
        case 1019: return PluginWords.mark("ferry", in: "hsl")
        case 1000 ... 1010: return PluginWords.mark("tram", in: "hsl")
        case 3000 ... 3999: return PluginWords.mark("train", in: "hsl")
        default: return PluginWords.mark("bus", in: "hsl")
        }
    }

    /// A validity period: units 0 minutes, 1 hours, 2 days of 24 hours, 3 calendar days (Metrodroid
    /// HSLArvo `formatPeriod`).
    static func period(_ n: Int, units: Int) -> String {
        switch units {
        case 0: return "\(n) min"
        case 1: return "\(n) h"
        case 2: return "\(n) × 24 h"
        default: return "\(n) calendar days"
        }
    }

    static func euros(_ cents: Int) -> String { "\(cents / 100).\(cents % 100 < 10 ? "0" : "")\(cents % 100)" }
}

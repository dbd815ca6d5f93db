import PluginKit

/// Decodes a Nextfare Ultralight ticket (Metrodroid transit/nextfareul/NextfareUltralightTransitData.kt):
///   page 4: bytes 0–2 the header (0A 04 00 / 0A 08 00); byte 1 the ticket type (08 concession,
///     else regular); byte 3 the low byte of the base date;
///   page 5: byte 0 the high byte of the base date; byte 2 bits 0–6 the product;
///   page 7: bytes 0–1, little-endian, the machine that issued it;
///   pages 8–15: two records (`NextfareRecord`); the newer one holds the balance and the expiry.
/// The base date is a 16-bit packed date: bits 9–15 years after 2000, bits 5–8 the month, bits 0–4
/// the day; record dates count back from it, local time of the network's city.
/// The printed number: UID bytes 1–6 as one big-endian number plus 10^15, then its Luhn digit,
/// written as 20 digits in groups of four (Metrodroid `getSerial` / `formatSerial`).
enum NextfareTicket {
    static func decode(header: Bytes, records pages: Bytes, uid: Bytes, network: NextfareNetwork) throws -> CardResult {
        let baseLow = try header.u8(3), baseHigh = try header.u8(4)
        let baseDate = Int(baseHigh) << 8 | Int(baseLow)
        let type = try header.u8(1), productCode = Int(try header.u8(6) & 0x7F)
        let issuer = Int(try header.le(12, 2))
        let records = try [0, 16].compactMap { try NextfareRecord(pages, at: $0) }
        // Newest first: the page-12 record when it is newer than the page-8 one (Metrodroid's choice of the later record).
        let ordered = records.count == 2 && records[1].isNewer(than: records[0]) ? [records[1], records[0]] : records
        let newest = ordered.first
        let baseDay = baseLocalSeconds(baseDate)
        var metadata = ["ticketType": type == 0x08 ? "concession" : "regular",
                        "product": network.productNames[productCode] ?? Hex.string([UInt8(productCode)]),
                        "productCode": Hex.string([UInt8(productCode)]),
                        "machineCode": Hex.string(UInt16(issuer))]
        if baseDay == nil { metadata["baseDate"] = "not a date (\(Hex.string(UInt16(baseDate))))" }
        let expiry = newest.flatMap { r in
            baseDay.flatMap { network.zone.civilTime(localSeconds: $0 - Int64(r.expiryDaysBack) * 86_400)?.dateOnly }
        }
        let transactions = journeys(ordered, baseDay: baseDay, network: network)
        return CardResult(family: network.family, cardName: network.cardName, serialNumber: try printedNumber(uid),
                          balance: Int64(newest?.balance ?? 0), currency: network.currency, validUntil: expiry,
                          metadata: metadata, transactions: transactions)
    }

    /// Local seconds since 1970 of the base date's midnight, or nil when it names no day.
    static func baseLocalSeconds(_ packed: Int) -> Int64? {
        let year = 2000 + packed >> 9, month = packed >> 5 & 0xF, day = packed & 0x1F
        guard CivilTime(year: year, month: month, day: day, utcOffset: 0) != nil else { return nil }
        return SummerTimeZone.localSeconds(year: year, month: month, day: day)
    }

    /// The records, newest first, as transactions: a tap on and the tap off that follows it (the next
    /// sequence number, same route, neither on a bus) make one journey (Metrodroid
    /// NextfareUltralightTransaction `shouldBeMerged` / `isSameTrip`).
    static func journeys(_ newestFirst: [NextfareRecord], baseDay: Int64?, network: NextfareNetwork) -> [Transaction] {
        if newestFirst.count == 2 {
            let off = newestFirst[0], on = newestFirst[1]
            let onBus = network.isBus(route: on.route) || network.isBus(route: off.route)
            if !onBus, on.tap(onBus: false) == "on", off.tap(onBus: false) == "off", off.sequence == (on.sequence + 1) & 0x7F,
               on.route == off.route {
                var journey = transaction(on, baseDay: baseDay, network: network)
                journey.exitStation = off.location == 0 ? nil : String(off.location)
                journey.metadata["tap"] = "on, off"
                if let end = date(off, baseDay: baseDay, network: network) { journey.metadata["tapOff"] = end.iso8601 }
                journey.balance = Int64(off.balance)
                journey.rawPayload = off.raw.hex + on.raw.hex
                return [journey]
            }
        }
        return newestFirst.map { transaction($0, baseDay: baseDay, network: network) }
    }

    /// A record's local date and time: its day counted back from the base date, plus its minutes.
    static func date(_ r: NextfareRecord, baseDay: Int64?, network: NextfareNetwork) -> CivilTime? {
        baseDay.flatMap { network.zone.civilTime(localSeconds: $0 - Int64(r.daysBack) * 86_400 + Int64(r.minutes) * 60) }
    }

    static func transaction(_ r: NextfareRecord, baseDay: Int64?, network: NextfareNetwork) -> Transaction {
        let onBus = network.isBus(route: r.route)
        let tap = r.tap(onBus: onBus)
        let date = date(r, baseDay: baseDay, network: network)
        let station = r.location == 0 ? nil : String(r.location)
        var metadata = ["mode": network.mode(route: r.route), "route": Hex.string([UInt8(r.route)]),
                        "machineCode": Hex.string(UInt16(r.machine)), "sequence": String(r.sequence)]
        if let tap { metadata["tap"] = tap }
        return Transaction(type: r.route == 0 ? .purchase : .trip, date: date,
                           entryStation: tap == "off" ? nil : station, exitStation: tap == "off" ? station : nil,
                           metadata: metadata, rawType: String(r.recordType), rawPayload: r.raw.hex, balance: Int64(r.balance))
    }

    /// The 20-digit printed number, in groups of four.
    static func printedNumber(_ uid: Bytes) throws -> String {
        let serial = try uid.be(1, 6) + 1_000_000_000_000_000
        let digits = String(serial * 10 + UInt64(luhnDigit(String(serial))))
        let padded = String(repeating: "0", count: max(0, 20 - digits.count)) + digits
        return stride(from: 0, to: padded.count, by: 4).map { i in
            String(padded.dropFirst(i).prefix(4))
        }.joined(separator: " ")
    }

    /// The Luhn check digit for `digits`: from the right, every other digit doubled starting with
    /// the last (its digits summed), and the digit that brings the total to a multiple of ten.
    static func luhnDigit(_ digits: String) -> Int {
        let sum = digits.reversed().enumerated().reduce(0) { total, item in
            let d = Int(item.element.asciiValue ?? 48) - 48
            let v = item.offset % 2 == 0 ? d * 2 : d
            return total + (v > 9 ? v - 9 : v)
        }
        return (10 - sum % 10) % 10
    }
}

import PluginKit

/// Bilhete Único (São Paulo, SPTrans), MIFARE Classic 1K. Facts from Metrodroid transit/bilhete_unico
/// (BilheteUnicoSPTransitData, BilheteUnicoSPTrip, BilheteUnicoSPFirstTap, BilheteUnicoSPRefill):
/// - recognised when sectors 5–8 blocks 1 and 2 are value blocks whose address byte is 4·sector+1,
///   and sector 3 or sector 4 (two copies of the last trip) has a CRC16-IBM of zero over its three
///   data blocks (FACTORY.earlyCheck);
/// - number: sector 2 block 0 bytes 3–7 (40 bits, big-endian) printed as bits 36–39 in two digits,
///   "0 ", then bits 4–35 in nine digits (formatSerial), e.g. "110 243123151";
/// - balance: sector 8 block 1, the value block's value (bytes 0–3 little-endian), centavos;
/// - sector 8 block 0 (bits MSB first): 2–15 last top-up day, 29–39 its amount (centavos),
///   44–57 top-up counter;
/// - last trip sector (3, or 4 when 3 fails its CRC), block 0: 0–7 transport, 8–27 place, 28–47
///   line, 48–61 trip counter; block 1: 36–51 fare (centavos), 76–89 day, 90–100 minute; block 2:
///   2–15 day, 16–26 minute, 27–35 line of the journey's first tap (shown when it differs);
/// - sector 2 block 0 bits 2–15: a day Metrodroid shows as "Date 1" (not the issue date).
/// Days count from 2000-01-01 in São Paulo wall-clock time (SaoPauloTime).
enum BilheteUnicoPlugin: CardFamilyPlugin {
    static let name = "bilhete-unico"
    static let technology: CardTechnology = .mifareClassic

    /// Transport codes (Metrodroid BilheteUnicoSPTrip: BUS = 0xb4, TRAM = 0x78).
    static let bus: UInt64 = 0xB4, tram: UInt64 = 0x78
    /// The line a bus trip records when its place field holds the route (Metrodroid BilheteUnicoSPTrip).
    static let busRouteInPlace: UInt64 = 0x38222

    static func read(_ card: CardLink) throws -> CardResult {
        guard card.classicSectorCount >= 16, let s5 = try card.classicSectorBytes(5), try valueBlocks(s5, sector: 5) else {
            throw PluginError.notThisCard
        }
        var credit: Bytes?
        for n in 6 ... 8 {
            guard let s = try card.classicSectorBytes(n) else {
                throw PluginError.locked("Bilhete Único sector \(n) is locked")
            }
            guard try valueBlocks(s, sector: n) else { throw PluginError.notThisCard }
            if n == 8 { credit = s }
        }
        let s3 = try card.classicSectorBytes(3), s4 = try card.classicSectorBytes(4)
        if s3 == nil, s4 == nil { throw PluginError.locked("Bilhete Único sectors 3 and 4 are locked") }
        let lastTrip: Bytes
        if let s3, try crcIsZero(s3) { lastTrip = s3 } else if let s4, try crcIsZero(s4) { lastTrip = s4 } else {
            throw PluginError.notThisCard
        }
        guard let credit else { throw PluginError.internal("sector 8 not kept") }
        guard let s2 = try card.classicSectorBytes(2) else { throw PluginError.locked("Bilhete Único sector 2 is locked") }

        let id = try s2.block(0)
        let serial = try id.be(3, 5)
        let printed = zeroPadded(serial >> 36, 2) + "0 " + zeroPadded((serial >> 4) & 0xFFFF_FFFF, 9)
        let c0 = try credit.block(0)
        let refillDay = try bits(c0, 2, 14), refillAmount = try bits(c0, 29, 11), refills = try bits(c0, 44, 14)
        let balance = Int32(bitPattern: UInt32(try credit.block(1).le(0, 4)))

        let t0 = try lastTrip.block(0), t1 = try lastTrip.block(1), t2 = try lastTrip.block(2)
        let transport = try bits(t0, 0, 8), place = try bits(t0, 8, 20), line = try bits(t0, 28, 20)
        let trips = try bits(t0, 48, 14)
        let fare = try bits(t1, 36, 16), day = try bits(t1, 76, 14), minute = try bits(t1, 90, 11)
        let firstDay = try bits(t2, 2, 14), firstMinute = try bits(t2, 16, 11), firstLine = try bits(t2, 27, 9)

        var transactions: [Transaction] = []
        if day != 0 {
            let routeInPlace = transport == bus && line == busRouteInPlace
            transactions.append(Transaction(type: .trip, amount: fare, date: SaoPauloTime.time(day: day, minute: minute),
                                            entryStation: routeInPlace ? nil : "place \(hex(place))",
                                            metadata: ["mode": mode(transport), "transport": hex(transport),
                                                       "line": hex(routeInPlace ? place : line)],
                                            rawType: hex(transport), rawPayload: t0.hex + t1.hex))
        }
        if firstDay != day || firstMinute != minute {
            let firstMode = firstLine >> 5 == 1 ? "bus" : firstLine >> 5 == 2 ? "tram" : "other"
            transactions.append(Transaction(type: .trip, date: SaoPauloTime.time(day: firstDay, minute: firstMinute),
                                            metadata: ["mode": firstMode, "line": hex(firstLine), "tap": "first tap of the journey"],
                                            rawType: "first tap", rawPayload: t2.hex))
        }
        if refillDay != 0 {
            transactions.append(Transaction(type: .topup, amount: refillAmount, date: SaoPauloTime.date(day: refillDay),
                                            rawType: "top-up", rawPayload: c0.hex))
        }
        transactions.sort { ($0.date?.iso8601 ?? "") > ($1.date?.iso8601 ?? "") }
        var metadata = ["tripCounter": String(trips), "topUpCounter": String(refills),
                        "lastTripSector": lastTrip == s3 ? "3" : "4"]
        if let date1 = SaoPauloTime.date(day: try bits(id, 2, 14)) { metadata["date1"] = date1.iso8601 }
        return CardResult(family: name, cardName: "Bilhete Único", serialNumber: printed, balance: Int64(balance),
                          currency: "BRL", metadata: metadata, transactions: transactions)
    }

    /// Blocks 1 and 2 of `sector` are MIFARE value blocks whose address byte is 4·sector + 1
    /// (Metrodroid checkValueBlock: value, its complement, value; address, ¬address, address, ¬address).
    static func valueBlocks(_ s: Bytes, sector: Int) throws -> Bool {
        let address = UInt8(truncatingIfNeeded: sector * 4 + 1)
        for n in 1 ... 2 {
            let b = try s.block(n).storage
            let value = Array(b[0 ..< 4]), inverse = Array(b[4 ..< 8]), copy = Array(b[8 ..< 12])
            guard value == copy, zip(value, inverse).allSatisfy({ $0 == ~$1 }),
                  b[12] == address, b[14] == address, b[13] == ~address, b[15] == ~address else { return false }
        }
        return true
    }

    /// CRC-16/IBM (reflected polynomial 0xA001, initial 0) of the sector's three data blocks is zero
    /// (Metrodroid checkCRC16Sector over ClassicSector.allData, which leaves out the trailer).
    static func crcIsZero(_ s: Bytes) throws -> Bool {
        var crc: UInt16 = 0
        for byte in try s.slice(0, 48).storage {
            crc ^= UInt16(byte)
            for _ in 0 ..< 8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xA001 : crc >> 1 }
        }
        return crc == 0
    }

    /// `count` bits from bit `offset` of a block, MSB first.
    static func bits(_ block: Bytes, _ offset: Int, _ count: Int) throws -> UInt64 {
        var r = BitReader(block)
        var skip = offset
        while skip > 0 { _ = try r.read(min(skip, 64)); skip -= min(skip, 64) }
        return try r.read(count)
    }

    static func mode(_ transport: UInt64) -> String { transport == bus ? "bus" : transport == tram ? "tram" : "other" }
    static func hex(_ v: UInt64) -> String { String(v, radix: 16) }
    static func zeroPadded(_ v: UInt64, _ width: Int) -> String {
        let s = String(v)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }
}

@_cdecl("transit_plugin_entry_v1")
public func transitPluginEntry(_ hostVersion: UInt32) -> UnsafeRawPointer? { PluginExport.entry(BilheteUnicoPlugin.self, hostVersion) }

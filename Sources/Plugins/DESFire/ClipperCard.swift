import PluginKit

/// Clipper (San Francisco Bay Area): application 90 11 F2, files anyone may read (Metrodroid
/// ClipperTransitData / ClipperTrip / ClipperRefill, Metroflip clipper.c; facts only): file 1 bytes
/// 8–9 expiry, days since 1900-01-01 · file 2 bytes 18–19 balance, signed US cents · file 8 bytes
/// 1–4 serial · file 4 refills and file 0E trips, 32-byte records (trips: agency 2–3, fare 6–7,
/// vehicle 10–11, tap on 12–15, tap off 16–19, from 20–21, to 22–23, route 28–29, transport 30–31;
/// refills: agency 2–3, time 4–7, machine 8–11, amount 14–15). Times are seconds since
/// 1900-01-01T00:00Z, shown in America/Los_Angeles. A record whose agency (trips) or time (refills)
/// is zero is empty.
enum ClipperCard: DESFireFamily {
    static let aids: [[UInt8]] = [[0x90, 0x11, 0xF2]]
    static let recordLength = 32
    /// Seconds from 1900-01-01 to 1970-01-01 (70 years, 17 of them leap).
    static let epoch1900: Int64 = 2_208_988_800

    static func read(_ card: DESFireCard, aid: [UInt8]) throws -> CardResult {
        // Each file read by the type its layout documents, and by the type the card reports when the card
        // refuses that: the refill file (4) is a record file (FareBot's published Clipper dump), read by
        // its settings (a standard file then reads as 32-byte records too); Read Data of a record file is
        // refused with 91 7E (issue 43). Files 8 and 2 are needed; 1, 4 and 0E are optional.
        guard let identity = try card.file(8, as: .data)?.bytes else { throw PluginError.cardRefused("Clipper file 8 (serial) could not be read") }
        guard let purse = try card.file(2, as: .data)?.bytes else { throw PluginError.cardRefused("Clipper file 2 (balance) could not be read") }
        guard identity.count >= 5 else { throw PluginError.malformedResponse("Clipper file 8 of \(identity.count) bytes holds no serial") }
        guard purse.count >= 20 else { throw PluginError.malformedResponse("Clipper file 2 of \(purse.count) bytes holds no balance") }
        let expiry = try card.file(1, as: .data).flatMap { file -> UInt64? in
            let b = file.bytes
            return b.count >= 10 ? try b.be(8, 2) : nil
        }
        let refills = try card.file(4, as: .records).map { try $0.records(size: recordLength).compactMap(refill) } ?? []
        let trips = try card.file(0x0E, as: .data).map { try $0.records(size: recordLength).compactMap(trip) } ?? []
        // Newest first by time, whatever order the card keeps them in.
        let all = (refills + trips).sorted { $0.0 > $1.0 }.map(\.1)
        return CardResult(family: "clipper", cardName: "Clipper", serialNumber: String(try identity.be(1, 4)),
                          balance: try purse.signedBE(18, 2), currency: "USD",
                          validUntil: expiry.flatMap(expiryDate),
                          transactions: all)
    }

    /// A count of days is a calendar day, not an instant: day n after 1900-01-01 (shown at midnight UTC
    /// in Los Angeles it would fall on the day before).
    static func expiryDate(_ days: UInt64) -> CivilTime? {
        guard days != 0 else { return nil }
        return CivilTime(seconds: Int64(days) * 86_400, sinceYear: 1900, month: 1, day: 1, utcOffset: SummerTimeZone.losAngeles.standardOffset)?.dateOnly
    }

    static func instant(_ seconds: UInt64) -> CivilTime? {
        SummerTimeZone.losAngeles.civilTime(utcSeconds: Int64(seconds) - epoch1900)
    }

    /// A refill with its time (for the newest-first order), or nil for an empty record.
    static func refill(_ r: Bytes) throws -> (UInt64, Transaction)? {
        guard r.count >= recordLength else { return nil }
        let time = try r.be(4, 4)
        guard time != 0 else { return nil }
        return (time, Transaction(type: .topup, amount: try r.be(14, 2), date: instant(time),
                                  metadata: ["agency": Hex.string(UInt16(try r.be(2, 2))), "machine": try r.slice(8, 4).hex],
                                  rawPayload: r.hex))
    }

    /// A station code; 0 (buses record none) is no station.
    static func station(_ code: UInt64) -> String? { code == 0 ? nil : Hex.string(UInt16(code)) }

    /// A trip with its tap-on time, or nil for an empty record.
    static func trip(_ r: Bytes) throws -> (UInt64, Transaction)? {
        guard r.count >= recordLength else { return nil }
        let agency = try r.be(2, 2), on = try r.be(12, 4)
        guard agency != 0 else { return nil }
        var metadata = ["agency": Hex.string(UInt16(agency)), "transport": Hex.string(UInt16(try r.be(30, 2)))]
        let off = try r.be(16, 4)
        if off != 0, let exit = instant(off) { metadata["tapOff"] = exit.iso8601 }
        let vehicle = try r.be(10, 2)
        if vehicle != 0, vehicle != 0xFFFF { metadata["vehicle"] = String(vehicle) }
        return (on, Transaction(type: .trip, amount: try r.be(6, 2), date: instant(on),
                                entryStation: station(try r.be(20, 2)), exitStation: off == 0 ? nil : station(try r.be(22, 2)),
                                metadata: metadata, rawType: Hex.string(UInt16(try r.be(30, 2))), rawPayload: r.hex))
    }
}

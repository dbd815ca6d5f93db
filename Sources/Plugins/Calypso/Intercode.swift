import PluginKit

/// The Intercode networks of France: environment, contract list → contracts (passes), counters,
/// event log and special events (trips), local times in Europe/Paris (docs/research/calypso-desfire-china.md §"EN 1545 layout", §"Intercode networks").
struct Intercode {
    let files: CalypsoFiles
    let network: UInt64
    let zone = SummerTimeZone.paris

    /// Card names by network ID (Metrodroid CalypsoRegistry / IntercodeTransitData, docs/research/calypso-desfire-china.md §"Intercode networks").
    static let names: [UInt64: String] = [
        0x250901: "Navigo", 0x250908: "KorriGo", 0x250502: "OùRA", 0x250064: "TaM", 0x250000: "Pass Pass", 0x250916: "Tisséo",
    ]
    /// Navigo's network ID: its carnets keep the trips left in the counter's bits above 18
    /// (Metrodroid #848, docs/research/calypso-desfire-china.md §"EN 1545 layout").
    static let navigo: UInt64 = 0x250901

    static func cardName(_ network: UInt64) -> String {
        names[network] ?? "Intercode (France) \(hexDigits(network & 0xFFF, 3))"
    }

    func read(_ environment: [Bytes], into result: inout CardResult) throws {
        result.cardName = Self.cardName(network)
        var bits = BitReader(Bytes(environment.flatMap(\.storage)))
        let env = try EN1545.parse(IntercodeLayout.environment, from: &bits)
        if let end = env.integer("validityEnd") { result.validUntil = zone.civilTime(en1545Date: end, minutes: nil) }
        // The holder's data after it, where it parses: personal, so under keys the host strips.
        if let holder = try? EN1545.parse(IntercodeLayout.holder, from: &bits) {
            for (key, value) in Self.personal(holder) { result.metadata[MetadataKey.personal(key)] = value }
        }
        result.passes = try passes()
        let log = try files.records(CalypsoPlugin.SFI.eventLog, limit: 3) ?? []
        let special = try files.records(CalypsoPlugin.SFI.specialEvents, limit: 4) ?? []
        let trips = log.compactMap { trip($0, special: false) } + special.compactMap { trip($0, special: true) }
        result.transactions = trips.sorted { $0.order > $1.order }.map(\.transaction)
    }

    /// Name, forename, birth date of the holder, where the card holds them.
    static func personal(_ holder: EN1545Values) -> [String: String] {
        var out = [String: String]()
        for key in ["surname", "forename", "birthName", "birthPlace"] {
            if let s = holder.string(key), !s.isEmpty { out[key] = s }
        }
        // Birth date: BCD YYYYMMDD in 32 bits.
        if let bcd = holder.integer("birthDate"), let v = BCD.value(Bytes((0 ..< 4).map { UInt8(bcd >> UInt64(24 - 8 * $0) & 0xFF) })),
           let day = CivilTime(year: v / 10000, month: v / 100 % 100, day: v % 100, utcOffset: 0) {
            out["birthDate"] = day.iso8601
        }
        return out
    }

    // MARK: passes

    /// The contract list's entries, the contracts they point to and their counters.
    func passes() throws -> [Pass] {
        guard let list = try files.records(CalypsoPlugin.SFI.contractList, limit: 1)?.first else { return [] }
        let entries = try IntercodeLayout.contractList(list)
        guard let last = entries.map(\.pointer).max(),
              let records = try files.records(CalypsoPlugin.SFI.contracts, limit: last) else { return [] }
        // The common counters record, read once, when the first carnet needs it.
        var common: Bytes?, commonRead = false
        var out = [Pass]()
        for entry in entries where entry.pointer <= records.count {
            let record = records[entry.pointer - 1]
            if record.storage.allSatisfy({ $0 == 0 }) { continue }
            // A contract whose bits do not fit its layout (a network's variant) is still a pass: its
            // tariff and raw record, so the rest of the card is not lost with it.
            guard let contract = try? EN1545.parse(IntercodeLayout.contract(tariff: entry.tariff), record) else {
                files.card.log("contract \(entry.pointer) does not fit layout \(hexDigits(entry.tariff >> 4 & 0xFF, 2)): kept raw")
                out.append(Pass(tariff: hexDigits(entry.tariff, 4), metadata: ["contractPointer": String(entry.pointer), "raw": record.hex]))
                continue
            }
            var pass = pass(contract, tariff: entry.tariff, pointer: entry.pointer)
            if Self.isCarnet(contract) {
                if !commonRead {
                    common = try files.records(CalypsoPlugin.SFI.counters, limit: 1)?.first
                    commonRead = true
                }
                pass.remainingTrips = try trips(contract, pointer: entry.pointer, common: common)
            }
            out.append(pass)
        }
        return out
    }

    func pass(_ c: EN1545Values, tariff listTariff: UInt64, pointer: Int) -> Pass {
        let tariff = c.integer("tariff") ?? listTariff
        var pass = Pass(tariff: hexDigits(tariff, 4))
        pass.validFrom = c.integer("startDate").flatMap { zone.civilTime(en1545Date: $0, minutes: c.integer("startTime")) }
        pass.validUntil = c.integer("endDate").flatMap { zone.civilTime(en1545Date: $0, minutes: c.integer("endTime")) }
        pass.zones = c.integer("zones").flatMap(Self.zones)
        if let status = c.integer("status") {
            // Contract status: 0 not yet used, 1 in use, FF expired or invalidated (Metrodroid En1545Subscription).
            pass.status = [0: .unused, 1: .valid, 0xFF: .invalid][status]
            pass.metadata["status"] = hexDigits(status, 2)
        }
        if let price = c.integer("price") { pass.metadata["price"] = Self.euros(price) }
        if let provider = c.integer("provider") { pass.metadata["provider"] = String(provider) }
        pass.metadata["contractPointer"] = String(pointer)
        return pass
    }

    /// A carnet: a contract sold as a number of journeys.
    static func isCarnet(_ c: EN1545Values) -> Bool {
        (c.integer("journeys") ?? 0) != 0 || ((c.integer("sold") ?? 0) != 0 && (c.integer("debitSold") ?? 0) != 0)
    }

    /// Trips left: the contract's counter (24 bits), from the common counters file (3 bytes a contract)
    /// or its own counter file 0A–0D; Navigo keeps them above bit 18; a contract sold in units divides
    /// by the units a trip debits (Metrodroid IntercodeSubscription).
    func trips(_ c: EN1545Values, pointer: Int, common: Bytes?) throws -> UInt32? {
        var counter: UInt64?
        if let common, common.count >= pointer * 3 {
            counter = try common.be((pointer - 1) * 3, 3)
        } else if let own = try files.records(CalypsoPlugin.SFI.firstCounter + UInt8(pointer - 1), limit: 1)?.first, own.count >= 3 {
            counter = try own.be(0, 3)
        }
        guard let counter else { return nil }
        if network == Self.navigo { return UInt32(counter >> 18) }
        if let sold = c.integer("sold"), sold != 0, let debit = c.integer("debitSold"), debit != 0 { return UInt32(counter / debit) }
        return UInt32(truncatingIfNeeded: counter)
    }

    /// Zone bitmap → "1-5", "1,3": bit n (least significant first) is zone n+1 (Metrodroid En1545Subscription).
    static func zones(_ mask: UInt64) -> String? {
        let zones = (0 ..< 16).filter { mask >> UInt64($0) & 1 == 1 }.map { $0 + 1 }
        guard let first = zones.first else { return nil }
        var runs = [(first, first)]
        for z in zones.dropFirst() {
            if let last = runs.last, z == last.1 + 1 { runs[runs.count - 1].1 = z } else { runs.append((z, z)) }
        }
        return runs.map { $0 == $1 ? "\($0)" : "\($0)-\($1)" }.joined(separator: ",")
    }

    /// Cents as euros, "86.40".
    static func euros(_ cents: UInt64) -> String {
        let c = cents % 100
        return "\(cents / 100).\(c < 10 ? "0" : "")\(c)"
    }

    // MARK: trips

    /// The event word of a record of the special events file (anomalies: a refused validation…).
    // TRANSLATORS: a record of the card's special events file (an anomaly, a refused validation).
    static let specialEvent = PluginWords.mark("special", in: "calypso")

    /// A validation (event log) or a special event, and its place in time for sorting.
    func trip(_ record: Bytes, special: Bool) -> (order: UInt64, transaction: Transaction)? {
        if record.storage.allSatisfy({ $0 == 0 }) { return nil }
        // An event whose bits do not fit the layout is kept raw, oldest, rather than ending the read.
        guard let e = try? EN1545.parse(IntercodeLayout.event, record) else {
            files.card.log("an event does not fit the Intercode layout: kept raw")
            return (0, Transaction(type: .unknown, metadata: special ? [MetadataKey.event: Self.specialEvent] : [:], rawPayload: record.hex))
        }
        guard let date = e.integer("date") else { return nil }
        let minutes = e.integer("time")
        var t = Transaction(type: .trip, date: zone.civilTime(en1545Date: date, minutes: minutes), rawPayload: record.hex)
        t.amount = e.integer("price")
        t.entryStation = e.integer("location").map { hexDigits($0, 4) }
        t.rawType = e.integer("code").map { hexDigits($0, 2) }
        t.metadata[MetadataKey.network] = hexDigits(e.integer("network") ?? network, 6)
        if let route = e.integer("route") { t.metadata["route"] = String(route) }
        if let pointer = e.integer("contractPointer") { t.metadata["contractPointer"] = String(pointer) }
        if special { t.metadata[MetadataKey.event] = Self.specialEvent }
        return (date * 1440 + (minutes ?? 0), t)
    }
}

import PluginKit

/// Podorozhnik (St Petersburg), MIFARE Classic 1K and 4K (the same sectors on both). Recognised
/// only by the key that opened sector 4 (no data rule is known). Layout from Metrodroid
/// transit/podorozhnik/PodorozhnikTransitData.kt (Flipper plantain.c agrees on the offsets), all
/// little-endian: sector 4 block 0 bytes 0–3 balance (kopecks); block 2 bytes 2–4 last top-up
/// (minutes since 2010-01-01 00:00 Moscow time), 5 its agency, 6–7 its machine, 8–10 its amount.
/// Sector 5 block 0 bytes 0–2 last trip (minutes), 3 transport, 4–5 validator, 6–9 fare; blocks 1
/// and 2, copies of which the newer counts: byte 0 metro trips, 1 ground trips, 2–4 a trip's time.
enum PodorozhnikPlugin: CardFamilyPlugin {
    static let name = "podorozhnik"
    static let technology: CardTechnology = .mifareClassic
    static let options = [PluginOption.keyDigests]

    /// Salted digests of sector 4's keys A and B (PodorozhnikTransitData.kt KEY_SALT,
    /// KEY_DIGEST_A, KEY_DIGEST_B). The keys themselves are not shipped.
    static let keySalt = "podorozhnik"
    static let shippedDigests = ["f3267ff451b1fc3076ba12dcee2bf803", "3823b5f0b45f3519d0ce4a8b5b9f1437"]
    static let moscow = 3 * 3600

    static func read(_ card: CardLink) throws -> CardResult {
        guard card.technology == .mifareClassic || card.classicSectorCount > 0, card.classicSectorCount > 5 else {
            throw PluginError.notThisCard
        }
        let digests = card.classicKeyDigests(shipped: shippedDigests)
        guard try card.classicKeyMatches(sector: 4, salt: keySalt, digests: digests) == true else { throw PluginError.notThisCard }
        guard let purse = try card.classicSector(4).map(Bytes.init) else {
            throw PluginError.locked("a Podorozhnik card whose sector 4 could not be read again: read it with the card's keys (--keys FILE)")
        }
        guard let trips = try card.classicSector(5).map(Bytes.init) else {
            throw PluginError.locked("a Podorozhnik card (sector 4's key says so), but sector 5, where its trips are, stays locked: "
                + "read it with the card's keys (--keys FILE)")
        }
        let number = try printedNumber(card)

        let balance = Int64(Int32(bitPattern: UInt32(try purse.le(0, 4))))
        var transactions = [Transaction]()
        let topUpTime = Int(try purse.le(32 + 2, 3))
        if topUpTime != 0 {
            let agency = try purse.u8(32 + 5), machine = try purse.le(32 + 6, 2)
            transactions.append(Transaction(type: .topup, amount: try purse.le(32 + 8, 3), date: time(topUpTime),
                                            metadata: ["agency": agency == 1 ? "Podorozhnik top-up" : "agency \(agency)", "machine": String(machine)]))
        }
        let lastTrip = Int(try trips.le(0, 3))
        if lastTrip != 0 {
            let transport = Int(try trips.u8(3)), validator = Int(try trips.le(4, 2))
            var trip = Transaction(type: .trip, amount: try trips.le(6, 4), date: time(lastTrip),
                                   metadata: ["mode": mode(transport, validator), "validator": String(validator)])
            if transport == 1 && validator != 0 {  // metro: station in the upper bits, gate in the low 6 (PodorozhnikTrip.kt)
                trip.metadata["station"] = String(validator >> 6)
                trip.metadata["gate"] = String(validator & 0x3F)
            }
            transactions.append(trip)
        }
        // Blocks 1 and 2 each keep a trip's time; one that is not the last trip is an earlier one.
        let copies = [try trips.slice(16, 16), try trips.slice(32, 16)]
        let copyTimes = try copies.map { Int(try $0.le(2, 3)) }
        var seen = Set([lastTrip, 0])
        for t in copyTimes where !seen.contains(t) {
            seen.insert(t)
            transactions.append(Transaction(type: .trip, date: time(t), metadata: ["note": "an earlier trip: the card keeps only its time"]))
        }
        let counters = copyTimes[1] > copyTimes[0] ? copies[1] : copies[0]
        transactions.sort { ($0.date?.iso8601 ?? "") > ($1.date?.iso8601 ?? "") }
        return CardResult(family: "podorozhnik", cardName: "Podorozhnik", serialNumber: number, balance: balance, currency: "RUB",
                          metadata: ["metroTrips": String(try counters.u8(0)), "groundTrips": String(try counters.u8(1)),
                                     "cardType": card.classicSectorCount > 16 ? "4K" : "1K"],
                          transactions: transactions)
    }

    /// "9643 3078", the 7 bytes of block 0 read little-endian as 17 digits grouped 4 4 4 4 1, and a
    /// Luhn digit over all (Metrodroid getSerial). A 7-byte UID is block 0's first 7 bytes, so
    /// sector 0 is read only for a card with a 4-byte UID.
    static func printedNumber(_ card: CardLink) throws -> String {
        var head = card.uid
        if head.count != 7 {
            guard let sector0 = try card.classicSector(0) else {
                throw PluginError.locked("a Podorozhnik card whose sector 0 (its number) stays locked: read it with the card's keys (--keys FILE)")
            }
            head = Array(sector0.prefix(7))
        }
        guard head.count == 7 else { throw PluginError.malformedResponse("block 0 of \(head.count) bytes") }
        let value = head.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let digits = String(value), padded = String(repeating: "0", count: max(0, 17 - digits.count)) + digits
        let all = "96433078" + padded
        var groups = [String](), rest = Substring(padded)
        for size in [4, 4, 4, 4] { groups.append(String(rest.prefix(size))); rest = rest.dropFirst(size) }
        return "9643 3078 " + groups.joined(separator: " ") + " " + rest + String(luhnDigit(all))
    }

    /// The digit that makes `digits` + it pass the Luhn check.
    static func luhnDigit(_ digits: String) -> Int {
        var sum = 0
        for (i, c) in digits.reversed().enumerated() {
            let d = c.wholeNumberValue ?? 0
            sum += i % 2 == 0 ? (d * 2 > 9 ? d * 2 - 9 : d * 2) : d
        }
        return (10 - sum % 10) % 10
    }

    /// Minutes since 2010-01-01 00:00 in Moscow time (Metrodroid PODOROZHNIK_EPOCH: 2010 UTC minus 3 hours).
    static func time(_ minutes: Int) -> CivilTime? {
        CivilTime(seconds: Int64(minutes) * 60, sinceYear: 2010, month: 1, day: 1, utcOffset: moscow)
    }

    /// The vehicle of a trip (PodorozhnikTrip.kt): 1 metro (validator 0: a misconfigured bus
    /// validator), 3 and 4 bus, 7 shared taxi.
    static func mode(_ transport: Int, _ validator: Int) -> String {
        switch transport {
        case 1: return validator == 0 ? "bus" : "metro"
        case 3, 4: return "bus"
        case 7: return "shared taxi"
        default: return "transport \(transport)"
        }
    }
}

@_cdecl("transit_plugin_entry_v1")
public func transitPluginEntry(_ hostVersion: UInt32) -> UnsafeRawPointer? { PluginExport.entry(PodorozhnikPlugin.self, hostVersion) }

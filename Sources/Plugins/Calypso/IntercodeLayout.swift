import PluginKit

/// Intercode's EN 1545 layouts (docs/research/calypso-desfire-china.md §"EN 1545 layout"; field widths from Metrodroid
/// `intercode/IntercodeTransitData.kt`, `IntercodeSubscription.kt`, `IntercodeTransaction.kt`,
/// facts only). Names are this plugin's own.
enum IntercodeLayout {
    /// Environment (SFI 07 record 1): version 6, bitmap(7) {network 24, issuer 8, validity end,
    /// pay method 11, authenticator 16, select list 32, {card status 1}}.
    static let environment: [EN1545Field] = [
        .integer("version", bits: 6),
        .bitmap([.integer("network", bits: 24), .integer("issuer", bits: 8), .date("validityEnd"),
                 .integer("payMethod", bits: 11), .integer("authenticator", bits: 16), .integer("selectList", bits: 32),
                 .container([.integer("cardStatus", bits: 1)])]),
    ]

    /// The holder part after the environment: bitmap(8) {names {surname 85, forename 85}, birth
    /// {BCD date 32, place 115}, birth name 85, ID 32, country 24, company 32, 2 × profile {network 24,
    /// number 8, date}, data {card type 4, …}}. Only what comes before the profiles is decoded.
    static let holder: [EN1545Field] = [
        .bitmap([.bitmap([.string("surname", bits: 85), .string("forename", bits: 85)]),
                 .bitmap([.integer("birthDate", bits: 32), .string("birthPlace", bits: 115)]),
                 .string("birthName", bits: 85), .integer("holderID", bits: 32), .integer("country", bits: 24),
                 .integer("company", bits: 32), .rest, .rest]),
    ]

    /// The contract list (SFI 1E) is an EN 1545 repeat: a 4-bit count, then that many entries
    /// (Metrodroid `IntercodeTransitData.contractListFields = En1545Repeat(4, …)`, whose
    /// `En1545Repeat` reads its counter first; FareBot's port the same).
    static let listCountBits = 4
    /// One entry of the contract list: bitmap(3) {network 24, tariff 16, pointer 5}.
    static let listEntry: [EN1545Field] = [
        .bitmap([.integer("network", bits: 24), .integer("tariff", bits: 16), .integer("pointer", bits: 5)]),
    ]

    /// The contract list's entries with a tariff and a pointer to a contract record (1–4 in Intercode's
    /// contracts file); an entry that runs past the record ends the list, what came before it kept.
    static func contractList(_ record: Bytes) throws -> [(tariff: UInt64, pointer: Int)] {
        var bits = BitReader(record)
        let count = try bits.read(listCountBits)
        var out = [(tariff: UInt64, pointer: Int)]()
        for _ in 0 ..< count {
            guard let e = try? EN1545.parse(listEntry, from: &bits) else { break }
            if let tariff = e.integer("tariff"), let pointer = e.integer("pointer"), (1 ... 4).contains(pointer) {
                out.append((tariff, Int(pointer)))
            }
        }
        return out
    }

    /// Contract layout FF (tariff bits 4–11 = FF).
    static let contractFF: [EN1545Field] = [
        .bitmap([
            .integer("network", bits: 24), .integer("provider", bits: 8), .integer("tariff", bits: 16), .integer("serial", bits: 32),
            .bitmap([.integer("customerProfile", bits: 6), .integer("customerNumber", bits: 32)]),
            .bitmap([.integer("passengerClass", bits: 8), .integer("passengerTotal", bits: 8)]),
            .integer("vehicleClass", bits: 6), .integer("paymentPointer", bits: 32), .integer("payMethod", bits: 11),
            .integer("services", bits: 16), .integer("price", bits: 16), .integer("priceUnit", bits: 16),
            .bitmap([.time("restrictStart"), .time("restrictEnd"), .integer("restrictDay", bits: 8),
                     .integer("restrictTimeCode", bits: 8), .integer("restrictCode", bits: 8),
                     .integer("restrictProduct", bits: 16), .integer("restrictLocation", bits: 16)]),
            .bitmap([.date("startDate"), .time("startTime"), .date("endDate"), .time("endTime"),
                     .integer("duration", bits: 8), .date("limitDate"), .integer("zones", bits: 8),
                     .integer("journeys", bits: 16), .integer("periodJourneys", bits: 16)]),
            .bitmap([.integer("origin", bits: 16), .integer("destination", bits: 16), .integer("routeNumbers", bits: 16),
                     .integer("routeVariants", bits: 8), .integer("run", bits: 16), .integer("via", bits: 16),
                     .integer("distance", bits: 16), .integer("interchange", bits: 8)]),
            .bitmap([.date("saleDate"), .time("saleTime"), .integer("saleAgent", bits: 8), .integer("saleDevice", bits: 16)]),
            .integer("status", bits: 8), .integer("loyaltyPoints", bits: 16), .integer("authenticator", bits: 16), .rest,
        ]),
    ]

    /// Layouts 20 and 46 share their start: the common part, then a bitmap of extras.
    private static func common(_ extra: EN1545Field) -> [EN1545Field] {
        [.bitmap([.integer("provider", bits: 8), .integer("tariff", bits: 16), .integer("serial", bits: 32),
                  .integer("passengerClass", bits: 8), .bitmap([.date("startDate"), .date("endDate")]),
                  .integer("status", bits: 8), extra])]
    }

    private static let extras20: [EN1545Field] = [
        .container([.integer("origin1", bits: 16), .integer("via1", bits: 16), .integer("destination1", bits: 16)]),
        .container([.integer("origin2", bits: 16), .integer("destination2", bits: 16)]),
        .integer("zones", bits: 16),
        .container([.date("saleDate"), .integer("saleDevice", bits: 16), .integer("saleAgent", bits: 8)]),
        .container([.integer("payMethod", bits: 11), .integer("price", bits: 16), .integer("receipt", bits: 1)]),
        .integer("passengerTotal", bits: 6),
        .container([.integer("endPeriod", bits: 14), .integer("soldPeriod", bits: 6)]),
        .container([.integer("sold", bits: 8), .integer("debitSold", bits: 5)]),
        .integer("vehicleClass", bits: 4), .integer("linkedContract", bits: 5),
    ]

    /// Layout 20 (tariff bits 4–11 = 20).
    static let contract20 = common(.bitmap(extras20))
    /// Layout 46: layout 20's extras and more.
    static let contract46 = common(.bitmap(extras20 + [
        .time("startTime"), .time("endTime"), .date("endInhibition"), .date("validityLimit"),
        .integer("geoLine", bits: 28), .integer("journeys", bits: 16), .integer("saleSecureDevice", bits: 32),
    ]))
    /// Any other tariff: the common part only.
    static let contractOther = common(.rest)

    /// The contract layout a tariff code picks: its bits 4–11 (docs/research/calypso-desfire-china.md §"EN 1545 layout").
    static func contract(tariff: UInt64) -> [EN1545Field] {
        switch tariff >> 4 & 0xFF {
        case 0xFF: return contractFF
        case 0x20: return contract20
        case 0x46: return contract46
        default: return contractOther
        }
    }

    /// An event (SFI 08, event log; SFI 1D, special events): date 14, time 11, bitmap(28).
    static let event: [EN1545Field] = [
        .date("date"), .time("time"),
        .bitmap([
            .integer("display", bits: 8), .integer("network", bits: 24), .integer("code", bits: 8), .integer("result", bits: 8),
            .integer("provider", bits: 8), .integer("notOkCounter", bits: 8), .integer("serial", bits: 24),
            .integer("destination", bits: 16), .integer("location", bits: 16), .integer("gate", bits: 8),
            .integer("device", bits: 16), .integer("route", bits: 16), .integer("routeVariant", bits: 8),
            .integer("run", bits: 16), .integer("vehicle", bits: 16), .integer("vehicleClass", bits: 8),
            .integer("locationType", bits: 5), .string("employee", bits: 240), .integer("locationReference", bits: 16),
            .integer("interchanges", bits: 8), .integer("periodJourneys", bits: 16), .integer("totalJourneys", bits: 16),
            .integer("distance", bits: 16), .integer("price", bits: 16), .integer("priceUnit", bits: 16),
            .integer("contractPointer", bits: 5), .integer("authenticator", bits: 16), .rest,
        ]),
    ]
}

import PluginKit

/// ORCA (Seattle; Metrodroid OrcaTransitData / OrcaTransaction, facts only): application FF FF FF
/// file 0F bytes 4–7 serial; application 30 10 F2 file 4 bytes 41–42 balance (US cents), record
/// files 2 (trips) and 3 (top-ups), bit fields MSB first: 24–27 agency · 28–59 time (seconds since
/// 1970-01-01T00:00Z, shown in America/Los_Angeles) · 60–67 fare product type · 68–91 coach or
/// station · 120–134 fare (cents) · 136–143 transaction type (03 tap on, 07 tap off, 01 cancel) ·
/// 272–287 balance after. The ORCA system moved balances online in 2022 (Metrodroid #814): cards
/// issued since keep their balance in the account, so the balance the card stores may be stale.
enum ORCACard: DESFireFamily {
    static let aids: [[UInt8]] = [[0x30, 0x10, 0xF2]]
    static let serialApplication: [UInt8] = [0xFF, 0xFF, 0xFF]
    static let staleNotice = "ORCA cards issued since 2022 keep their balance online: the balance stored on the card may be stale"

    static func read(_ card: DESFireCard, aid: [UInt8]) throws -> CardResult {
        guard let purse = try card.file(4, as: .data)?.bytes else { throw PluginError.cardRefused("ORCA file 4 (balance) could not be read") }
        guard purse.count >= 43 else { throw PluginError.malformedResponse("ORCA file 4 of \(purse.count) bytes holds no balance") }
        let trips = try history(card, file: 2, topUp: false), topUps = try history(card, file: 3, topUp: true)
        // The serial lives in another application: selected last, as ORCA's own application is the probe.
        try card.selectApplication(serialApplication)
        guard let identity = try card.file(0x0F, as: .data)?.bytes else { throw PluginError.cardRefused("ORCA serial file could not be read") }
        guard identity.count >= 8 else { throw PluginError.malformedResponse("ORCA serial file of \(identity.count) bytes") }
        // Newest first by time, whatever order the card answers its records in.
        let all = (trips + topUps).sorted { $0.0 > $1.0 }.map(\.1)
        return CardResult(family: "orca", cardName: "ORCA", serialNumber: String(try identity.be(4, 4)),
                          balance: Int64(try purse.be(41, 2)), currency: "USD",
                          metadata: ["notice": staleNotice], transactions: all)
    }

    /// The record size of ORCA's history files (48 bytes: Metrodroid's OrcaTest file settings
    /// `04 00 32E4 300000 …`), used when a card keeps them in a standard file.
    static let recordLength = 48

    /// A record file's transactions with their times; an absent (locked) or empty file holds none
    /// (an empty record file answers Read Records with `91 BE`, NXP's DESFire datasheet: no records).
    static func history(_ card: DESFireCard, file: UInt8, topUp: Bool) throws -> [(UInt64, Transaction)] {
        guard let content = try card.file(file, as: .records) else { return [] }
        return try content.records(size: recordLength).compactMap { r in
            guard r.count >= 36 else { return nil }
            var bits = BitReader(r, startingAtByte: 3)
            let agency = try bits.read(4), time = try bits.read(32), product = try bits.read(8), coach = try bits.read(24)
            guard time != 0 else { return nil }
            var fareBits = BitReader(r, startingAtByte: 15)
            let fare = try fareBits.read(15)
            var typeBits = BitReader(r, startingAtByte: 17)
            let kind = try typeBits.read(8)
            var balanceBits = BitReader(r, startingAtByte: 34)
            let after = try balanceBits.read(16)
            let type: TransactionType = topUp ? .topup : .trip
            var metadata = ["agency": String(agency), "product": Hex.string([UInt8(product)]), "transactionType": Hex.string([UInt8(kind)])]
            if !topUp { metadata[kind == 0x07 ? "tapOff" : kind == 0x01 ? "cancelled" : "tapOn"] = "yes" }
            return (time, Transaction(type: type, amount: fare, date: SummerTimeZone.losAngeles.civilTime(utcSeconds: Int64(time)),
                                      entryStation: topUp ? nil : String(coach), metadata: metadata,
                                      rawType: Hex.string([UInt8(kind)]), rawPayload: r.hex, balance: Int64(after)))
        }
    }
}

import PluginKit

/// Troika (Moscow): the MIFARE Classic card's purse (layouts E/3 and E/5) and the Ultralight
/// ticket with its pass. Recognised by data first: the Troika mark in sector 8 or 4 (Classic) or
/// page 4 (Ultralight); failing that, by the key that opened Classic sector 1.
enum TroikaPlugin: CardFamilyPlugin {
    static let name = "troika"
    static let technology: CardTechnology = .mifareClassic
    static let technologies: [CardTechnology] = [.mifareClassic, .mifareUltralight]
    static let options = [PluginOption.keyDigests]

    /// Salted digest of Troika's sector 1 key (Metrodroid transit/troika/TroikaHybridTransitData.kt,
    /// earlyCheck: HashUtils.checkKeyHash(sectors[1], "troika", …)). The key itself is not shipped.
    static let keySalt = "troika"
    static let shippedDigests = ["0045ccfe4749673d77273162e8d53015"]
    /// The sectors whose block 0 may start a Troika ticket, in Metrodroid's order (mainBlocks).
    static let ticketSectors = [8, 4]

    static func read(_ card: CardLink) throws -> CardResult {
        if card.technology == .mifareUltralight { return try readUltralight(card) }
        guard card.technology == .mifareClassic || card.classicSectorCount > 0 else { throw PluginError.notThisCard }
        return try readClassic(card)
    }

    /// Sector 8, then 4: the first whose data is a Troika block; else sector 1's key decides
    /// whether the card is a Troika whose ticket sectors are locked.
    static func readClassic(_ card: CardLink) throws -> CardResult {
        var locked = [Int]()
        for sector in ticketSectors where sector < card.classicSectorCount {
            guard let data = try card.classicSector(sector) else { locked.append(sector); continue }
            let payload = Array(data.prefix(TroikaBlock.byteCount))
            if TroikaBlock.isTroika(payload) {
                return result(try TroikaBlock(payload), metadata: ["sector": String(sector)])
            }
        }
        let digests = card.classicKeyDigests(shipped: shippedDigests)
        guard card.classicSectorCount > 1, try card.classicKeyMatches(sector: 1, salt: keySalt, digests: digests) == true else {
            throw PluginError.notThisCard
        }
        guard locked.isEmpty else {
            let named = locked.map(String.init).joined(separator: " and ")
            throw PluginError.locked("a Troika card (sector 1's key says so), but sector\(locked.count > 1 ? "s" : "") \(named), "
                + "where its tickets are, stay\(locked.count > 1 ? "" : "s") locked: read it with the card's keys (--keys FILE)")
        }
        card.log("sector 1's key is Troika's, but sectors 8 and 4 hold no Troika ticket (an unformatted card)")
        throw PluginError.notThisCard
    }

    /// Pages 4–7 first (the mark is in page 4), then 8–15.
    static func readUltralight(_ card: CardLink) throws -> CardResult {
        let head = try card.ultralightPages(4, count: 4)
        guard TroikaBlock.isTroika(head) else { throw PluginError.notThisCard }
        let rest = try card.ultralightPages(8, count: 8)
        return result(try TroikaBlock(head + rest), metadata: [:])
    }

    /// The reading of one ticket block: its validations (and E/5's last top-up) newest first.
    static func result(_ block: TroikaBlock, metadata extra: [String: String]) -> CardResult {
        var transactions = block.validations.map { v in
            var metadata = [String: String]()
            metadata["mode"] = v.mode
            metadata["validator"] = v.validator.map(String.init)
            metadata["fare"] = v.fare
            return Transaction(type: .trip, date: v.time, metadata: metadata)
        }
        if let refill = block.lastRefill {
            transactions.append(Transaction(type: .topup, date: refill, metadata: ["note": PluginWords.mark("the card keeps the time of its last top-up, not the amount", in: "troika")]))
        }
        // Every time is in UTC+3, so the ISO 8601 text sorts as the time does.
        transactions.sort { ($0.date?.iso8601 ?? "") > ($1.date?.iso8601 ?? "") }
        return CardResult(family: "troika", cardName: "Troika", serialNumber: block.number, balance: block.balance, currency: "RUB",
                          validUntil: block.expiry, metadata: block.metadata.merging(extra) { a, _ in a },
                          transactions: transactions, passes: block.pass.map { [$0] } ?? [])
    }
}

@_cdecl("transit_plugin_entry_v1")
public func transitPluginEntry(_ hostVersion: UInt32) -> UnsafeRawPointer? { PluginExport.entry(TroikaPlugin.self, hostVersion) }

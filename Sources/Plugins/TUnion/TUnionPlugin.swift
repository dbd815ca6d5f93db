import PluginKit

/// China T-Union (交通联合) purses, also carried by third-generation social-security cards.
/// AID, GET BALANCE, file 0x15 and the SFI 0x18 log: Metrodroid TUnionTransitData / ChinaCard /
/// ChinaTrip, NFCard TUnion.java, and a public social-security card read (facts only;
/// docs/research/felica-iso.md §"T-Union card number").
enum TUnionPlugin: CardFamilyPlugin {
    static let name = "tunion"
    static let technology: CardTechnology = .iso7816

    static let aid: [UInt8] = [0xA0, 0x00, 0x00, 0x06, 0x32, 0x01, 0x01, 0x05]
    /// GET BALANCE of the primary purse (P1 00) and the negative purse (P1 01), P2 02, Le 4; the top bit
    /// of the answer is not part of the amount (Metrodroid TUnionTransitData).
    static let primaryBalance = ChinaPurse.getBalance
    static let negativeBalance: [UInt8] = [0x80, 0x5C, 0x01, 0x02, 0x04]
    /// File 0x15 (PBOCIdentityFile) from offset 10, 18 bytes: the card number (10 bytes) and validity
    /// (2 × 4 BCD bytes), as a public social-security card read does (docs/research/felica-iso.md
    /// §"T-Union card number"); cards that refuse that form get the whole file.
    static let cardNumberRead = APDU.readBinary(sfi: PBOCIdentityFile.sfi, offset: 10, length: 18)

    static func read(_ card: CardLink) throws -> CardResult {
        let (_, fci) = try ISOApplication.selectFirst(card, [aid])
        // Once selected, a rejected GET BALANCE or any other failure ends the read.
        let primary = try card.transmit(primaryBalance)
        try primary.require("GET BALANCE")
        // A card that rejects the negative-purse command with a status word has no negative purse.
        let negative = try card.transmit(negativeBalance)
        let owed = negative.isSuccess ? try purse(negative) : 0
        // The SELECT answer may carry file 0x15 already: then no READ BINARY is sent. An FCI that does
        // not parse (some cards' templates overrun) or lacks it gets the READ BINARY, as before.
        let file: Bytes
        if let copy = PBOCIdentityFile.copy(in: fci) {
            file = try copy.slice(10, 18)
        } else {
            file = try issuerFile(card)
        }
        let log = try ChinaPurse.log(card)
        return CardResult(cardName: "T-Union", serialNumber: try file.slice(0, 10).hex, balance: try purse(primary) - owed,
                          currency: "CNY", validFrom: BCD.civilTime(try file.slice(10, 4), utcOffset: Zone.china),
                          validUntil: BCD.civilTime(try file.slice(14, 4), utcOffset: Zone.china),
                          transactions: try log.compactMap { try PBOCLogRecord.decode($0) })
    }

    /// A purse value in fen (ChinaPurse).
    static func purse(_ answer: APDUResponse) throws -> Int64 { try ChinaPurse.amount(answer) }

    /// Bytes 10–27 of file 0x15: the 18-byte read, or the whole file from byte 10.
    static func issuerFile(_ card: CardLink) throws -> Bytes {
        let short = try card.transmit(cardNumberRead)
        if short.isSuccess, short.data.count >= 18 { return short.data }
        return try PBOCIdentityFile.readWhole(card).slice(10, 18)
    }
}

/// The plugin's entry point (transit_reader.h).
@_cdecl("transit_plugin_entry_v1")
public func transitPluginEntry(_ hostVersion: UInt32) -> UnsafeRawPointer? { PluginExport.entry(TUnionPlugin.self, hostVersion) }

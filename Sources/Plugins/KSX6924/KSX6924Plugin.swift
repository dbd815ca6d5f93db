import PluginKit

/// KS X 6924 purses (Korea: T-Money, Cashbee, MOIBA, K-Cash) and Wellington's Snapper, which answers
/// the T-Money AID. AIDs, purse info, GET BALANCE and record layout: Metrodroid KSX6924Application /
/// KSX6924PurseInfo / TMoneyTrip / SnapperTransitData, Proxmark3 ksx6924core.c (facts only).
enum KSX6924Plugin: CardFamilyPlugin {
    static let name = "ksx6924"
    static let technology: CardTechnology = .iso7816

    /// AIDs in probe order, with the card each names (Metrodroid KSX6924Application.APP_NAME; EB Card
    /// from the CardBal AID table quoted in CoreExtendedNFC's transit-card research notes).
    static let applications: [(aid: [UInt8], cardName: String)] = [
        ([0xD4, 0x10, 0x00, 0x00, 0x03, 0x00, 0x01], "T-Money"),
        ([0xD4, 0x10, 0x00, 0x00, 0x14, 0x00, 0x01], "Cashbee"),
        ([0xD4, 0x10, 0x00, 0x00, 0x29, 0x00, 0x00, 0x01], "EB Card"),
        ([0xD4, 0x10, 0x00, 0x00, 0x30, 0x00, 0x01], "MOIBA"),
        ([0xD4, 0x10, 0x65, 0x09, 0x90, 0x00, 0x20], "K-Cash"),
    ]
    /// GET BALANCE: `90 4C 00 00 04`, a 4-byte big-endian answer.
    static let getBalance: [UInt8] = [0x90, 0x4C, 0x00, 0x00, 0x04]
    /// Transaction records: SFI 4, 46 bytes each, record 1 newest.
    static let transactionSFI: UInt8 = 4
    /// A bound on READ RECORD commands (cards seen hold 8 to 20).
    static let recordLimit = 50

    static func read(_ card: CardLink) throws -> CardResult {
        // Every T-Money, Cashbee and Snapper ATR seen shows application data (docs/research/pcsc.md
        // §"Historical bytes"): a card whose historical bytes are `80` alone is spared five SELECTs.
        try card.skipWhenNoApplicationData(name)
        let (aid, fci) = try ISOApplication.selectFirst(card, applications.map(\.aid))
        // From here on, every failure ends the read (docs/specification.md §"Detection fallback": only applicationNotFound moves on).
        guard let purseInfo = try TLV.find([0xB0], in: fci) else {
            throw PluginError.malformedResponse("the SELECT answer holds no purse information (tag B0)")
        }
        let info = try KSX6924PurseInfo(purseInfo)
        let answer = try card.transmit(getBalance)
        try answer.require("GET BALANCE")
        guard answer.data.count == 4 else { throw PluginError.malformedResponse("GET BALANCE returned \(answer.data.count) bytes") }
        let balance = Int64(try answer.data.be(0, 4))
        let records = try ISOApplication.readRecords(card, sfi: transactionSFI, limit: recordLimit)

        // Snapper answers the T-Money AID, and every SFI 4 record carries its FF filler in bytes 26–45
        // (Metrodroid SnapperTransitData check); its balance is in NZD cents, its trips not decoded.
        if aid == applications[0].aid, !records.isEmpty, try records.allSatisfy(KSX6924Record.hasSnapperFiller) {
            return CardResult(family: "snapper", cardName: "Snapper", serialNumber: info.serialNumber, balance: balance,
                              currency: "NZD", validFrom: info.issued, validUntil: info.expires)
        }
        let cardName = applications.first { $0.aid == aid }?.cardName
        return CardResult(cardName: cardName, serialNumber: info.serialNumber, balance: balance, currency: "KRW",
                          validFrom: info.issued, validUntil: info.expires,
                          transactions: try records.compactMap(KSX6924Record.decode))
    }
}

/// The plugin's entry point (transit_reader.h).
@_cdecl("transit_plugin_entry_v1")
public func transitPluginEntry(_ hostVersion: UInt32) -> UnsafeRawPointer? { PluginExport.entry(KSX6924Plugin.self, hostVersion) }

import PluginKit

/// Singapore CEPAS (EZ-Link, NETS FlashPay): SELECT file 4000, GET PURSE, then the purse's
/// transaction log. Commands and layouts from Metrodroid CEPASProtocol / CEPASPurse and a real
/// card's PC/SC log (javacard-cepas), facts only.
enum CEPASPlugin: CardFamilyPlugin {
    static let name = "cepas"
    static let technology: CardTechnology = .iso7816

    /// Purse 3 holds the EZ-Link balance, card number and log (Metrodroid CEPASTransitData).
    static let purse: UInt8 = 3
    /// Status words of GET PURSE that mean "no CEPAS purse here" (docs/specification.md §"Detection fallback").
    static let notCEPAS: Set<UInt16> = [0x6A81, 0x6A82, 0x6D00, 0x6E00]

    static func read(_ card: CardLink) throws -> CardResult {
        // Every CEPAS ATR seen is a type B card's, its ATQB in the historical bytes, never `80` alone
        // (docs/research/pcsc.md §"Historical bytes"): a DESFire card is spared the SELECT.
        try card.skipWhenNoApplicationData(name)
        // Any status-word rejection of SELECT 4000 means "not CEPAS"; transport failures are thrown.
        guard try card.transmit(APDU.selectFile(0x4000)).isSuccess else { throw PluginError.notThisCard }
        // GET PURSE, the five-byte form: 90 32 <purse> 00 00.
        let answer = try card.transmit([0x90, 0x32, purse, 0x00, 0x00])
        if notCEPAS.contains(answer.sw) { throw PluginError.notThisCard }
        try answer.require("GET PURSE")
        let purseRecord = try CEPASPurse(answer.data)
        let log = try readLog(card, records: purseRecord.logRecordCount)
        return CardResult(cardName: purseRecord.issuerName ?? "CEPAS", serialNumber: purseRecord.can, balance: purseRecord.balance,
                          currency: "SGD", validFrom: purseRecord.created, validUntil: purseRecord.expires,
                          transactions: try log.map(CEPASTransaction.decode))
    }

    /// The transaction log, newest first: `90 32 <purse> 00 01 <offset> 00` returns up to 16 records
    /// a command (Le 00 = 256 bytes), so a 30-record log takes two commands (Metrodroid getHistory).
    static func readLog(_ card: CardLink, records: Int) throws -> [Bytes] {
        var out = [Bytes]()
        while out.count < records {
            let answer = try card.transmit([0x90, 0x32, purse, 0x00, 0x01, UInt8(out.count), 0x00])
            try answer.require("reading the transaction log")
            guard answer.data.count % 16 == 0, !answer.data.isEmpty else {
                throw PluginError.malformedResponse("transaction log of \(answer.data.count) bytes is not whole 16-byte records")
            }
            for i in 0 ..< answer.data.count / 16 where out.count < records { out.append(try answer.data.slice(16 * i, 16)) }
            if answer.data.count < 256 { break } // the card had no more
        }
        return out
    }
}

/// The plugin's entry point (transit_reader.h).
@_cdecl("transit_plugin_entry_v1")
public func transitPluginEntry(_ hostVersion: UInt32) -> UnsafeRawPointer? { PluginExport.entry(CEPASPlugin.self, hostVersion) }

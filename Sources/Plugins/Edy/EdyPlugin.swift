import PluginKit

/// Rakuten Edy, a purse of the FeliCa common area FE00. Service codes and layouts: Metrodroid
/// EdyTransitData / EdyTrip, TRETJapanNFCReader RakutenEdyCardData, felica-look edy.h (facts only).
enum EdyPlugin: CardFamilyPlugin {
    static let name = "edy"
    static let technology: CardTechnology = .felica
    static let systemCodes: [UInt16] = [0xFE00]

    /// Balance: block 0, bytes 0–3 little-endian.
    static let balanceService: UInt16 = 0x1317
    /// Card info: block 0, bytes 2–9 the Edy number, bytes 10–13 the issue time (Metrodroid wiki,
    /// from WDIC; felica-reader-rcs660s prints it as 発行日).
    static let infoService: UInt16 = 0x110B
    /// History: six records, block 0 newest.
    static let historyService: UInt16 = 0x170F
    static let historyBlocks = 6

    static func read(_ card: CardLink) throws -> CardResult {
        let purse = try FeliCaPurse(card, systemCode: 0xFE00, balanceService: balanceService,
                                    others: [(infoService, [0]), (historyService, Array(0 ..< historyBlocks))])
        let info = purse.block(infoService)
        return CardResult(cardName: "Rakuten Edy", serialNumber: try info?.slice(2, 8).hex ?? purse.idm,
                          balance: Int64(try purse.balanceBlock.le(0, 4)), currency: "JPY",
                          validFrom: try info.flatMap { try EdyRecord.time(UInt32($0.be(10, 4)))?.dateOnly },
                          metadata: [MetadataKey.idm: purse.idm],
                          transactions: try purse.blocks(historyService).compactMap(EdyRecord.decode))
    }
}

/// The plugin's entry point (transit_reader.h).
@_cdecl("transit_plugin_entry_v1")
public func transitPluginEntry(_ hostVersion: UInt32) -> UnsafeRawPointer? { PluginExport.entry(EdyPlugin.self, hostVersion) }

import PluginKit

/// nanaco, a purse of the FeliCa common area FE00. Service codes and layouts: TRETJapanNFCReader
/// NanacoCardData / NanacoCardItemType, felicalib nanaco.c, felica-reader-rcs660s-pico (facts only).
enum NanacoPlugin: CardFamilyPlugin {
    static let name = "nanaco"
    static let technology: CardTechnology = .felica
    static let systemCodes: [UInt16] = [0xFE00]

    /// Balance: block 0, bytes 0–3 little-endian.
    static let balanceService: UInt16 = 0x5597
    /// nanaco number: block 0, bytes 0–7 as 16 digits.
    static let numberService: UInt16 = 0x558B
    /// Points: two blocks; block 1 holds two 24-bit big-endian buckets at bytes 0–2 and 5–7 (TRET).
    static let pointsService: UInt16 = 0x560B
    /// History: five records, block 0 newest.
    static let historyService: UInt16 = 0x564F
    static let historyBlocks = 5

    static func read(_ card: CardLink) throws -> CardResult {
        let purse = try FeliCaPurse(card, systemCode: 0xFE00, balanceService: balanceService,
                                    others: [(numberService, [0]), (pointsService, [0, 1]),
                                             (historyService, Array(0 ..< historyBlocks))])
        var metadata = [MetadataKey.idm: purse.idm]
        let points = purse.blocks(pointsService)
        if points.count == 2 { metadata["points"] = String(try points[1].be(0, 3) + points[1].be(5, 3)) }
        return CardResult(cardName: "nanaco", serialNumber: try purse.block(numberService)?.slice(0, 8).hex ?? purse.idm,
                          balance: Int64(try purse.balanceBlock.le(0, 4)), currency: "JPY", metadata: metadata,
                          transactions: try purse.blocks(historyService).compactMap(NanacoRecord.decode))
    }
}

/// The plugin's entry point (transit_reader.h).
@_cdecl("transit_plugin_entry_v1")
public func transitPluginEntry(_ hostVersion: UInt32) -> UnsafeRawPointer? { PluginExport.entry(NanacoPlugin.self, hostVersion) }

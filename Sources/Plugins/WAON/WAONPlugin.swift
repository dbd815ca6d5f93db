import PluginKit

/// WAON, a purse of the FeliCa common area FE00. Service codes and layouts: TRETJapanNFCReader
/// WaonCardData / WaonCardItemType and felica-reader-rcs660s-pico (facts only; no Metrodroid reader).
enum WAONPlugin: CardFamilyPlugin {
    static let name = "waon"
    static let technology: CardTechnology = .felica
    static let systemCodes: [UInt16] = [0xFE00]

    /// Balance: block 0, bytes 0–1 little-endian (felica-reader-rcs660s; TRET reads 0–3, which agrees
    /// for every balance a WAON can hold, ¥50,000 at most).
    static let balanceService: UInt16 = 0x6817
    /// WAON number: block 0, bytes 0–7 as 16 digits.
    static let numberService: UInt16 = 0x684F
    /// Points: block 0, bytes 0–2 big-endian.
    static let pointsService: UInt16 = 0x684B
    /// History: three records of two blocks each (header, data).
    static let historyService: UInt16 = 0x680B
    static let historyBlocks = 6

    static func read(_ card: CardLink) throws -> CardResult {
        let purse = try FeliCaPurse(card, systemCode: 0xFE00, balanceService: balanceService,
                                    others: [(numberService, [0]), (pointsService, [0]),
                                             (historyService, Array(0 ..< historyBlocks))])
        var metadata = [MetadataKey.idm: purse.idm]
        if let points = purse.block(pointsService) { metadata["points"] = String(try points.be(0, 3)) }
        return CardResult(cardName: "WAON", serialNumber: try purse.block(numberService)?.slice(0, 8).hex ?? purse.idm,
                          balance: Int64(try purse.balanceBlock.le(0, 2)), currency: "JPY", metadata: metadata,
                          transactions: try WAONRecord.decode(purse.blocks(historyService)))
    }
}

/// The plugin's entry point (transit_reader.h).
@_cdecl("transit_plugin_entry_v1")
public func transitPluginEntry(_ hostVersion: UInt32) -> UnsafeRawPointer? { PluginExport.entry(WAONPlugin.self, hostVersion) }

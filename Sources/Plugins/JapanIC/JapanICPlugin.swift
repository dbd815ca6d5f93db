import PluginKit

/// Japan IC (Suica, ICOCA, PASMO and the other cards of the common transit system, FeliCa system 0003).
/// One Read Without Encryption asks for the balance block and as many history blocks as fit.
enum JapanICPlugin: CardFamilyPlugin {
    static let name = "japan-ic"
    static let technology: CardTechnology = .felica
    /// Cybernetics common transit system code (nfcpy tagtool, Metrodroid SuicaTransitData).
    static let systemCodes: [UInt16] = [0x0003]

    /// Balance: service 008B, block 0, bytes 11–12 little-endian (Metrodroid SuicaTransitData, docs/research/felica-iso.md
    /// §"Japan IC history service"; on real cards it equals the newest history record's balance).
    static let balanceService: UInt16 = 0x008B
    /// History: service 090F, 20 blocks, block 0 newest (Metrodroid SuicaTransitData; docs/research/felica-iso.md §"Japan IC history service").
    static let historyService: UInt16 = 0x090F
    static let historySlots = 20

    static func read(_ card: CardLink) throws -> CardResult {
        let system = try FeliCaSystem.open(card, systemCode: 0x0003)
        // A card or dump with fewer readable history blocks gives those it has (up to the first
        // refused one) with its balance; only a refused balance block ends the read.
        let read = try system.readAllowingRefusals([(balanceService, [0]), (historyService, Array(0 ..< historySlots))])
        guard let balanceBlock = read[balanceService]?.blocks.first else {
            throw PluginError.cardRefused("the card refused the balance block of service 008B")
        }
        let history = read[historyService]?.blocks ?? []
        if read[historyService]?.refused == true { card.log("history: \(history.count) of \(historySlots) blocks readable") }
        let balance = try balanceBlock.le(11, 2)
        let idm = Hex.string(system.idm)
        var metadata = [MetadataKey.idm: idm]
        // Which card it is (Suica, PASMO, ICOCA…): one Request Service of each issuer's marker node,
        // after the reads (the IDm is confirmed by then, so silence costs nothing more).
        let issuer = JapanICIssuer.identify(system)
        if let issuer {
            if !issuer.present.isEmpty {
                metadata[MetadataKey.issuerMarkers] = issuer.present.map { Hex.string([UInt8($0 >> 8), UInt8($0 & 0xFF)]) }.joined(separator: " ")
            }
            metadata[MetadataKey.medium] = issuer.onPhone ? MetadataKey.phoneMedium : "card"
        }
        return CardResult(cardName: issuer?.name ?? "Japan IC", serialNumber: idm, balance: Int64(balance), currency: "JPY", metadata: metadata,
                          transactions: try JapanICHistory.decode(history))
    }
}

/// The plugin's entry point (transit_reader.h).
@_cdecl("transit_plugin_entry_v1")
public func transitPluginEntry(_ hostVersion: UInt32) -> UnsafeRawPointer? { PluginExport.entry(JapanICPlugin.self, hostVersion) }

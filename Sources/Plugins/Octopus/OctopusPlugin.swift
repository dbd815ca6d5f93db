import PluginKit

/// Hong Kong Octopus: FeliCa system 8008, balance service 0117 block 0, bytes 0–3 big-endian, in
/// HK$0.10 plus an offset (Metrodroid OctopusTransitData / OctopusData, FareBot OctopusTransitFactory).
///
/// The offset: 350 by default (docs/specification.md §"Amounts and balances"). Metrodroid and FareBot use 350 for scans before
/// 2017-10-01 and 500 after, when the negative-value limit rose from HK$35 to HK$50; another reader
/// ties it to the card's issue date instead. 350 has not been confirmed on a current card, so a
/// deployment sets `balance-offset=500` on the plugin's plugins.conf line.
enum OctopusPlugin: CardFamilyPlugin {
    static let name = "octopus"
    static let technology: CardTechnology = .felica
    static let systemCodes: [UInt16] = [0x8008]
    static let balanceService: UInt16 = 0x0117
    static let defaultOffset: Int64 = 350
    static let options = [PluginOption("balance-offset", .integer)]

    static func read(_ card: CardLink) throws -> CardResult {
        let offset = try balanceOffset(card.option("balance-offset"))
        let system = try FeliCaSystem.open(card, systemCode: 0x8008)
        let block: Bytes
        do {
            guard let b = try system.read([(balanceService, [0])])[balanceService]?.first else {
                throw PluginError.malformedResponse("no balance block")
            }
            block = b
        } catch let status as FeliCaStatus {
            throw PluginError.cardRefused("the card refused the balance read (status \(Hex.string([status.flag1, status.flag2])))")
        }
        let raw = Int64(try block.be(0, 4))
        let idm = Hex.string(system.idm)
        // No printed card number is readable without keys (Metrodroid: serial unknown): the IDm stands in.
        return CardResult(cardName: "Octopus", serialNumber: idm, balance: (raw - offset) * 10, currency: "HKD",
                          metadata: [MetadataKey.idm: idm])
    }

    static func balanceOffset(_ option: String?) throws -> Int64 {
        guard let option else { return defaultOffset }
        guard let value = Int64(option), (0 ... 100_000).contains(value) else {
            throw PluginError.internal("balance-offset=\(option) in plugins.conf is not a whole number of HK$0.10")
        }
        return value
    }
}

/// The plugin's entry point (transit_reader.h).
@_cdecl("transit_plugin_entry_v1")
public func transitPluginEntry(_ hostVersion: UInt32) -> UnsafeRawPointer? { PluginExport.entry(OctopusPlugin.self, hostVersion) }

import PluginKit

/// CharlieCard (Boston, MBTA), MIFARE Classic. (Being written: says "not this card" until then.)
enum CharlieCardPlugin: CardFamilyPlugin {
    static let name = "charliecard"
    static let technology: CardTechnology = .mifareClassic

    static func read(_ card: CardLink) throws -> CardResult {
        throw PluginError.notThisCard
    }
}

@_cdecl("transit_plugin_entry_v1")
public func transitPluginEntry(_ hostVersion: UInt32) -> UnsafeRawPointer? { PluginExport.entry(CharlieCardPlugin.self, hostVersion) }

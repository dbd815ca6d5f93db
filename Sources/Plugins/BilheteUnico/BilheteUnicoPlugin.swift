import PluginKit

/// Bilhete Único (São Paulo), MIFARE Classic. (Being written: says "not this card" until then.)
enum BilheteUnicoPlugin: CardFamilyPlugin {
    static let name = "bilhete-unico"
    static let technology: CardTechnology = .mifareClassic

    static func read(_ card: CardLink) throws -> CardResult {
        throw PluginError.notThisCard
    }
}

@_cdecl("transit_plugin_entry_v1")
public func transitPluginEntry(_ hostVersion: UInt32) -> UnsafeRawPointer? { PluginExport.entry(BilheteUnicoPlugin.self, hostVersion) }

import PluginKit

/// Troika (Moscow): MIFARE Classic layouts E/3 and E/5, and the Ultralight ticket. (Being written: says "not this card" until then.)
enum TroikaPlugin: CardFamilyPlugin {
    static let name = "troika"
    static let technology: CardTechnology = .mifareClassic
    static let technologies: [CardTechnology] = [.mifareClassic, .mifareUltralight]

    static func read(_ card: CardLink) throws -> CardResult {
        throw PluginError.notThisCard
    }
}

@_cdecl("transit_plugin_entry_v1")
public func transitPluginEntry(_ hostVersion: UInt32) -> UnsafeRawPointer? { PluginExport.entry(TroikaPlugin.self, hostVersion) }

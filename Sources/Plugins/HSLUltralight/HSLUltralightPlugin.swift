import PluginKit

/// HSL (Helsinki) Ultralight tickets. (Being written: says "not this card" until then.)
enum HSLUltralightPlugin: CardFamilyPlugin {
    static let name = "hsl-ul"
    static let technology: CardTechnology = .mifareUltralight

    static func read(_ card: CardLink) throws -> CardResult {
        throw PluginError.notThisCard
    }
}

@_cdecl("transit_plugin_entry_v1")
public func transitPluginEntry(_ hostVersion: UInt32) -> UnsafeRawPointer? { PluginExport.entry(HSLUltralightPlugin.self, hostVersion) }

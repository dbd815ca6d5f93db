import PluginKit

/// Cubic Nextfare Ultralight tickets: Compass (Vancouver), Ventra (Chicago). (Being written: says "not this card" until then.)
enum NextfareUltralightPlugin: CardFamilyPlugin {
    static let name = "nextfare-ul"
    static let technology: CardTechnology = .mifareUltralight

    static func read(_ card: CardLink) throws -> CardResult {
        throw PluginError.notThisCard
    }
}

@_cdecl("transit_plugin_entry_v1")
public func transitPluginEntry(_ hostVersion: UInt32) -> UnsafeRawPointer? { PluginExport.entry(NextfareUltralightPlugin.self, hostVersion) }

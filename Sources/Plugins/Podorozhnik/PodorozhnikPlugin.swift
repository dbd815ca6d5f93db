import PluginKit

/// Podorozhnik (St Petersburg), MIFARE Classic 1K and 4K. (Being written: says "not this card" until then.)
enum PodorozhnikPlugin: CardFamilyPlugin {
    static let name = "podorozhnik"
    static let technology: CardTechnology = .mifareClassic

    static func read(_ card: CardLink) throws -> CardResult {
        throw PluginError.notThisCard
    }
}

@_cdecl("transit_plugin_entry_v1")
public func transitPluginEntry(_ hostVersion: UInt32) -> UnsafeRawPointer? { PluginExport.entry(PodorozhnikPlugin.self, hostVersion) }

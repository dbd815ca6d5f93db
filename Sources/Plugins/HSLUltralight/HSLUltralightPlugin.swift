import PluginKit

/// HSL (Helsinki) and Tampere Ultralight tickets: single and day tickets on paper. Pages 4–7 say
/// whether the card is one (one read of four pages, so other Ultralight cards cost one command);
/// pages 8–15 hold the rest of its eTicket. Layout in `HSLUltralightTicket`.
enum HSLUltralightPlugin: CardFamilyPlugin {
    static let name = "hsl-ul"
    static let technology: CardTechnology = .mifareUltralight

    static func read(_ card: CardLink) throws -> CardResult {
        let header = Bytes(try card.ultralightPages(4, count: 4))
        guard try HSLUltralightTicket.isTicket(header) else { throw PluginError.notThisCard }
        let rest = Bytes(try card.ultralightPages(8, count: 8))
        let uid = try UltralightUID.read(card)
        return try HSLUltralightTicket.decode(Bytes(header.storage + rest.storage), uid: uid)
    }
}

@_cdecl("transit_plugin_entry_v1")
public func transitPluginEntry(_ hostVersion: UInt32) -> UnsafeRawPointer? { PluginExport.entry(HSLUltralightPlugin.self, hostVersion) }

import PluginKit

/// Cubic Nextfare Ultralight tickets: Compass Tickets (Vancouver) and Ventra Tickets (Chicago).
/// Pages 4–7 say whether the card is one and which (one read of four pages, so other Ultralight
/// cards cost one command); pages 8–15 hold its two records. Layout in `NextfareTicket`.
enum NextfareUltralightPlugin: CardFamilyPlugin {
    static let name = "nextfare-ul"
    static let technology: CardTechnology = .mifareUltralight

    static func read(_ card: CardLink) throws -> CardResult {
        let header = Bytes(try card.ultralightPages(4, count: 4))
        guard let network = try NextfareNetwork(header: header) else { throw PluginError.notThisCard }
        let records = Bytes(try card.ultralightPages(8, count: 8))
        let uid = try UltralightUID.read(card)
        return try NextfareTicket.decode(header: header, records: records, uid: uid, network: network)
    }
}

@_cdecl("transit_plugin_entry_v1")
public func transitPluginEntry(_ hostVersion: UInt32) -> UnsafeRawPointer? { PluginExport.entry(NextfareUltralightPlugin.self, hostVersion) }

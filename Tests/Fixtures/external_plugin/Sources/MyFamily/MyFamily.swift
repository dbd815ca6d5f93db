import PluginKit

/// A card family built outside the transit repository: the demo card's balance (SELECT F0 74 72 61
/// 6E 73 69 74, then 80 5C 00 00 04 → 4 bytes big-endian).
enum MyFamily: CardFamilyPlugin {
    static let name = "my-family"
    static let technology: CardTechnology = .iso7816
    static let options = [PluginOption("currency", .text)]

    static func read(_ card: CardLink) throws -> CardResult {
        _ = try ISOApplication.selectFirst(card, [[0xF0, 0x74, 0x72, 0x61, 0x6E, 0x73, 0x69, 0x74]])
        let answer = try card.transmit([0x80, 0x5C, 0x00, 0x00, 0x04])
        guard answer.isSuccess else { throw PluginError.cardRefused("GET BALANCE answered \(answer.swHex)") }
        return CardResult(serialNumber: "MY-0001", balance: Int64(try answer.data.be(0, 4)),
                          currency: card.option("currency") ?? "EUR")
    }
}

/// The plugin's entry point (transit_reader.h).
@_cdecl("transit_plugin_entry_v1")
public func transitPluginEntry(_ hostVersion: UInt32) -> UnsafeRawPointer? { PluginExport.entry(MyFamily.self, hostVersion) }

import PluginKit

/// China's city-only transit cards, which answer the PBOC purse commands T-Union cards answer under
/// their own applications: Beijing (BMAC, non-interoperable), Shenzhen Tong, City Union (Shanghai and
/// other cities), Wuhan Tong, Lingnan Pass and Macau Pass. Selection and identity files: NFSee
/// `assets/read.js` (MIT) and Metrodroid `transit/china/*` (facts only). A card that also answers the
/// T-Union AID is read by the tunion plugin, which plugins.conf runs first.
///
/// Probe order, cheapest first: Beijing's MF read needs the MF still current, so it comes before any
/// SELECT that could succeed (NFSee probes it first too); then the AIDs, most populous cities first.
enum ChinaCityPlugin: CardFamilyPlugin {
    static let name = "china-city"
    static let technology: CardTechnology = .iso7816

    /// The AID cards, in probe order.
    static let aidCards: [CityCard] = [.shenzhen, .lingnan, .cityUnion, .wuhan, .macau]

    static func read(_ card: CardLink) throws -> CardResult {
        // Every Beijing, Shanghai and Guangzhou card ATR seen shows application data
        // (docs/research/pcsc.md §"Historical bytes"): a DESFire card no desfire family read is
        // spared the six probes.
        try card.skipWhenNoApplicationData(name)
        if let beijing = try BeijingCard.read(card) { return beijing }
        let (aid, fci) = try ISOApplication.selectFirst(card, aidCards.map(\.aid))
        guard let city = aidCards.first(where: { $0.aid == aid }) else { throw PluginError.internal("selected an AID not probed") }
        return try city.read(card, fci: fci)
    }
}

/// The plugin's entry point (transit_reader.h).
@_cdecl("transit_plugin_entry_v1")
public func transitPluginEntry(_ hostVersion: UInt32) -> UnsafeRawPointer? { PluginExport.entry(ChinaCityPlugin.self, hostVersion) }

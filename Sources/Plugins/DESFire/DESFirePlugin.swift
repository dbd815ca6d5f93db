import PluginKit

/// MIFARE DESFire transit cards whose files anyone may read (access key E): Opal (Sydney), Clipper
/// (San Francisco Bay Area), ORCA (Seattle), HSL v2 and Waltti (Finland). One library for the four:
/// they share the probe, one Get Application IDs that tells a DESFire card from any other ISO card
/// (a non-DESFire card answers it with an ISO status word) and names the application without a row
/// of selects; a card that refuses the listing (`91 AE`) is probed by selecting each AID instead.
enum DESFirePlugin: CardFamilyPlugin {
    static let name = "desfire"
    static let technology: CardTechnology = .iso7816

    /// The families in probe order, each with its AIDs (wire order, as Metrodroid's constants read).
    static let families: [DESFireFamily.Type] = [OpalCard.self, ClipperCard.self, ORCACard.self, HSLCard.self]

    static func read(_ link: CardLink) throws -> CardResult {
        let card = DESFireCard(link)
        let listed = try applicationIDs(card)
        for family in families {
            for aid in family.aids where listed.map({ $0.contains(aid) }) ?? true {
                do {
                    try card.selectApplication(aid)
                } catch PluginError.notThisCard where listed == nil {
                    continue
                }
                return try family.read(card, aid: aid)
            }
        }
        throw PluginError.notThisCard
    }

    /// The card's AIDs, or nil when it keeps them to itself; not this card when it is no DESFire card.
    static func applicationIDs(_ card: DESFireCard) throws -> [[UInt8]]? {
        let (status, data) = try card.exchange(.getApplicationIDs, [])
        if status >> 8 != 0x91 { throw PluginError.notThisCard }
        guard status == 0x9100 else { return nil }
        guard data.count % 3 == 0 else { throw PluginError.malformedResponse("application IDs of \(data.count) bytes") }
        return stride(from: 0, to: data.count, by: 3).map { Array(data.storage[$0 ..< $0 + 3]) }
    }
}

/// One card family of the desfire library.
protocol DESFireFamily: Sendable {
    /// Its applications' AIDs, in the order tried.
    static var aids: [[UInt8]] { get }
    /// Reads the card, its application `aid` selected.
    static func read(_ card: DESFireCard, aid: [UInt8]) throws -> CardResult
}

/// Digits in groups: "3085220012345670" grouped 4, 4, 4, 4 → "3085 2200 1234 5670".
func grouped(_ digits: String, _ sizes: [Int]) -> String {
    var rest = Substring(digits), parts = [Substring]()
    for size in sizes where !rest.isEmpty {
        parts.append(rest.prefix(size)); rest = rest.dropFirst(size)
    }
    if !rest.isEmpty { parts.append(rest) }
    return parts.joined(separator: " ")
}

/// The plugin's entry point (transit_reader.h).
@_cdecl("transit_plugin_entry_v1")
public func transitPluginEntry(_ hostVersion: UInt32) -> UnsafeRawPointer? { PluginExport.entry(DESFirePlugin.self, hostVersion) }

import CardProtocol
import ReaderABI

/// What a card-family plugin implements; `PluginExport` turns it into the ABI descriptor.
public protocol CardFamilyPlugin {
    /// Short name, e.g. "japan-ic".
    static var name: String { get }
    /// Family reported by default (the name unless the plugin says otherwise).
    static var family: String { get }
    static var technology: CardTechnology { get }
    /// Every technology the family's cards come in (Troika: MIFARE Classic and Ultralight); the
    /// host asks the plugin of a card of any of them. Defaults to `technology` alone.
    static var technologies: [CardTechnology] { get }
    /// FeliCa systems of which the card must carry one (empty: always asked).
    static var systemCodes: [UInt16] { get }
    /// The plugins.conf options the plugin takes; the host refuses any other (empty: none).
    static var options: [PluginOption] { get }
    /// Reads the card, or throws `PluginError.notThisCard` when it is of another family.
    static func read(_ card: CardLink) throws -> CardResult
}

extension CardFamilyPlugin {
    public static var family: String { name }
    public static var technologies: [CardTechnology] { [technology] }
    public static var systemCodes: [UInt16] { [] }
    public static var options: [PluginOption] { [] }
}

/// The radio technology a plugin reads (CardProtocol's, shared with the host).
public typealias CardTechnology = CardProtocol.CardTechnology

extension CardTechnology {
    var abiValue: transit_technology {
        switch self {
        case .felica: return TRANSIT_TECHNOLOGY_FELICA
        case .iso7816: return TRANSIT_TECHNOLOGY_ISO7816
        case .mifareClassic: return TRANSIT_TECHNOLOGY_MIFARE_CLASSIC
        case .mifareUltralight: return TRANSIT_TECHNOLOGY_MIFARE_ULTRALIGHT
        }
    }
}

/// A plugins.conf option a plugin takes, and the kind of value it must have.
public struct PluginOption: Sendable {
    public enum Kind: Sendable { case text, integer, boolean }
    public let name: String
    public let kind: Kind
    public init(_ name: String, _ kind: Kind) { self.name = name; self.kind = kind }

    var abiType: UInt32 {
        switch kind {
        case .text: return TRANSIT_OPTION_TEXT
        case .integer: return TRANSIT_OPTION_INTEGER
        case .boolean: return TRANSIT_OPTION_BOOLEAN
        }
    }
}

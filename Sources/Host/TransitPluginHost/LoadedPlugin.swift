import CardProtocol
import ReaderABI
import TransitModel
import TransitTransport

/// A plugins.conf entry after loading: usable, or refused with the reason.
package struct LoadedPlugin {
    package enum State: Equatable {
        case loaded
        /// Not loaded: the library cannot be used (not trusted, not a plugin, another ABI…).
        case refused(L10n.Words)
        /// Loaded, but its plugins.conf line has an option it does not take, or a bad value: a
        /// configuration error (exit 2), naming the file and line.
        case misconfigured(L10n.Words)
    }

    package let entry: PluginConfig.Entry
    /// The resolved library path.
    package let path: String
    package var state: State
    /// Set when loaded: the plugin's static descriptor.
    package let descriptor: UnsafePointer<transit_plugin_descriptor>?
    /// The ABI version the library offers, when it said one (also for a refused plugin).
    package let abiVersion: UInt32?

    package var name: String { entry.name }

    /// What a refused plugin's loader says on stderr; nil for any other state.
    package var refusal: L10n.Words? {
        guard case .refused(let why) = state else { return nil }
        return L10n.words("plugin %1$s (%2$s) refused: %3$s", .init(name), .init(path), why)
    }

    /// The technologies the plugin reads (the descriptor's bits, release 5; one before), in ABI order.
    package var technologies: [CardTechnology] {
        guard let bits = descriptor?.pointee.technology else { return [] }
        return CardTechnology.allCases.filter { bits & Self.bit($0) != 0 }
    }

    /// The technologies as `transit plugins` shows them: "felica", "mifareClassic, mifareUltralight".
    package var technology: String? { technologies.isEmpty ? nil : technologies.map(\.rawValue).joined(separator: ", ") }

    /// The ABI's bit for a technology (TRANSIT_TECHNOLOGY_*).
    package static func bit(_ t: CardTechnology) -> transit_technology {
        switch t {
        case .felica: return TRANSIT_TECHNOLOGY_FELICA
        case .iso7816: return TRANSIT_TECHNOLOGY_ISO7816
        case .mifareClassic: return TRANSIT_TECHNOLOGY_MIFARE_CLASSIC
        case .mifareUltralight: return TRANSIT_TECHNOLOGY_MIFARE_ULTRALIGHT
        }
    }

    /// FeliCa systems of which the card must carry one; empty: always asked.
    package var systemCodes: [UInt16] {
        guard let d = descriptor?.pointee, let codes = d.system_codes else { return [] }
        return Array(UnsafeBufferPointer(start: codes, count: d.system_code_count))
    }

    package var family: String {
        descriptor?.pointee.family.map { String(cString: $0) } ?? entry.name
    }
}

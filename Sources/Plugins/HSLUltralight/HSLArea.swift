import PluginKit

/// What an HSL area code (type, value) names (Metrodroid transit/hsl/HSLLookup.kt, `getArea`):
///   type 2: a zone range, from in bits 3–5 and to in bits 0–2 (a validation names zone "to");
///   Tampere tickets (city 1), type 0: from is value mod 6, to is value / 6 (a validation names "from");
///   types 0 and 1 otherwise: a region (0) or a mode (1) from `names`; value 0 names nothing.
/// Zones are lettered from A.
struct HSLArea {
    /// Zone letters ("AB"), when the code is a zone range or one zone.
    let zones: String?
    /// A region or mode name, or "type/value" for a code without one.
    let name: String?

    static let tampere = 1

    static let names: [Int: String] = [
        0x01: "Helsinki", 0x02: "Espoo", 0x04: "Vantaa", 0x05: "Region (Helsinki+Espoo-Vantaa)",
        0x06: "Kirkkonummi-Siuntio", 0x07: "Vihti", 0x08: "Nurmijärvi", 0x09: "Kerava-Sipoo-Tuusula", 0x0A: "Sipoo",
        0x0E: "Surrounding country 2 (ESP+VAN+KIR+KER+SIP)", 0x0F: "Surrounding country 3 (HEL+ESP+VAN+KIR+KER+SIP)",
        0x101: "bus", 0x102: "bus 2", 0x103: "bus 3", 0x104: "bus 4", 0x105: "tram", 0x106: "metro",
        0x107: "train", 0x108: "ferry", 0x109: "U-line",
    ]

    /// The area a ticket is valid in (`validity`) or a validation was made in; nil when it names none.
    init?(type: Int, value: Int, city: Int, validity: Bool) {
        if (0 ... 1).contains(type), value == 0 { return nil }
        func letters(_ from: Int, _ to: Int) -> String? {
            guard from <= to, to < 26 else { return nil }
            return String((from ... to).map { Character(Unicode.Scalar(UInt8(65 + $0))) })
        }
        if city == Self.tampere, type == 0 {
            let from = value % 6
            zones = validity ? letters(from, value / 6) : letters(from, from)
        } else if type == 2 {
            let to = value & 7
            zones = validity ? letters(value >> 3, to) : letters(to, to)
        } else {
            zones = nil
        }
        name = zones == nil ? (Self.names[type << 8 | value] ?? "\(type)/\(value)") : nil
    }

    /// "zones AB", "zone B" or the name.
    var text: String {
        guard let zones else { return name ?? "" }
        return zones.count == 1 ? "zone \(zones)" : "zones \(zones)"
    }
}

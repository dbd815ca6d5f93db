import CardSimulation
import Foundation

/// A FeliCa card image written out as the other card files `transit` reads: a Flipper Zero NFC
/// file (as the firmware lays it out, see ../shared/cards/*.nfc) and a Metrodroid JSON export.
public enum DumpTexts {
    /// The Flipper file; `lineEnd` "\r\n" gives a file saved on Windows.
    public static func flipper(_ image: CardImage, lineEnd: String = "\n") -> String {
        guard let f = image.felica else { return "" }
        func spaced(_ hex: String) -> String {
            stride(from: 0, to: hex.count, by: 2).map { i in
                String(hex.dropFirst(i).prefix(2))
            }.joined(separator: " ")
        }
        var lines = ["Filetype: Flipper NFC device", "Version: 4", "Device type: FeliCa", "UID: \(spaced(f.idm))",
                     "", "System found: \(f.systems.count)"]
        for (n, s) in f.systems.enumerated() {
            lines += ["", String(format: "System %02X: ", n) + s.code, ""]
            let public_ = s.services.keys.sorted(), locked = s.lockedServices ?? []
            lines.append("Service found: \(public_.count + locked.count)")
            for (i, code) in (public_ + locked).enumerated() {
                let access = i < public_.count ? "Public " : "Private"
                lines.append(String(format: "Service %03X: | Code ", i) + code + " | Attrib. 0B | \(access) | Random | Read Only  |")
            }
            var number = 0
            for code in public_ {
                for (index, block) in (s.services[code] ?? []).enumerated() {
                    lines.append(String(format: "Block %04X: | Service code ", number) + code
                                 + String(format: " | Block index %02X | Data: ", index) + spaced(block) + " |")
                    number += 1
                }
            }
        }
        return lines.joined(separator: lineEnd) + lineEnd
    }

    /// The Metrodroid / FareBot export: systems and services keyed by decimal code.
    public static func metrodroid(_ image: CardImage) throws -> Data {
        guard let f = image.felica else { return Data() }
        var systems = [String: Any]()
        for s in f.systems {
            var services = [String: Any]()
            for (code, blocks) in s.services {
                services[String(Int(code, radix: 16) ?? 0)] = ["blocks": blocks.enumerated().map { ["address": $0.offset, "data": $0.element] }]
            }
            systems[String(Int(s.code, radix: 16) ?? 0)] = ["services": services]
        }
        return try JSONSerialization.data(withJSONObject: ["tagId": f.idm, "felica": ["iDm": f.idm, "systems": systems]],
                                          options: [.sortedKeys])
    }
}

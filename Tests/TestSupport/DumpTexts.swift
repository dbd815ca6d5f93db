import CardSimulation
import Foundation

/// A FeliCa card image written out as the other card files `transit` reads: a Flipper Zero NFC
/// file (as the firmware lays it out: flipperdevices/flipperzero-firmware
/// documentation/file_formats/NfcFileFormats.md) and a Metrodroid JSON export.
public enum DumpTexts {
    /// The Flipper file; `lineEnd` "\r\n" gives a file saved on Windows. `keyVersions` writes the
    /// firmware's data format 4 (FeliCa Standard with key versions, area lines and the directory
    /// tree, and a separate `System NN Key:` line as one copy of its test asset has): system N's key
    /// version is 0x0100 + N, its root area's 0x0200 + N, and its service i's 0x1000 + i.
    public static func flipper(_ image: CardImage, lineEnd: String = "\n", keyVersions: Bool = false) -> String {
        guard let f = image.felica else { return "" }
        func spaced(_ hex: String) -> String {
            stride(from: 0, to: hex.count, by: 2).map { i in
                String(hex.dropFirst(i).prefix(2))
            }.joined(separator: " ")
        }
        var lines = ["Filetype: Flipper NFC device", "Version: 4", "Device type: FeliCa", "UID: \(spaced(f.idm))",
                     "", "System found: \(f.systems.count)"]
        if keyVersions { lines.insert(contentsOf: ["Data format version: 4", "Manufacture id: \(spaced(f.idm))"], at: 4) }
        for (n, s) in f.systems.enumerated() {
            let public_ = s.services.keys.sorted(), locked = s.lockedServices ?? []
            if keyVersions {
                lines += ["", "", String(format: "System %02X: ", n) + s.code + String(format: " | Key version %04X |", 0x0100 + n),
                          String(format: "System %02X Key: 00 11 22 33 44 55 66 77", n), "", "Area found: 1",
                          String(format: "Area 000: | Code 0000 | End FFFE | Services #000-#%03X | Key version %04X |", max(0, public_.count + locked.count - 1), 0x0200 + n), ""]
            } else {
                lines += ["", String(format: "System %02X: ", n) + s.code, ""]
            }
            lines.append("Service found: \(public_.count + locked.count)")
            for (i, code) in (public_ + locked).enumerated() {
                let access = i < public_.count ? "Public " : "Private"
                lines.append(String(format: "Service %03X: | Code ", i) + code + " | Attrib. 0B | \(access) | Random | Read Only  |"
                             + (keyVersions ? String(format: " Key version %04X |", 0x1000 + i) : ""))
            }
            if keyVersions {
                lines += ["", "Directory Tree: ", "+++ ... are public services", "||| ... are private services", "- AREA_0000/"]
                    + (public_ + locked).map { "+ - serv_\($0)" } + ["Public blocks read: \(s.services.values.map(\.count).reduce(0, +))"]
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

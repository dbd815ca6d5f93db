/// Flipper Zero "NFC device" files (version 4) of FeliCa cards, as the firmware that dumps every
/// system writes them: `System NN: CCCC`, then per system `Service NNN: | Code CCCC | Attrib. AA |
/// Public|Private | …` and `Block NNNN: | Service code CCCC | Block index II | Data: <16 bytes> |`.
/// Private services are locked (no blocks dumped); public services answer their dumped blocks.
enum FlipperDump {
    static func isFlipper(_ text: String) -> Bool { text.hasPrefix("Filetype: Flipper NFC device") }

    static func parse(_ text: String) throws -> CardImage {
        var idm: String?
        var systems = [CardImage.FeliCaSystemImage]()
        func field(_ line: Substring, after prefix: String) -> String {
            String(line.dropFirst(prefix.count)).replacingOccurrences(of: " ", with: "")
        }
        // Lines end in LF or CRLF. Split on the scalar: to String, "\r\n" is one character, not "\n".
        for scalars in text.unicodeScalars.split(separator: "\n") {
            let raw = Substring(scalars)
            let line = (raw.hasSuffix("\r") ? raw.dropLast() : raw).trimmingCharacters(in: .whitespaces)[...]
            if line.hasPrefix("Device type:") {
                guard line.contains("FeliCa") else { throw CardImageError("only FeliCa Flipper dumps are supported, not \(line)") }
            } else if line.hasPrefix("UID:") {
                idm = field(line, after: "UID:")
            } else if line.hasPrefix("System "), let colon = line.firstIndex(of: ":"), !line.hasPrefix("System found") {
                systems.append(.init(code: field(line[line.index(after: colon)...], after: ""), services: [:], lockedServices: []))
            } else if line.hasPrefix("Service "), !line.hasPrefix("Service found"), !systems.isEmpty {
                let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
                guard let code = cells.first(where: { $0.hasPrefix("Code ") }).map({ String($0.dropFirst(5)) }) else { continue }
                if cells.contains("Private") {
                    systems[systems.count - 1].lockedServices?.append(code)
                } else if systems[systems.count - 1].services[code] == nil {
                    systems[systems.count - 1].services[code] = []
                }
            } else if line.hasPrefix("Block "), !systems.isEmpty {
                let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
                guard let code = cells.first(where: { $0.hasPrefix("Service code ") }).map({ String($0.dropFirst(13)) }),
                      let index = cells.first(where: { $0.hasPrefix("Block index ") }).flatMap({ Int($0.dropFirst(12), radix: 16) }),
                      let data = cells.first(where: { $0.hasPrefix("Data:") }).map({ field($0[...], after: "Data:") })
                else { throw CardImageError("unreadable Flipper block line: \(line)") }
                // Blocks are listed in order; a gap would shift later blocks, so it is refused.
                guard index == systems[systems.count - 1].services[code]?.count ?? 0 else {
                    throw CardImageError("Flipper dump skips to block \(index) of service \(code)")
                }
                // Appended in place: a copy of the list per line made the parse quadratic.
                systems[systems.count - 1].services[code, default: []].append(data)
            }
        }
        guard let idm, !systems.isEmpty else { throw CardImageError("Flipper dump without UID or systems") }
        return CardImage(description: "Flipper Zero FeliCa dump", felica: .init(idm: idm, systems: systems))
    }
}

/// Flipper Zero "NFC device" files (version 4) of FeliCa cards, as the firmware that dumps every
/// system writes them: `System NN: CCCC`, then per system `Service NNN: | Code CCCC | Attrib. AA |
/// Public|Private | …` and `Block NNNN: | Service code CCCC | Block index II | Data: <16 bytes> |`.
/// Private services are locked (no blocks dumped); public services answer their dumped blocks.
/// Lines end in LF or CRLF. Parsed in one pass over the bytes, in time linear in the file's size.
enum FlipperDump {
    static func isFlipper(_ text: String) -> Bool { text.hasPrefix("Filetype: Flipper NFC device") }

    private typealias Line = ArraySlice<UInt8>

    static func parse(_ text: String) throws -> CardImage {
        var idm: String?
        var systems = [CardImage.FeliCaSystemImage]()
        for raw in Array(text.utf8).split(separator: UInt8(ascii: "\n")) {
            let line = trimmed(raw)
            if line.starts(with: "Device type:".utf8) {
                guard string(line).contains("FeliCa") else { throw CardImageError("only FeliCa Flipper dumps are supported, not \(string(line))") }
            } else if line.starts(with: "UID:".utf8) {
                idm = hex(line.dropFirst(4))
            } else if line.starts(with: "System ".utf8), !line.starts(with: "System found".utf8), let colon = line.firstIndex(of: UInt8(ascii: ":")) {
                systems.append(.init(code: hex(line[(colon + 1)...]), services: [:], lockedServices: []))
            } else if line.starts(with: "Service ".utf8), !line.starts(with: "Service found".utf8), !systems.isEmpty {
                let cells = line.split(separator: UInt8(ascii: "|")).map(trimmed)
                guard let code = cell(cells, "Code ").map(string) else { continue }
                if cells.contains(where: { $0.elementsEqual("Private".utf8) }) {
                    systems[systems.count - 1].lockedServices?.append(code)
                } else if systems[systems.count - 1].services[code] == nil {
                    systems[systems.count - 1].services[code] = []
                }
            } else if line.starts(with: "Block ".utf8), !systems.isEmpty {
                let cells = line.split(separator: UInt8(ascii: "|")).map(trimmed)
                guard let code = cell(cells, "Service code ").map(string), let index = cell(cells, "Block index ").flatMap({ Int(string($0), radix: 16) }),
                      let data = cell(cells, "Data:").map(hex)
                else { throw CardImageError("unreadable Flipper block line: \(string(line))") }
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

    /// What follows `label` in the first cell that starts with it.
    private static func cell(_ cells: [Line], _ label: String) -> Line? {
        cells.first { $0.starts(with: label.utf8) }.map { $0.dropFirst(label.utf8.count) }
    }

    /// Without the spaces and tabs around it, and the CR of a CRLF line end.
    private static func trimmed(_ s: Line) -> Line {
        var s = s
        while let c = s.last, c == 0x20 || c == 0x09 || c == 0x0D { s = s.dropLast() }
        while let c = s.first, c == 0x20 || c == 0x09 { s = s.dropFirst() }
        return s
    }

    /// Hex digits written with spaces between bytes, as one string.
    private static func hex(_ s: Line) -> String {
        var digits = [UInt8]()
        digits.reserveCapacity(s.count)
        for c in s where c != 0x20 { digits.append(c) }
        return String(decoding: digits, as: UTF8.self)
    }

    private static func string(_ s: Line) -> String { String(decoding: s, as: UTF8.self) }
}

import TransitModel
/// Flipper Zero "NFC device" files (version 4) of FeliCa cards, as the firmware that dumps every
/// system writes them (lib/nfc/protocols/felica/felica.c, data format versions 2–4):
/// `System NN: CCCC [| Key version KKKK |]`, then per system `Area NNN: | Code CCCC | [End EEEE |]
/// Services #F-#L | [Key version KKKK |]`, `Service NNN: | Code CCCC | Attrib. AA | Public|Private |
/// … [| Key version KKKK |]` and `Block NNNN: | Service code CCCC | Block index II | Data: <16 bytes> |`.
/// Private services are locked (no blocks dumped); public services answer their dumped blocks; key
/// versions (FFFF: unknown) answer Request Service. Lines of other keys (`Directory Tree`, the tree
/// itself, `System NN Key: …`) are skipped. Lines end in LF or CRLF. Parsed in one pass over the
/// bytes, in time linear in the file's size. Files of other device types go to their own parsers:
/// FlipperDESFireDump, FlipperClassicDump, FlipperUltralightDump.
enum FlipperDump {
    static func isFlipper(_ text: String) -> Bool { text.hasPrefix("Filetype: Flipper NFC device") }

    private typealias Line = ArraySlice<UInt8>

    /// The `Device type:` of the file's header (its first `FlipperDESFireDump.headerLines` lines),
    /// nil when they hold none.
    static func deviceType(_ text: String) -> String? {
        let bytes = text.utf8
        var start = bytes.startIndex, lines = 0
        while lines < FlipperDESFireDump.headerLines, start < bytes.endIndex {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
            let line = trimmed(ArraySlice(bytes[start ..< end]))
            if !line.isEmpty {
                lines += 1
                if line.starts(with: "Device type:".utf8) { return string(trimmed(line.dropFirst(12))) }
            }
            start = end == bytes.endIndex ? end : bytes.index(after: end)
        }
        return nil
    }

    static func parse(_ text: String) throws -> CardImage {
        if FlipperDESFireDump.isDESFire(text) { return try FlipperDESFireDump.parse(text) }
        if let type = deviceType(text) {
            if type == "Mifare Classic" { return try FlipperClassicDump.parse(text) }
            if FlipperUltralightDump.isUltralight(deviceType: type) { return try FlipperUltralightDump.parse(text) }
        }
        var idm: String?
        var systems = [CardImage.FeliCaSystemImage]()
        for raw in Array(text.utf8).split(separator: UInt8(ascii: "\n")) {
            let line = trimmed(raw)
            if line.starts(with: "Device type:".utf8) {
                guard string(line).contains("FeliCa") else {
                    throw CardImageError(L10n.words("only FeliCa, MIFARE DESFire, Classic and Ultralight Flipper dumps are supported, not %1$s", .init(CardImageError.quote(string(line)))))
                }
            } else if line.starts(with: "UID:".utf8) {
                idm = hex(line.dropFirst(4))
            } else if let cells = entry(line, "System ") {
                // `System NN: CCCC | Key version KKKK |`: the code, then the system's key version.
                guard let code = cells.first.map(string), code.utf8.count == 4 else {
                    throw CardImageError(L10n.words("unreadable Flipper system line: %1$s", .init(CardImageError.quote(string(line)))))
                }
                systems.append(.init(code: code, services: [:], lockedServices: [], keyVersions: [:]))
                if let version = keyVersion(cells) { systems[systems.count - 1].keyVersions?["FFFF"] = version }
            } else if let cells = entry(line, "Area "), !systems.isEmpty {
                if let code = cell(cells, "Code ").map(string), let version = keyVersion(cells) {
                    systems[systems.count - 1].keyVersions?[code] = version
                }
            } else if let cells = entry(line, "Service "), !systems.isEmpty {
                guard let code = cell(cells, "Code ").map(string) else { continue }
                if cells.contains(where: { $0.elementsEqual("Private".utf8) }) {
                    systems[systems.count - 1].lockedServices?.append(code)
                } else if systems[systems.count - 1].services[code] == nil {
                    systems[systems.count - 1].services[code] = []
                }
                if let version = keyVersion(cells) { systems[systems.count - 1].keyVersions?[code] = version }
            } else if let cells = entry(line, "Block "), !systems.isEmpty {
                guard let code = cell(cells, "Service code ").map(string), let index = cell(cells, "Block index ").flatMap({ Int(string($0), radix: 16) }),
                      let data = cell(cells, "Data:").map(hex)
                else { throw CardImageError(L10n.words("unreadable Flipper block line: %1$s", .init(CardImageError.quote(string(line))))) }
                // Blocks are listed in order; a gap would shift later blocks, so it is refused.
                guard index == systems[systems.count - 1].services[code]?.count ?? 0 else {
                    throw CardImageError(L10n.words("Flipper dump skips to block %1$s of service %2$s", .init(String(index)), .init(CardImageError.quote(code))))
                }
                // Appended in place: a copy of the list per line made the parse quadratic.
                systems[systems.count - 1].services[code, default: []].append(data)
            }
        }
        guard let idm, !systems.isEmpty else { throw CardImageError(L10n.words("Flipper dump without UID or systems")) }
        for i in systems.indices where systems[i].keyVersions?.isEmpty == true { systems[i].keyVersions = nil }
        return CardImage(description: "Flipper Zero FeliCa dump", felica: .init(idm: idm, systems: systems))
    }

    /// The `|` cells of a line `<label><hex digits>: …` (`System 00: 0003 | …`), the first cell being
    /// what follows the colon; nil for any other line (`System found: 2`, `System 00 Key: …`).
    private static func entry(_ line: Line, _ label: String) -> [Line]? {
        guard line.starts(with: label.utf8) else { return nil }
        let rest = line.dropFirst(label.utf8.count)
        guard let colon = rest.firstIndex(of: UInt8(ascii: ":")), colon > rest.startIndex,
              rest[..<colon].allSatisfy({ isHexDigit($0) }) else { return nil }
        return rest[(colon + 1)...].split(separator: UInt8(ascii: "|"), omittingEmptySubsequences: false).map(trimmed).filter { !$0.isEmpty }
    }

    /// A `Key version KKKK` cell's four hex digits; nil when absent or FFFF (unknown to the dumper).
    private static func keyVersion(_ cells: [Line]) -> String? {
        guard let v = cell(cells, "Key version ").map(string), v.utf8.count == 4, v.utf8.allSatisfy(isHexDigit), v.uppercased() != "FFFF" else { return nil }
        return v.uppercased()
    }

    private static func isHexDigit(_ c: UInt8) -> Bool {
        (0x30 ... 0x39).contains(c) || (0x41 ... 0x46).contains(c) || (0x61 ... 0x66).contains(c)
    }

    /// What follows `label` in the first cell that starts with it.
    private static func cell(_ cells: [Line], _ label: String) -> Line? {
        cells.first { $0.starts(with: label.utf8) }.map { trimmed($0.dropFirst(label.utf8.count)) }
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

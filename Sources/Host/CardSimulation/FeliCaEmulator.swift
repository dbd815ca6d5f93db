import TransitModel
/// Answers FeliCa command frames from a card image, as a FeliCa Standard card would.
/// Codes from the FeliCa Card User's Manual (as summarised by nfcpy): 00 Polling, 02 Request
/// Service, 06 Read Without Encryption, 0A Search Service Code, 0C Request System Code.
struct FeliCaEmulator {
    struct System {
        let code: UInt16
        let idm: [UInt8]
        let blocks: [UInt16: [[UInt8]]]
        let locked: Set<UInt16>
        /// Key versions by node (services, areas, FFFF the system).
        let keyVersions: [UInt16: UInt16]
    }

    let systems: [System]
    let pmm: [UInt8]
    let maxBlocksPerRead: Int

    init(_ image: CardImage.FeliCaImage) throws {
        let idm = try HexText.bytes(image.idm)
        guard idm.count == 8 else { throw CardImageError(L10n.words("IDm must be 8 bytes")) }
        pmm = try image.pmm.map(HexText.bytes) ?? [0x10, 0x0B, 0x4B, 0x42, 0x84, 0x85, 0xD0, 0xFF]
        maxBlocksPerRead = min(15, max(1, image.maxBlocksPerRead ?? 15))
        // The system number is the IDm's upper nibble: a card holds at most 16 systems.
        guard (1 ... 16).contains(image.systems.count) else { throw CardImageError(L10n.words("a FeliCa card holds 1 to 16 systems")) }
        systems = try image.systems.enumerated().map { index, s in
            var blocks = [UInt16: [[UInt8]]]()
            for (code, list) in s.services {
                blocks[try Self.code(code)] = try list.map {
                    let b = try HexText.bytes($0)
                    guard b.count == 16 else { throw CardImageError(L10n.words("block of service %1$s is not 16 bytes", .init(CardImageError.quote(code)))) }
                    return b
                }
            }
            var systemIDm = idm
            systemIDm[0] = (idm[0] & 0x0F) | UInt8(index << 4 & 0xF0)
            if let own = s.idm {
                systemIDm = try HexText.bytes(own)
                guard systemIDm.count == 8 else { throw CardImageError(L10n.words("IDm of system %1$s must be 8 bytes", .init(CardImageError.quote(s.code)))) }
                guard index > 0 || systemIDm == idm else { throw CardImageError(L10n.words("system 0's IDm is the card's idm")) }
            }
            var keyVersions = [UInt16: UInt16]()
            for (node, version) in s.keyVersions ?? [:] { keyVersions[try Self.code(node)] = try Self.code(version) }
            return System(code: try Self.code(s.code), idm: systemIDm, blocks: blocks,
                          locked: Set(try (s.lockedServices ?? []).map(Self.code)), keyVersions: keyVersions)
        }
        guard Set(systems.map { $0.idm }).count == systems.count else { throw CardImageError(L10n.words("two FeliCa systems share an IDm")) }
    }

    /// The IDm the reader reports (system 0).
    var idm: [UInt8] { systems.first?.idm ?? [] }

    /// The card's answer frame, or nil when a real card would stay silent.
    func answer(_ frame: [UInt8]) -> [UInt8]? {
        guard frame.count >= 2, Int(frame[0]) == frame.count else { return nil }
        let cmd = frame[1]
        if cmd == 0x00 { return polling(frame) }
        guard frame.count >= 10, let system = systems.first(where: { $0.idm == Array(frame[2 ..< 10]) }) else { return nil }
        let body = Array(frame[10...])
        switch cmd {
        case 0x02: return requestService(system, body)
        case 0x06: return read(system, body)
        case 0x0A: return searchService(system, body)
        case 0x0C: return reply(0x0D, system, [UInt8(systems.count)] + systems.flatMap { [UInt8($0.code >> 8), UInt8($0.code & 0xFF)] })
        default: return nil
        }
    }

    private func polling(_ f: [UInt8]) -> [UInt8]? {
        guard f.count == 6 else { return nil }
        let wanted = UInt16(f[2]) << 8 | UInt16(f[3])
        guard let s = systems.first(where: { Self.matches(wanted, $0.code) }) else { return nil }
        let rd: [UInt8] = f[4] == 0x01 ? [UInt8(s.code >> 8), UInt8(s.code & 0xFF)] : []
        return reply(0x01, s, pmm + rd)
    }

    /// Polling wildcards: FF in either byte of the requested code matches any value.
    private static func matches(_ wanted: UInt16, _ code: UInt16) -> Bool {
        let hi = wanted >> 8 == 0xFF || wanted >> 8 == code >> 8
        let lo = wanted & 0xFF == 0xFF || wanted & 0xFF == code & 0xFF
        return hi && lo
    }

    private func requestService(_ s: System, _ body: [UInt8]) -> [UInt8]? {
        guard let n = body.first, n >= 1, n <= 32, body.count == 1 + 2 * Int(n) else { return nil }
        var out: [UInt8] = [n]
        for i in 0 ..< Int(n) {
            let node = UInt16(body[1 + 2 * i]) | UInt16(body[2 + 2 * i]) << 8
            // Key versions travel little-endian, FFFF for a node the card does not have (FeliCa Card
            // User's Manual, Request Service); area 0000 and the system (FFFF) always exist.
            let known = s.blocks[node] != nil || s.locked.contains(node) || node == 0x0000 || node == 0xFFFF
            let version = s.keyVersions[node] ?? (known ? 0x0000 : 0xFFFF)
            out += [UInt8(version & 0xFF), UInt8(version >> 8)]
        }
        return reply(0x03, s, out)
    }

    private func read(_ s: System, _ body: [UInt8]) -> [UInt8]? {
        guard let ns = body.first, ns >= 1, ns <= 16, body.count >= 1 + 2 * Int(ns) + 1 else { return nil }
        let services = (0 ..< Int(ns)).map { UInt16(body[1 + 2 * $0]) | UInt16(body[2 + 2 * $0]) << 8 }
        var i = 1 + 2 * Int(ns)
        let nb = Int(body[i]); i += 1
        func status(_ f1: UInt8, _ f2: UInt8) -> [UInt8] { reply(0x07, s, [f1, f2]) }
        guard nb >= 1 else { return status(0xFF, 0xA2) }
        guard nb <= maxBlocksPerRead else { return status(0xFF, FeliCaStatusCode.illegalBlockCount) }
        var data = [UInt8]()
        for element in 1 ... nb {
            guard i + 1 < body.count else { return nil }
            let head = body[i]
            let serviceIndex = Int(head & 0x0F)
            var block = Int(body[i + 1])
            if head & 0x80 == 0 { // three-byte element: 16-bit block number, little-endian
                guard i + 2 < body.count else { return nil }
                block |= Int(body[i + 2]) << 8
                i += 3
            } else {
                i += 2
            }
            guard serviceIndex < services.count else { return status(UInt8(element), 0xA3) }
            let code = services[serviceIndex]
            if s.locked.contains(code) { return status(UInt8(element), 0xA5) }
            guard let blocks = s.blocks[code] else { return status(UInt8(element), 0xA6) }
            guard block < blocks.count else { return status(UInt8(element), 0xA8) }
            data += blocks[block]
        }
        guard i == body.count else { return nil }
        return reply(0x07, s, [0x00, 0x00, UInt8(nb)] + data)
    }

    /// Search Service Code: the index-th service in code order, FFFF past the end.
    private func searchService(_ s: System, _ body: [UInt8]) -> [UInt8]? {
        guard body.count == 2 else { return nil }
        let index = Int(body[0]) | Int(body[1]) << 8
        let all = Array(Set(s.blocks.keys).union(s.locked)).sorted()
        let code: UInt16 = index < all.count ? all[index] : 0xFFFF
        return reply(0x0B, s, [UInt8(code & 0xFF), UInt8(code >> 8)])
    }

    private func reply(_ code: UInt8, _ s: System, _ rest: [UInt8]) -> [UInt8] {
        let body = [code] + s.idm + rest
        return [UInt8(truncatingIfNeeded: body.count + 1)] + body
    }

    private static func code(_ hex: String) throws -> UInt16 {
        let b = try HexText.bytes(hex)
        guard b.count == 2 else { throw CardImageError(L10n.words("code %1$s is not 4 hex digits", .init(CardImageError.quote(hex)))) }
        return UInt16(b[0]) << 8 | UInt16(b[1])
    }
}

/// FeliCa status flag 2 values the emulator answers.
enum FeliCaStatusCode {
    static let illegalBlockCount: UInt8 = 0xA2
}

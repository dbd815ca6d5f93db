import CardSimulation

/// Wraps a FeliCa frame in the reader's pseudo-APDU and unwraps the answer.
/// Dialect facts: ACR122U API (PN532 InDataExchange), ACR1252U reference manual (direct transmit),
/// PC/SC 2.02 Part 3 Transparent Exchange (tags 95 / 97, status object C0).
enum FeliCaFraming {
    /// The dialect a reader speaks, from its name: ACR122 → pn532; other ACS contactless readers →
    /// acs-direct; everyone else is assumed to follow PC/SC Part 3.
    static func dialect(forReader name: String) -> FeliCaDialect {
        let n = name.uppercased()
        if n.contains("ACR122") { return .pn532 }
        if n.contains("ACR1252") || n.contains("ACR1255") || n.contains("ACR1281") || n.contains("ACR1552") { return .acsDirect }
        return .part3
    }

    static func wrap(_ frame: [UInt8], _ dialect: FeliCaDialect) -> [UInt8] {
        switch dialect {
        case .pn532: return [0xFF, 0x00, 0x00, 0x00, UInt8(truncatingIfNeeded: frame.count + 3), 0xD4, 0x40, 0x01] + frame
        case .acsDirect: return [0xFF, 0x00, 0x00, 0x00, UInt8(truncatingIfNeeded: frame.count)] + frame
        case .part3: return [0xFF, 0xC2, 0x00, 0x01, UInt8(truncatingIfNeeded: frame.count + 2), 0x95, UInt8(truncatingIfNeeded: frame.count)] + frame
        }
    }

    /// The card's frame; nil when the card stayed silent (as it does to Polling for a system it lacks).
    /// Throws communication when the reader refuses the pass-through, malformedResponse when its
    /// answer does not parse.
    static func unwrap(_ answer: [UInt8], _ dialect: FeliCaDialect) throws -> [UInt8]? {
        guard answer.count >= 2 else { throw malformed("reader answer of \(answer.count) bytes") }
        let sw = Array(answer.suffix(2)), body = Array(answer.dropLast(2))
        if dialect == .acsDirect, sw == [0x63, 0x00] { return nil } // ACS: the card did not answer
        guard sw == [0x90, 0x00] else {
            throw TransitError(.communication, "the reader refused the FeliCa pass-through (SW \(HexFormat.string(sw))); try another --dialect")
        }
        switch dialect {
        case .pn532:
            guard body.count >= 3, body[0] == 0xD5, body[1] == 0x41 else { throw malformed("PN532 answer without D5 41") }
            guard body[2] == 0x00 else { return nil } // 01: timeout, the card did not answer (PN532 error codes)
            return try frame(Array(body.dropFirst(3)))
        case .acsDirect:
            return try frame(body)
        case .part3:
            // The answer opens with the generic status object C0 03 (Part 3, 3.2.2.1.8), then data objects.
            guard body.starts(with: [0xC0, 0x03]) else { throw malformed("Part 3 answer without its C0 status object") }
            var frameBytes: [UInt8]?
            var i = 0
            while i + 1 < body.count {
                let tag = body[i], length = Int(body[i + 1])
                guard i + 2 + length <= body.count else { throw malformed("Part 3 TLV overruns the answer") }
                let value = Array(body[i + 2 ..< i + 2 + length])
                if tag == 0xC0, value.count == 3, value != [0x00, 0x90, 0x00] { return nil } // e.g. 01 64 01: no answer
                if tag == 0x97 { frameBytes = value }
                i += 2 + length
            }
            guard i == body.count else { throw malformed("Part 3 answer ends inside a TLV") }
            guard let frameBytes else { throw malformed("Part 3 answer without a 97 frame") }
            return try frame(frameBytes)
        }
    }

    /// A FeliCa frame's first byte is its own length.
    private static func frame(_ f: [UInt8]) throws -> [UInt8] {
        guard let first = f.first, Int(first) == f.count else { throw malformed("FeliCa frame length byte disagrees with its length") }
        return f
    }

    private static func malformed(_ m: String) -> TransitError { TransitError(.malformedResponse, m) }
}

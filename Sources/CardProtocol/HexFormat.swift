import CardProtocol
/// Hex text for the host's messages, output and logs, both ways.
package enum HexFormat {
    package static func string<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        bytes.map { b in
            let digits = Array("0123456789ABCDEF")
            return String([digits[Int(b >> 4)], digits[Int(b & 0xF)]])
        }.joined()
    }

    /// A 16-bit code as four hex digits, most significant first (FeliCa system and service codes).
    package static func string(_ code: UInt16) -> String { string([UInt8(code >> 8), UInt8(code & 0xFF)]) }

    /// Bytes of hex text (from a log bundle or a dump); nil when it is not an even run of hex digits.
    package static func bytes(_ s: String) -> [UInt8]? {
        let chars = Array(s.utf8)
        guard chars.count % 2 == 0 else { return nil }
        var out = [UInt8]()
        out.reserveCapacity(chars.count / 2)
        for i in stride(from: 0, to: chars.count, by: 2) {
            guard let hi = digit(chars[i]), let lo = digit(chars[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
        }
        return out
    }

    private static func digit(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a") ... UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A") ... UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

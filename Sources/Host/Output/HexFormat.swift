/// Hex text for the host's messages, output and logs, both ways.
enum HexFormat {
    static func string<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        bytes.map { b in
            let digits = Array("0123456789ABCDEF")
            return String([digits[Int(b >> 4)], digits[Int(b & 0xF)]])
        }.joined()
    }

    /// A 16-bit code as four hex digits, most significant first (FeliCa system and service codes).
    static func string(_ code: UInt16) -> String { string([UInt8(code >> 8), UInt8(code & 0xFF)]) }

    /// Bytes of hex text (from a log bundle); a config error when it is not hex.
    static func bytes(_ s: String) throws -> [UInt8] {
        let chars = Array(s.utf8)
        guard chars.count % 2 == 0 else { throw TransitError(.config, "odd-length hex \(s)") }
        return try stride(from: 0, to: chars.count, by: 2).map { i in
            guard let b = UInt8(String(decoding: chars[i ..< i + 2], as: UTF8.self), radix: 16) else {
                throw TransitError(.config, "bad hex \(s)")
            }
            return b
        }
    }
}

/// Hex text, uppercase, both ways: the one hex of the project (messages, output, logs, dumps, and
/// plugins through the SDK: public).
public enum HexFormat {
    private static let digits = Array("0123456789ABCDEF".utf8)

    public static func string<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A 16-bit code as four hex digits, most significant first (FeliCa system and service codes).
    public static func string(_ code: UInt16) -> String { string([UInt8(code >> 8), UInt8(code & 0xFF)]) }

    /// Bytes of hex text (from a log bundle or a dump); nil when it is not an even run of hex digits.
    /// `ignoringSpaces`: spaces between the digits are passed over (card images write `"01 02"`).
    public static func bytes(_ s: String, ignoringSpaces: Bool = false) -> [UInt8]? {
        var out = [UInt8]()
        out.reserveCapacity(s.utf8.count / 2)
        var high: UInt8?
        for c in s.utf8 {
            if ignoringSpaces, c == UInt8(ascii: " ") { continue }
            guard let d = digit(c) else { return nil }
            if let h = high {
                out.append(h << 4 | d)
                high = nil
            } else {
                high = d
            }
        }
        return high == nil ? out : nil
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

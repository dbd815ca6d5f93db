import CardProtocol
/// BER-TLV data objects as PC/SC Part 3 carries them (ISO/IEC 8825-1 as profiled by ISO 7816-4, 5.2.2):
/// a tag of one byte, or more when its low five bits are all set (each next byte continues while its
/// top bit is set); a length of one byte below 80h, else 81 LL or 82 LL LL.
package enum BERTLV {
    package struct Object: Equatable {
        /// The tag's bytes as one number, e.g. 0x97 or 0x5F46.
        package let tag: UInt32
        package let value: [UInt8]
    }

    /// The encoding of `value` under `tag`; nil when the value is longer than 65,535 bytes.
    package static func encode(tag: UInt32, _ value: [UInt8]) -> [UInt8]? {
        var tagBytes = [UInt8]()
        var t = tag
        repeat { tagBytes.insert(UInt8(t & 0xFF), at: 0); t >>= 8 } while t > 0
        guard let length = encodeLength(value.count) else { return nil }
        return tagBytes + length + value
    }

    package static func encodeLength(_ n: Int) -> [UInt8]? {
        switch n {
        case 0 ..< 0x80: return [UInt8(n)]
        case 0x80 ... 0xFF: return [0x81, UInt8(n)]
        case 0x100 ... 0xFFFF: return [0x82, UInt8(n >> 8), UInt8(n & 0xFF)]
        default: return nil
        }
    }

    /// Every object of `bytes`, in order; throws CardDataError when a tag or length runs past the
    /// end or uses a form Part 3 does not (indefinite length, lengths of more than two bytes).
    package static func decode(_ bytes: [UInt8]) throws -> [Object] {
        var objects = [Object]()
        var i = 0
        func byte() throws -> UInt8 {
            guard i < bytes.count else { throw malformed("a data object ends early") }
            defer { i += 1 }
            return bytes[i]
        }
        while i < bytes.count {
            let first = try byte()
            var tag = UInt32(first)
            if first & 0x1F == 0x1F {
                var next: UInt8
                var extra = 0
                repeat {
                    next = try byte()
                    tag = tag << 8 | UInt32(next)
                    extra += 1
                    guard extra <= 3 else { throw malformed("a tag longer than four bytes") }
                } while next & 0x80 != 0
            }
            let l0 = try byte()
            let length: Int
            switch l0 {
            case 0 ..< 0x80: length = Int(l0)
            case 0x81: length = Int(try byte())
            case 0x82: length = Int(try byte()) << 8 | Int(try byte())
            default: throw malformed("length form \(HexFormat.string([l0]))")
            }
            guard length <= bytes.count - i else { throw malformed("a data object of \(length) bytes overruns the answer") }
            objects.append(Object(tag: tag, value: Array(bytes[i ..< i + length])))
            i += length
        }
        return objects
    }

    private static func malformed(_ what: String) -> CardDataError {
        CardDataError("BER-TLV: \(what)")
    }
}

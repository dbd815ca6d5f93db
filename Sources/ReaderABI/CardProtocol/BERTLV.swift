/// BER-TLV data objects (ISO/IEC 8825-1 as profiled by ISO 7816-4, 5.2.2), written once for the
/// reader's Part 3 answers and the cards' FCI templates: a tag of one byte, or more when its low
/// five bits are all set (each next byte continues while its top bit is set); a length of one byte
/// below 80h, else 81 LL, 82 LL LL (Part 3's forms) or 83 LL LL LL (ISO 7816-4 allows it in FCIs).
package enum BERTLV {
    package struct Object: Equatable {
        /// The tag's bytes as one number, e.g. 0x97 or 0x5F46.
        package let tag: UInt32
        package let value: [UInt8]

        /// True for a constructed object (bit 6 of the tag's first byte): its value holds objects.
        package var isConstructed: Bool {
            var first = tag
            while first > 0xFF { first >>= 8 }
            return first & 0x20 != 0
        }
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

    /// Every object of `bytes`, in order; throws `CardDataError` when a tag or length runs past the
    /// end or uses a form not allowed (indefinite length, more length bytes than `lengthBytes`).
    package static func decode(_ bytes: [UInt8], lengthBytes: Int = 2) throws -> [Object] {
        var reader = Reader(bytes, lengthBytes: lengthBytes)
        var objects = [Object]()
        while let object = try reader.next() { objects.append(object) }
        return objects
    }

    /// The value of the first object tagged `tag` in `bytes`, looking inside constructed objects;
    /// nil when absent. Objects after the one found are not parsed.
    package static func find(_ tag: UInt32, in bytes: [UInt8], lengthBytes: Int = 3) throws -> [UInt8]? {
        var reader = Reader(bytes, lengthBytes: lengthBytes)
        while let object = try reader.next() {
            if object.tag == tag { return object.value }
            if object.isConstructed, let inner = try find(tag, in: object.value, lengthBytes: lengthBytes) { return inner }
        }
        return nil
    }

    /// The objects of some bytes one at a time, each bounds-checked before it is returned.
    package struct Reader {
        private let bytes: [UInt8]
        private let lengthBytes: Int
        private var i = 0

        package init(_ bytes: [UInt8], lengthBytes: Int) { self.bytes = bytes; self.lengthBytes = lengthBytes }

        package mutating func next() throws -> Object? {
            guard i < bytes.count else { return nil }
            let first = try byte()
            var tag = UInt32(first)
            if first & 0x1F == 0x1F {
                var next: UInt8
                var extra = 0
                repeat {
                    next = try byte()
                    tag = tag << 8 | UInt32(next)
                    extra += 1
                    guard extra <= 3 else { throw CardDataError("BER-TLV: a tag longer than four bytes") }
                } while next & 0x80 != 0
            }
            let l0 = try byte()
            var length = Int(l0)
            if l0 >= 0x80 {
                let n = Int(l0 & 0x7F)
                guard (1 ... lengthBytes).contains(n) else { throw CardDataError("BER-TLV: length form \(HexFormat.string([l0]))") }
                length = 0
                for _ in 0 ..< n { length = length << 8 | Int(try byte()) }
            }
            guard length <= bytes.count - i else { throw CardDataError("BER-TLV: a data object of \(length) bytes overruns the data") }
            defer { i += length }
            return Object(tag: tag, value: Array(bytes[i ..< i + length]))
        }

        private mutating func byte() throws -> UInt8 {
            guard i < bytes.count else { throw CardDataError("BER-TLV: a data object ends early") }
            defer { i += 1 }
            return bytes[i]
        }
    }
}

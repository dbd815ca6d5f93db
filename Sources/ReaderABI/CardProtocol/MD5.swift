#if canImport(Glibc)
import Glibc
#endif

/// MD5 (RFC 1321), for one use: the salted key digests by which MIFARE Classic systems are told
/// apart without shipping their keys (`ClassicKeyDigest`). Not for anything that needs a secure
/// hash. Checked against RFC 1321's test suite (appendix A.5) in CardProtocolTests.
package enum MD5 {
    /// Per-round shift amounts (RFC 1321, 3.4).
    private static let shifts: [UInt32] = [7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
                                           5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
                                           4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
                                           6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21]
    /// T[i] = floor(2^32 × |sin(i + 1)|) (RFC 1321, 3.4), computed once.
    private static let table: [UInt32] = (0 ..< 64).map { i in
        let value = abs(sin(Double(i + 1))) * 4_294_967_296.0
        return UInt32(truncatingIfNeeded: Int64(value))
    }

    /// The 16-byte digest of `message`.
    package static func digest(_ message: [UInt8]) -> [UInt8] {
        var a0: UInt32 = 0x6745_2301, b0: UInt32 = 0xEFCD_AB89, c0: UInt32 = 0x98BA_DCFE, d0: UInt32 = 0x1032_5476
        var bytes = message
        let bitLength = UInt64(message.count) &* 8
        bytes.append(0x80)
        while bytes.count % 64 != 56 { bytes.append(0) }
        for i in 0 ..< 8 { bytes.append(UInt8(truncatingIfNeeded: bitLength >> (8 * UInt64(i)))) }
        var words = [UInt32](repeating: 0, count: 16)
        for chunk in stride(from: 0, to: bytes.count, by: 64) {
            for i in 0 ..< 16 {
                let j = chunk + 4 * i
                words[i] = UInt32(bytes[j]) | UInt32(bytes[j + 1]) << 8 | UInt32(bytes[j + 2]) << 16 | UInt32(bytes[j + 3]) << 24
            }
            var a = a0, b = b0, c = c0, d = d0
            for i in 0 ..< 64 {
                var f: UInt32
                let g: Int
                switch i {
                case 0 ..< 16: f = (b & c) | (~b & d); g = i
                case 16 ..< 32: f = (d & b) | (~d & c); g = (5 * i + 1) % 16
                case 32 ..< 48: f = b ^ c ^ d; g = (3 * i + 5) % 16
                default: f = c ^ (b | ~d); g = (7 * i) % 16
                }
                f = f &+ a &+ table[i] &+ words[g]
                a = d; d = c; c = b
                b = b &+ (f << shifts[i] | f >> (32 - shifts[i]))
            }
            a0 = a0 &+ a; b0 = b0 &+ b; c0 = c0 &+ c; d0 = d0 &+ d
        }
        return [a0, b0, c0, d0].flatMap { w in (0 ..< 4).map { UInt8(truncatingIfNeeded: w >> (8 * UInt32($0))) } }
    }

    /// The digest as 32 lowercase hex digits.
    package static func hex(_ message: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        for byte in digest(message) { out.append(digits[Int(byte >> 4)]); out.append(digits[Int(byte & 0x0F)]) }
        return String(decoding: out, as: UTF8.self)
    }
}

/// Metrodroid's salted key digest: MD5(salt ‖ key ‖ salt) in lowercase hex, the salt as UTF-8
/// (Metrodroid src/commonMain/kotlin/au/id/micolous/metrodroid/util/HashUtils.kt, checkKeyHash:
/// "We don't want to ship any agency-specific keys … so this obfuscates the keys").
package enum ClassicKeyDigest {
    package static func hex(key: [UInt8], salt: String) -> String {
        let s = Array(salt.utf8)
        return MD5.hex(s + key + s)
    }
}

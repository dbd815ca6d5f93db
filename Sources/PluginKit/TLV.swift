/// BER-TLV (ISO 7816-4 annex D) as found in FCI templates: a bounds-checked search for a tag.
public enum TLV {
    /// The value of the first `tag` (one or two bytes) in `data`, looking inside constructed objects.
    /// Nil when absent; throws malformedResponse when a length runs past the data.
    public static func find(_ tag: [UInt8], in data: Bytes) throws -> Bytes? {
        var i = 0
        while i < data.count {
            var t = [try data.u8(i)]
            i += 1
            if t[0] & 0x1F == 0x1F { // multi-byte tag: following bytes while bit 8 is set
                repeat { t.append(try data.u8(i)); i += 1 } while t.last.map { $0 & 0x80 != 0 } == true
            }
            var length = Int(try data.u8(i))
            i += 1
            if length & 0x80 != 0 { // long form: the next (length & 7F) bytes
                let n = length & 0x7F
                guard n >= 1, n <= 3 else { throw PluginError.malformedResponse("TLV length of \(n) bytes") }
                length = Int(try data.be(i, n))
                i += n
            }
            let value = try data.slice(i, length)
            if t == tag { return value }
            if t[0] & 0x20 != 0, let inner = try find(tag, in: value) { return inner } // constructed
            i += length
        }
        return nil
    }
}

/// Binary-coded decimal fields.
public enum BCD {
    /// The decimal value of BCD bytes; nil when a nibble is not a digit.
    public static func value(_ b: Bytes) -> Int? {
        guard b.count <= 9 else { return nil } // 18 digits fit an Int
        var v = 0
        for byte in b.storage {
            let hi = Int(byte >> 4), lo = Int(byte & 0x0F)
            guard hi < 10, lo < 10 else { return nil }
            v = v * 100 + hi * 10 + lo
        }
        return v
    }

    /// A BCD date YYYYMMDD (4 bytes) or date-time YYYYMMDDhhmmss (7 bytes) in a fixed zone; nil when
    /// not BCD or out of range (an all-FF or all-zero field means "none").
    public static func civilTime(_ b: Bytes, utcOffset: Int) -> CivilTime? {
        guard b.count == 4 || b.count == 7, let v = value(b) else { return nil }
        if b.count == 4 { return CivilTime(year: v / 10000, month: v / 100 % 100, day: v % 100, utcOffset: utcOffset) }
        let date = v / 1_000_000, time = v % 1_000_000
        return CivilTime(year: date / 10000, month: date / 100 % 100, day: date % 100, hour: time / 10000,
                         minute: time / 100 % 100, second: time % 100, utcOffset: utcOffset)
    }
}

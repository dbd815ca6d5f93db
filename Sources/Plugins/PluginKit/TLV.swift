import CardProtocol

/// BER-TLV (ISO 7816-4 annex D) as found in FCI templates: a bounds-checked search for a tag
/// (CardProtocol's `BERTLV`, the one parser of the project).
public enum TLV {
    /// The value of the first `tag` (one to four bytes) in `data`, looking inside constructed objects.
    /// Nil when absent; throws malformedResponse when a tag or length runs past the data.
    public static func find(_ tag: [UInt8], in data: Bytes) throws -> Bytes? {
        guard (1 ... 4).contains(tag.count) else { return nil }
        do {
            return try BERTLV.find(tag.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }, in: data.storage).map { Bytes($0) }
        } catch let e as CardDataError {
            throw PluginError.malformedResponse(e.description)
        }
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

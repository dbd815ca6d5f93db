import CardProtocol

/// EN 1545 bit-packed card data (Calypso's Intercode, MOBIB, HSL, Adelaide…), read most significant
/// bit first with `BitReader`. A layout is a list of `EN1545Field`s; `EN1545.parse` walks it and
/// gives the values by field name. The facts (docs/research/calypso-desfire-china.md §"EN 1545 layout", Metrodroid
/// `en1545/En1545FixedInteger.kt`, `En1545Bitmap.kt`, `En1545FixedString.kt`; HSL's own card
/// documentation, hsl-card-java, uses the same date epoch):
/// - a date is 14 bits, days since 1997-01-01; a time is 11 bits, minutes since local midnight;
/// - a bitmap is an n-bit presence mask (n = its member count) before its members: mask bit 0, the
///   least significant, stands for the first member; an absent member takes no bits; bitmaps nest;
/// - a string is packed 5 bits a character: 1–26 are A–Z, 0 and 31 a space.
public indirect enum EN1545Field: Sendable {
    /// An unsigned integer of `bits` (1…64) bits.
    case integer(String, bits: Int)
    /// A date: 14 bits, days since 1997-01-01.
    case date(String)
    /// A time of day: 11 bits, minutes since local midnight.
    case time(String)
    /// A string of `bits` bits, 5 a character.
    case string(String, bits: Int)
    /// A presence mask of one bit a member, then the members present.
    case bitmap([EN1545Field])
    /// Members one after the other, all present.
    case container([EN1545Field])
    /// The layout is not known past here: parsing stops, what was read stays.
    case rest

    /// Bits in a date field.
    public static let dateBits = 14
    /// Bits in a time field.
    public static let timeBits = 11
}

/// The values a layout gave, by field name; a field the bitmaps left out has none.
public struct EN1545Values: Equatable, Sendable {
    public private(set) var integers: [String: UInt64] = [:]
    public private(set) var strings: [String: String] = [:]
    /// True when the walk reached a `.rest` with a present member.
    public private(set) var stoppedAtUnknownLayout = false

    public init() {}

    public func integer(_ name: String) -> UInt64? { integers[name] }
    public func string(_ name: String) -> String? { strings[name] }
    /// A date field as a civil date.
    public func date(_ name: String) -> (year: Int, month: Int, day: Int)? { integers[name].map { EN1545.civilDay($0) } }
    public var isEmpty: Bool { integers.isEmpty && strings.isEmpty }

    mutating func set(_ name: String, _ value: UInt64) { integers[name] = value }
    mutating func set(_ name: String, _ value: String) { strings[name] = value }
    mutating func stop() { stoppedAtUnknownLayout = true }
}

/// Walks EN 1545 layouts over card bytes.
public enum EN1545 {
    /// The epoch of EN 1545 dates (day 0).
    public static let epoch = (year: 1997, month: 1, day: 1)

    /// Parses `layout` from `reader`'s position on; throws malformedResponse when a present field runs
    /// past the data.
    public static func parse(_ layout: [EN1545Field], from reader: inout BitReader) throws -> EN1545Values {
        var values = EN1545Values()
        _ = try walk(layout, &reader, &values)
        return values
    }

    /// Parses `layout` from the start of `bytes`.
    public static func parse(_ layout: [EN1545Field], _ bytes: Bytes) throws -> EN1545Values {
        var reader = BitReader(bytes)
        return try parse(layout, from: &reader)
    }

    /// Reads fields in order; false once a `.rest` ended the walk.
    private static func walk(_ fields: [EN1545Field], _ r: inout BitReader, _ v: inout EN1545Values) throws -> Bool {
        for field in fields {
            guard try read(field, &r, &v) else { return false }
        }
        return true
    }

    private static func read(_ field: EN1545Field, _ r: inout BitReader, _ v: inout EN1545Values) throws -> Bool {
        switch field {
        case .integer(let name, let bits): v.set(name, try r.read(bits))
        case .date(let name): v.set(name, try r.read(EN1545Field.dateBits))
        case .time(let name): v.set(name, try r.read(EN1545Field.timeBits))
        case .string(let name, let bits): v.set(name, try string(&r, bits: bits))
        case .container(let members): return try walk(members, &r, &v)
        case .bitmap(let members):
            guard !members.isEmpty else { return true }
            let mask = try r.read(members.count)
            for (i, member) in members.enumerated() where mask >> UInt64(i) & 1 == 1 {
                if case .rest = member { v.stop(); return false }
                guard try read(member, &r, &v) else { return false }
            }
        case .rest: return false
        }
        return true
    }

    /// A 5-bit packed string: 1–26 are A–Z, 0 and 31 spaces (leading and trailing ones dropped),
    /// 27–30 have no letter and read as "?".
    static func string(_ r: inout BitReader, bits: Int) throws -> String {
        var out = ""
        var left = bits
        while left >= 5 {
            let c = try r.read(5)
            switch c {
            case 1 ... 26: out.unicodeScalars.append(Unicode.Scalar(UInt8(64 + c)))
            case 0, 31: if !out.isEmpty { out.append(" ") }
            default: out.append("?")
            }
            left -= 5
        }
        if left > 0 { _ = try r.read(left) }
        while out.hasSuffix(" ") { out.removeLast() }
        return out
    }

    /// The civil date `days` after 1997-01-01.
    public static func civilDay(_ days: UInt64) -> (year: Int, month: Int, day: Int) {
        let base = Gregorian.daysFromUnixEpoch(year: epoch.year, month: epoch.month, day: epoch.day)
        return Gregorian.civil(fromDays: base + Int(days & 0xFFFF))
    }
}

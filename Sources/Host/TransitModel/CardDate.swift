import CardProtocol

/// A value JSON carries as the text the ABI gives it: it decodes only from text that parses.
public protocol TextCodable: Codable, CustomStringConvertible {
    init?(_ text: String)
}

extension TextCodable {
    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = Self(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a \(Self.self): \(text)"))
        }
        self = value
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}

/// A calendar day, `YYYY-MM-DD`, that exists (years 0001–9999, `Gregorian`): validity dates,
/// `--since`, a reference's journey, a station's validity.
public struct CalendarDay: Hashable, Comparable, TextCodable, Sendable {
    public let year: Int, month: Int, day: Int

    public init?(year: Int, month: Int, day: Int) {
        guard Gregorian.isDay(year: year, month: month, day: day) else { return nil }
        self.year = year; self.month = month; self.day = day
    }

    /// `YYYY-MM-DD` exactly; nil for any other text or a day that does not exist.
    public init?(_ text: String) {
        guard let day = Digits.withBytes(text, { c in c.count == 10 ? CalendarDay(c) : nil }) else { return nil }
        self = day
    }

    /// The day of `YYYY-MM-DD` at the start of `c`.
    init?(_ c: UnsafeBufferPointer<UInt8>) {
        guard c.count >= 10, c[4] == 0x2D, c[7] == 0x2D, let y = Digits.value(c, 0, 4), let m = Digits.value(c, 5, 2),
              let d = Digits.value(c, 8, 2) else { return nil }
        self.init(year: y, month: m, day: d)
    }

    public var description: String {
        var out = [UInt8]()
        out.reserveCapacity(10)
        Digits.append(year, 4, to: &out); out.append(0x2D); Digits.append(month, 2, to: &out); out.append(0x2D); Digits.append(day, 2, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    public static func < (a: CalendarDay, b: CalendarDay) -> Bool { (a.year, a.month, a.day) < (b.year, b.month, b.day) }
}

/// A time of day on the card's clock, with the UTC offset of the zone the card keeps.
public struct ClockTime: Hashable, Sendable {
    public let hour: Int, minute: Int, second: Int
    /// Minutes east of UTC, at most ±14:00 as zones are.
    public let utcOffsetMinutes: Int

    public init?(hour: Int, minute: Int, second: Int = 0, utcOffsetMinutes: Int) {
        guard (0 ... 23).contains(hour), (0 ... 59).contains(minute), (0 ... 59).contains(second),
              (-14 * 60 ... 14 * 60).contains(utcOffsetMinutes) else { return nil }
        self.hour = hour; self.minute = minute; self.second = second; self.utcOffsetMinutes = utcOffsetMinutes
    }

    /// `HH:MM`, or `HH:MM:SS`.
    public func text(seconds: Bool) -> String {
        var out = [UInt8]()
        out.reserveCapacity(8)
        Digits.append(hour, 2, to: &out); out.append(0x3A); Digits.append(minute, 2, to: &out)
        if seconds { out.append(0x3A); Digits.append(second, 2, to: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    /// `+09:00`.
    public var offsetText: String {
        let m = abs(utcOffsetMinutes)
        var out: [UInt8] = [utcOffsetMinutes < 0 ? 0x2D : 0x2B]
        Digits.append(m / 60, 2, to: &out); out.append(0x3A); Digits.append(m % 60, 2, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}

/// When a record happened, as the card holds it: a day, and the time of day in the card's own zone
/// when the card records one. The ABI carries it as `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM:SS±HH:MM`;
/// JSON carries the same text.
public struct CardDate: Hashable, Comparable, TextCodable, Sendable {
    public let day: CalendarDay
    public let clock: ClockTime?
    /// The ABI's text of it, made once (listings print it for every record).
    public let description: String

    public init(day: CalendarDay, clock: ClockTime? = nil) {
        self.day = day; self.clock = clock
        description = clock.map { "\(day)T\($0.text(seconds: true))\($0.offsetText)" } ?? day.description
    }

    /// The ABI's text; nil for anything else.
    public init?(_ text: String) {
        guard let (day, clock) = Digits.withBytes(text, { c -> (CalendarDay, ClockTime?)? in
            guard let day = CalendarDay(c) else { return nil }
            if c.count == 10 { return (day, nil) }
            guard c.count == 25, c[10] == 0x54, c[13] == 0x3A, c[16] == 0x3A, c[19] == 0x2B || c[19] == 0x2D, c[22] == 0x3A,
                  let h = Digits.value(c, 11, 2), let mi = Digits.value(c, 14, 2), let s = Digits.value(c, 17, 2),
                  let oh = Digits.value(c, 20, 2), let om = Digits.value(c, 23, 2), om < 60,
                  let clock = ClockTime(hour: h, minute: mi, second: s, utcOffsetMinutes: (c[19] == 0x2D ? -1 : 1) * (oh * 60 + om))
            else { return nil }
            return (day, clock)
        }) else { return nil }
        self.day = day; self.clock = clock; description = text
    }

    /// Ordered as the text orders (the day first; records of one card share its zone).
    public static func < (a: CardDate, b: CardDate) -> Bool { a.description < b.description }
}

/// ASCII digits as numbers and back, for the date forms above, without a copy of the text.
enum Digits {
    static func withBytes<T>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> T?) -> T? {
        var text = text
        return text.withUTF8(body)
    }

    /// The number of `count` digits at `offset`; nil when one is not a digit.
    static func value(_ c: UnsafeBufferPointer<UInt8>, _ offset: Int, _ count: Int) -> Int? {
        var v = 0
        for i in offset ..< offset + count {
            let b = c[i]
            guard (0x30 ... 0x39).contains(b) else { return nil }
            v = v * 10 + Int(b - 0x30)
        }
        return v
    }

    /// `v` as `width` digits, zero-padded (the date forms' fields are never wider).
    static func append(_ v: Int, _ width: Int, to out: inout [UInt8]) {
        var digits = [UInt8](repeating: 0x30, count: width)
        var n = v
        for i in stride(from: width - 1, through: 0, by: -1) {
            digits[i] = UInt8(0x30 + n % 10)
            n /= 10
        }
        out += digits
    }
}

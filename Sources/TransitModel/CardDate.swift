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
        let c = Array(text.utf8)
        guard c.count == 10, c[4] == 0x2D, c[7] == 0x2D, let y = Digits.value(c[0 ..< 4]), let m = Digits.value(c[5 ..< 7]),
              let d = Digits.value(c[8 ..< 10]) else { return nil }
        self.init(year: y, month: m, day: d)
    }

    public var description: String { "\(Digits.padded(year, 4))-\(Digits.padded(month, 2))-\(Digits.padded(day, 2))" }

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
        "\(Digits.padded(hour, 2)):\(Digits.padded(minute, 2))" + (seconds ? ":\(Digits.padded(second, 2))" : "")
    }

    /// `+09:00`.
    public var offsetText: String {
        let m = abs(utcOffsetMinutes)
        return (utcOffsetMinutes < 0 ? "-" : "+") + "\(Digits.padded(m / 60, 2)):\(Digits.padded(m % 60, 2))"
    }
}

/// When a record happened, as the card holds it: a day, and the time of day in the card's own zone
/// when the card records one. The ABI carries it as `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM:SS±HH:MM`;
/// JSON carries the same text.
public struct CardDate: Hashable, Comparable, TextCodable, Sendable {
    public let day: CalendarDay
    public let clock: ClockTime?

    public init(day: CalendarDay, clock: ClockTime? = nil) {
        self.day = day; self.clock = clock
    }

    /// The ABI's text; nil for anything else.
    public init?(_ text: String) {
        let c = Array(text.utf8)
        if c.count == 10, let day = CalendarDay(text) { self.init(day: day); return }
        guard c.count == 25, let day = CalendarDay(String(decoding: c[0 ..< 10], as: UTF8.self)), c[10] == 0x54, c[13] == 0x3A,
              c[16] == 0x3A, c[19] == 0x2B || c[19] == 0x2D, c[22] == 0x3A,
              let h = Digits.value(c[11 ..< 13]), let mi = Digits.value(c[14 ..< 16]), let s = Digits.value(c[17 ..< 19]),
              let oh = Digits.value(c[20 ..< 22]), let om = Digits.value(c[23 ..< 25]), om < 60,
              let clock = ClockTime(hour: h, minute: mi, second: s, utcOffsetMinutes: (c[19] == 0x2D ? -1 : 1) * (oh * 60 + om))
        else { return nil }
        self.init(day: day, clock: clock)
    }

    public var description: String {
        guard let clock else { return day.description }
        return "\(day)T\(clock.text(seconds: true))\(clock.offsetText)"
    }

    /// Ordered as the text orders (the day first; records of one card share its zone).
    public static func < (a: CardDate, b: CardDate) -> Bool { a.description < b.description }
}

/// ASCII digits as numbers and back, for the date forms above.
enum Digits {
    static func value(_ digits: ArraySlice<UInt8>) -> Int? {
        var v = 0
        for b in digits {
            guard (0x30 ... 0x39).contains(b) else { return nil }
            v = v * 10 + Int(b - 0x30)
        }
        return v
    }

    static func padded(_ v: Int, _ width: Int) -> String {
        let s = String(v)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }
}

/// Amounts in a currency's minor units, formatted as people read them on a ticket machine.
package enum Money {
    /// Symbol and number of minor digits for the currencies the families use (ISO 4217 exponents).
    private static let formats: [String: (symbol: String, digits: Int)] = [
        "JPY": ("¥", 0), "KRW": ("₩", 0), "SGD": ("S$", 2), "HKD": ("HK$", 2), "CNY": ("CN¥", 2), "NZD": ("NZ$", 2),
    ]

    package static func format(_ minor: Int64, _ currency: String) -> String {
        let f = formats[currency] ?? (symbol: "", digits: 2)
        let sign = minor < 0 ? "-" : ""
        let magnitude = minor.magnitude
        var scale: UInt64 = 1
        for _ in 0 ..< f.digits { scale *= 10 }
        let whole = grouped(magnitude / scale)
        let fraction = f.digits == 0 ? "" : "." + padded(magnitude % scale, f.digits)
        return f.symbol.isEmpty ? "\(sign)\(whole)\(fraction) \(currency)" : "\(sign)\(f.symbol)\(whole)\(fraction)"
    }

    /// A plain decimal in major units, as spreadsheets read it: `-1.60` (SGD), `160` (JPY).
    package static func decimal(_ minor: Int64, _ currency: String) -> String {
        let digits = (formats[currency] ?? (symbol: "", digits: 2)).digits
        guard digits > 0 else { return String(minor) }
        var scale: UInt64 = 1
        for _ in 0 ..< digits { scale *= 10 }
        let magnitude = minor.magnitude
        return (minor < 0 ? "-" : "") + String(magnitude / scale) + "." + padded(magnitude % scale, digits)
    }

    /// `12,345`: the digits of `v` in groups of three.
    package static func grouped(_ v: UInt64) -> String {
        var digits = Array(String(v))
        var i = digits.count - 3
        while i > 0 { digits.insert(",", at: i); i -= 3 }
        return String(digits)
    }

    private static func padded(_ v: UInt64, _ width: Int) -> String {
        let s = String(v)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }
}

/// Amounts in a currency's minor units, formatted as people read them on a ticket machine.
package enum Money {
    /// Symbol and number of minor digits for the currencies the families use (ISO 4217 exponents).
    private static let formats: [String: (symbol: String, digits: Int)] = [
        "JPY": ("¥", 0), "KRW": ("₩", 0), "SGD": ("S$", 2), "HKD": ("HK$", 2), "CNY": ("CN¥", 2), "NZD": ("NZ$", 2),
    ]

    package static func format(_ minor: Int64, _ currency: String) -> String {
        Format(currency)(minor)
    }

    /// `format` for one currency, its symbol and digits looked up once (a table of 10,000 rows).
    package struct Format {
        private let currency: String, symbol: String, digits: Int, scale: UInt64, surplus: Int

        package init(_ currency: String) {
            let f = Money.formats[currency] ?? (symbol: "", digits: 2)
            var scale: UInt64 = 1
            for _ in 0 ..< f.digits { scale *= 10 }
            self.currency = currency; symbol = f.symbol; digits = f.digits; self.scale = scale
            surplus = f.symbol.utf8.count - f.symbol.count
        }

        /// How many characters `text`, which this format wrote (a sign before it or not), shows:
        /// its bytes, less those of the symbol's that are not characters of their own (¥ is two
        /// bytes, one character).
        package func characters(_ text: String) -> Int { text.isEmpty ? 0 : text.utf8.count - surplus }

        /// `¥1,234`, `-S$1.60`, `1.60 EUR`: written straight into the string's own storage (a
        /// short one needs no allocation).
        package func callAsFunction(_ minor: Int64) -> String {
            let magnitude = minor.magnitude
            var whole = magnitude / scale, fraction = magnitude % scale
            var wholeDigits = 1
            var probe = whole
            while probe >= 10 { probe /= 10; wholeDigits += 1 }
            let capacity = 1 + symbol.utf8.count + wholeDigits + wholeDigits / 3 + (digits > 0 ? 1 + digits : 0)
                + (symbol.isEmpty ? 1 + currency.utf8.count : 0)
            return String(unsafeUninitializedCapacity: capacity) { buffer in
                var n = 0
                func put(_ b: UInt8) { buffer[n] = b; n += 1 }
                if minor < 0 { put(UInt8(ascii: "-")) }
                for b in symbol.utf8 { put(b) }
                // The whole part's digits, a comma before each group of three but the first.
                var place: UInt64 = 1
                for _ in 1 ..< wholeDigits { place *= 10 }
                for i in 0 ..< wholeDigits {
                    if i > 0, (wholeDigits - i) % 3 == 0 { put(UInt8(ascii: ",")) }
                    put(UInt8(ascii: "0") + UInt8(whole / place))
                    whole %= place
                    place /= 10
                }
                if digits > 0 {
                    put(UInt8(ascii: "."))
                    var fractionPlace = scale / 10
                    while fractionPlace > 0 {
                        put(UInt8(ascii: "0") + UInt8(fraction / fractionPlace))
                        fraction %= fractionPlace
                        fractionPlace /= 10
                    }
                }
                if symbol.isEmpty {
                    put(UInt8(ascii: " "))
                    for b in currency.utf8 { put(b) }
                }
                return n
            }
        }
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
        guard v >= 1000 else { return String(v) }
        let digits = Array(String(v).utf8)
        var out = [UInt8]()
        out.reserveCapacity(digits.count + digits.count / 3)
        for (i, d) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(UInt8(ascii: ",")) }
            out.append(d)
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func padded(_ v: UInt64, _ width: Int) -> String {
        let s = String(v)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }
}

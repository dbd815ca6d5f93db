/// Values the result builder accepts: real dates and times, ISO 4217 currency codes.
enum CalendarCheck {
    /// YYYY-MM-DD of a day that exists (leap years included).
    static func isDate(_ s: String) -> Bool {
        let c = Array(s.utf8)
        guard c.count == 10, c[4] == 0x2D, c[7] == 0x2D, let y = number(c, 0, 4), let m = number(c, 5, 2), let d = number(c, 8, 2) else {
            return false
        }
        return (1 ... 12).contains(m) && (1 ... daysIn(month: m, year: y)).contains(d)
    }

    /// YYYY-MM-DDTHH:MM:SS±HH:MM with a real date, time and UTC offset (at most ±14:00, as zones are).
    static func isDateTime(_ s: String) -> Bool {
        let c = Array(s.utf8)
        guard c.count == 25, isDate(String(decoding: c[0 ..< 10], as: UTF8.self)), c[10] == 0x54, c[13] == 0x3A, c[16] == 0x3A,
              c[19] == 0x2B || c[19] == 0x2D, c[22] == 0x3A,
              let h = number(c, 11, 2), let mi = number(c, 14, 2), let sec = number(c, 17, 2),
              let oh = number(c, 20, 2), let om = number(c, 23, 2) else { return false }
        return h < 24 && mi < 60 && sec < 60 && om < 60 && (oh < 14 || (oh == 14 && om == 0))
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func number(_ c: [UInt8], _ at: Int, _ n: Int) -> Int? {
        var v = 0
        for b in c[at ..< at + n] {
            guard (0x30 ... 0x39).contains(b) else { return nil }
            v = v * 10 + Int(b - 0x30)
        }
        return v
    }

    /// True for an active ISO 4217 alphabetic code.
    static func isCurrency(_ code: String) -> Bool { currencies.contains(code) }

    /// The active alphabetic codes of ISO 4217 (list one, as the ISO 4217 maintenance agency
    /// publishes it; funds and precious-metal codes left out: no card holds a balance in them).
    static let currencies: Set<String> = [
        "AED", "AFN", "ALL", "AMD", "ANG", "AOA", "ARS", "AUD", "AWG", "AZN", "BAM", "BBD", "BDT", "BGN", "BHD", "BIF",
        "BMD", "BND", "BOB", "BRL", "BSD", "BTN", "BWP", "BYN", "BZD", "CAD", "CDF", "CHF", "CLP", "CNY", "COP", "CRC",
        "CUP", "CVE", "CZK", "DJF", "DKK", "DOP", "DZD", "EGP", "ERN", "ETB", "EUR", "FJD", "FKP", "GBP", "GEL", "GHS",
        "GIP", "GMD", "GNF", "GTQ", "GYD", "HKD", "HNL", "HTG", "HUF", "IDR", "ILS", "INR", "IQD", "IRR", "ISK", "JMD",
        "JOD", "JPY", "KES", "KGS", "KHR", "KMF", "KPW", "KRW", "KWD", "KYD", "KZT", "LAK", "LBP", "LKR", "LRD", "LSL",
        "LYD", "MAD", "MDL", "MGA", "MKD", "MMK", "MNT", "MOP", "MRU", "MUR", "MVR", "MWK", "MXN", "MYR", "MZN", "NAD",
        "NGN", "NIO", "NOK", "NPR", "NZD", "OMR", "PAB", "PEN", "PGK", "PHP", "PKR", "PLN", "PYG", "QAR", "RON", "RSD",
        "RUB", "RWF", "SAR", "SBD", "SCR", "SDG", "SEK", "SGD", "SHP", "SLE", "SOS", "SRD", "SSP", "STN", "SVC", "SYP",
        "SZL", "THB", "TJS", "TMT", "TND", "TOP", "TRY", "TTD", "TWD", "TZS", "UAH", "UGX", "USD", "UYU", "UZS", "VED",
        "VES", "VND", "VUV", "WST", "XAF", "XCD", "XCG", "XOF", "XPF", "YER", "ZAR", "ZMW", "ZWG",
    ]
}

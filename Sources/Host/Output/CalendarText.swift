/// Real calendar dates and clock times, as a reference writes them.
enum CalendarText {
    /// YYYY-MM-DD, a day that exists (leap years included).
    static func isDate(_ s: String) -> Bool {
        let b = Array(s.utf8)
        guard b.count == 10, b[4] == 0x2D, b[7] == 0x2D, let y = number(b[0 ..< 4]), let m = number(b[5 ..< 7]),
              let d = number(b[8 ..< 10]), (1 ... 12).contains(m), y >= 1 else { return false }
        let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]
        return (1 ... days).contains(d)
    }

    /// HH:MM, 00:00 to 23:59.
    static func isTime(_ s: String) -> Bool {
        let b = Array(s.utf8)
        guard b.count == 5, b[2] == 0x3A, let h = number(b[0 ..< 2]), let m = number(b[3 ..< 5]) else { return false }
        return h < 24 && m < 60
    }

    /// The value of ASCII digits only.
    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        guard digits.allSatisfy({ (0x30 ... 0x39).contains($0) }) else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }
}

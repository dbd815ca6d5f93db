/// The parts of an ATR the host hands to plugins (ISO/IEC 7816-3, 8.2: TS, T0, interface bytes
/// announced by each Y nibble, then T0's K historical bytes; PC/SC Part 3, 3.1.3.2.3 builds a
/// contactless card's ATR this way).
package enum ATR {
    /// The historical bytes, or nil when the ATR is too short for what it announces.
    package static func historicalBytes(_ atr: [UInt8]) -> [UInt8]? {
        guard atr.count >= 2 else { return nil }
        let k = Int(atr[1] & 0x0F)
        var y = atr[1] >> 4
        var i = 2
        while true {
            // TA, TB, TC present by bits 5, 6, 7 of Y; TD by bit 8, carrying the next Y.
            i += [0x1, 0x2, 0x4].filter { y & $0 != 0 }.count
            guard y & 0x8 != 0 else { break }
            guard i < atr.count else { return nil }
            y = atr[i] >> 4
            i += 1
        }
        guard i + k <= atr.count else { return nil }
        return Array(atr[i ..< i + k])
    }
}

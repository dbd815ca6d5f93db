/// How long a FeliCa card may take to answer a frame, for InCommRF's timeout: past it the card is
/// silent. The card states its own times in its PMm (nfcpy tt3.py, docs/research/port100.md §"FeliCa card timing").
package enum FeliCaTiming {
    /// A Polling's answer window: 3.625 ms + 1.208 ms a time slot (nfcpy tt3.py), and never
    /// below the 10 ms nfcpy's RC-S380 driver polls with (`6E 00`, docs/research/port100.md §"Timeouts", V5).
    package static func polling(slots: Int) -> Double {
        max(0.010, 0.003_625 + 0.001_208 * Double(max(1, slots)))
    }

    /// Read Without Encryption of `blocks` blocks: 302.1 µs × ((b + 1) × n + a + 1) × 4^e, with
    /// a, b and e from PMm byte 5, bits 0–2, 3–5 and 6–7 (nfcpy tt3.py); nil without a PMm.
    package static func readWithoutEncryption(pmm: [UInt8], blocks: Int) -> Double? {
        guard pmm.count == 8 else { return nil }
        let byte = Int(pmm[5])
        let a = byte & 0x07, b = byte >> 3 & 0x07, e = byte >> 6 & 0x03
        return 302.1e-6 * Double((b + 1) * max(0, blocks) + a + 1) * Double(1 << (2 * e))
    }

    /// The timeout for `frame` (length byte first) to a card of PMm `pmm`: a Polling's window, a
    /// read's time by the PMm when longer than `floor`, else `floor`.
    package static func timeout(for frame: [UInt8], pmm: [UInt8], floor: Double) -> Double {
        guard frame.count >= 2 else { return floor }
        switch frame[1] {
        case 0x00 where frame.count >= 6:
            // Polling: LEN 00 SC SC RC TSN; the time slot number is the slots less one.
            return polling(slots: Int(frame[5]) + 1)
        case 0x06 where frame.count >= 11:
            // Read Without Encryption: LEN 06 IDm(8) m SC(2m) n blocks…
            let services = Int(frame[10]), countAt = 11 + 2 * services
            guard countAt < frame.count, let read = readWithoutEncryption(pmm: pmm, blocks: Int(frame[countAt])) else { return floor }
            return max(floor, read)
        default:
            return floor
        }
    }
}

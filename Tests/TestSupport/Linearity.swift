import Foundation

/// How a parser's time grows with its input: the best of a few timings of an input `factor` times
/// longer, over the best of the same input's short form. Linear parsing gives about `factor`, a
/// quadratic one about `factor`²: a ratio, never wall seconds, so a loaded machine does not fail it.
public enum Linearity {
    /// The growth ratio of `parse` from `make(n)` to `make(factor × n)`.
    public static func growth(n: Int, factor: Int = 8, runs: Int = 3, make: (Int) -> Data, parse: (Data) -> Void) -> Double {
        func best(_ data: Data) -> Double {
            (0 ..< runs).map { _ in
                let start = DispatchTime.now().uptimeNanoseconds
                parse(data)
                return Double(DispatchTime.now().uptimeNanoseconds - start)
            }.min() ?? 0
        }
        let short = make(n), long = make(n * factor)
        return best(long) / max(best(short), 1)
    }

    /// Fillers a hostile file runs on one line: blanks, tabs, CRs (a CRLF's half) and NULs.
    public static let fillers: [(name: String, byte: UInt8)] = [("blanks", 0x20), ("tabs", 0x09), ("CRs", 0x0D), ("NULs", 0x00)]

    /// `text` with `count` of `filler` inside the line of the first `marker`: right after the
    /// marker, or at the line's end (before its LF).
    public static func padded(_ text: String, after marker: String, atLineEnd: Bool = false, with filler: UInt8, count: Int) -> Data {
        var bytes = Array(text.utf8)
        let m = Array(marker.utf8)
        var at = (0 ... max(0, bytes.count - m.count)).first { Array(bytes[$0 ..< $0 + m.count]) == m }.map { $0 + m.count } ?? bytes.count
        if atLineEnd { at = bytes[at...].firstIndex(of: 0x0A) ?? bytes.count }
        bytes.insert(contentsOf: repeatElement(filler, count: count), at: at)
        return Data(bytes)
    }
}

/// The lines of a text dump, each without its line end (LF or CRLF) and the spaces around it;
/// empty lines left out. One pass over the bytes.
enum DumpLines {
    typealias Line = ArraySlice<UInt8>

    static func of(_ text: String) -> [Line] {
        Array(text.utf8).split(separator: UInt8(ascii: "\n")).map(trimmed).filter { !$0.isEmpty }
    }

    static func trimmed(_ s: Line) -> Line {
        var s = s
        while let c = s.last, c == 0x20 || c == 0x09 || c == 0x0D { s = s.dropLast() }
        while let c = s.first, c == 0x20 || c == 0x09 { s = s.dropFirst() }
        return s
    }

    static func string(_ s: Line) -> String { String(decoding: s, as: UTF8.self) }

    /// `Key: value` lines: the key before the first colon, and the value after it, trimmed.
    static func keyValue(_ line: Line) -> (key: Line, value: Line)? {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        return (trimmed(line[..<colon]), trimmed(line[(colon + 1)...]))
    }

    /// A non-negative decimal number of at most 9 digits (nothing larger is a block or page).
    static func number(_ s: Line) -> Int? {
        guard !s.isEmpty, s.count <= 9, s.allSatisfy({ (0x30 ... 0x39).contains($0) }) else { return nil }
        return s.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// Space-separated bytes (`04 A1 ?? FF`): each two hex digits or "??"; nil when a token is
    /// anything else.
    static func bytes(_ s: Line) -> [UInt8?]? {
        var out = [UInt8?]()
        for token in s.split(separator: 0x20) {
            guard token.count == 2, let b = MifareLayout.byte(token[token.startIndex], token[token.startIndex + 1]) else { return nil }
            out.append(b)
        }
        return out
    }
}

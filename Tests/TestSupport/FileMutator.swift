import Foundation

/// Mutates a file's bytes as careless tools and attackers do: bits flipped, bytes replaced,
/// truncated, a range cut or repeated, a hex digit changed, two lines swapped, or a token that
/// matters to the formats (JSON punctuation, huge numbers, CR, Flipper lines) put in.
/// Deterministic for a seed.
public struct FileMutator {
    private var random: SplitMix64
    public init(seed: UInt64) { random = SplitMix64(seed: seed) }

    static let tokens = ["\"", "{", "}", "[", "]", ",", ":", "null", "-1", "1e400", "99999999999999999999", "\"ZZ\"", "\"\"",
                         "\r\n", "\n", "\r", "|", "\u{0}", "é", "\"FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF\"", "\"time\": \"1\", ",
                         "\nSystem 01: 0003\n", "\nBlock 0000: | Service code 090F | Block index 00 | Data: 00 |\n",
                         "\nService 000: | Code 090F | Attrib. 0F | Private |\n"].map { Array($0.utf8) }

    /// One to three mutations of `data`.
    public mutating func mutate(_ data: Data) -> Data {
        var b = [UInt8](data)
        for _ in 0 ... random.below(3) { mutateOnce(&b) }
        return Data(b)
    }

    private mutating func mutateOnce(_ b: inout [UInt8]) {
        let at = random.below(b.count + 1)
        switch random.below(8) {
        case 0 where !b.isEmpty: b[random.below(b.count)] ^= 1 << UInt8(random.below(8))
        case 1 where !b.isEmpty: b[random.below(b.count)] = random.byte()
        case 2: b = Array(b.prefix(at))
        case 3: b.removeSubrange(at ..< min(b.count, at + 1 + random.below(64)))
        case 4:
            let piece = b[at ..< min(b.count, at + 1 + random.below(256))]
            b.insert(contentsOf: piece, at: random.below(b.count + 1))
        case 5: b.insert(contentsOf: Self.tokens[random.below(Self.tokens.count)], at: at)
        case 6 where !b.isEmpty:
            let hex = Array("0123456789ABCDEF".utf8)
            if let i = (0 ..< 8).map({ _ in random.below(b.count) }).first(where: { hex.contains(b[$0]) }) {
                b[i] = hex[random.below(hex.count)]
            }
        case 7:
            var lines = b.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            guard lines.count > 1 else { return }
            lines.swapAt(random.below(lines.count), random.below(lines.count))
            b = Array(lines.joined(separator: [UInt8(ascii: "\n")]))
        default: break
        }
    }
}

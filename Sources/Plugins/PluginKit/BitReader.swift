/// Reads big-endian bit fields (most significant bit first) from card bytes, bounds-checked.
public struct BitReader {
    private let bytes: Bytes
    /// The next bit to read, counted from bit 7 of byte 0.
    public private(set) var position: Int

    public init(_ bytes: Bytes, startingAtByte offset: Int = 0) {
        self.bytes = bytes
        position = offset * 8
    }

    /// The next `count` bits (1…64) as an unsigned value; throws malformedResponse past the end.
    public mutating func read(_ count: Int) throws -> UInt64 {
        guard count > 0, count <= 64, position + count <= bytes.count * 8 else {
            throw PluginError.malformedResponse("bit field of \(count) bits at bit \(position) runs past \(bytes.count) bytes")
        }
        var value: UInt64 = 0
        for _ in 0 ..< count {
            let byte = try bytes.u8(position / 8)
            value = value << 1 | UInt64(byte >> (7 - UInt8(position % 8)) & 1)
            position += 1
        }
        return value
    }
}

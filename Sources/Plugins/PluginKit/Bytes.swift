import CardProtocol

/// Bounds-checked reading of card bytes: every access that would fall outside the answer
/// throws `PluginError.malformedResponse` instead of trapping (a trap would kill the host).
public struct Bytes: Equatable, Sendable {
    public let storage: [UInt8]

    public init(_ bytes: [UInt8]) { storage = bytes }
    public init<S: Sequence>(_ bytes: S) where S.Element == UInt8 { storage = Array(bytes) }

    public var count: Int { storage.count }
    public var isEmpty: Bool { storage.isEmpty }

    /// One byte at `offset`.
    public func u8(_ offset: Int) throws -> UInt8 {
        guard offset >= 0, offset < storage.count else { throw short(offset, 1) }
        return storage[offset]
    }

    /// `length` bytes from `offset`.
    public func slice(_ offset: Int, _ length: Int) throws -> Bytes {
        guard offset >= 0, length >= 0, offset <= storage.count - length else { throw short(offset, length) }
        return Bytes(storage[offset ..< offset + length])
    }

    /// The bytes from `offset` to the end.
    public func suffix(from offset: Int) throws -> Bytes {
        try slice(offset, storage.count - offset)
    }

    /// Big-endian unsigned integer of `length` (1…8) bytes at `offset`.
    public func be(_ offset: Int, _ length: Int) throws -> UInt64 {
        try Self.checkWidth(length)
        return try slice(offset, length).storage.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// Little-endian unsigned integer of `length` (1…8) bytes at `offset`.
    public func le(_ offset: Int, _ length: Int) throws -> UInt64 {
        try Self.checkWidth(length)
        return try slice(offset, length).storage.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// Big-endian two's-complement integer of `length` (1…8) bytes at `offset`.
    public func signedBE(_ offset: Int, _ length: Int) throws -> Int64 {
        let raw = try be(offset, length)
        let unused = UInt64(64 - length * 8) // shift the sign bit to the top, then back with sign extension
        return Int64(bitPattern: raw << unused) >> unused
    }

    private static func checkWidth(_ length: Int) throws {
        guard (1 ... 8).contains(length) else { throw PluginError.internal("integer of \(length) bytes asked (1–8)") }
    }

    /// Uppercase hex of all bytes.
    public var hex: String { Hex.string(storage) }

    private func short(_ offset: Int, _ length: Int) -> PluginError {
        .malformedResponse("answer of \(storage.count) bytes has no \(length) bytes at offset \(offset)")
    }
}

/// Hex text of bytes, uppercase: CardProtocol's `HexFormat`, the project's one.
public typealias Hex = HexFormat

/// What a listing takes from a record's stored JSON besides its columns — its metadata's text
/// values, its raw type and raw payload — read in one strict pass over the bytes SQLite hands
/// back, with the row's other columns (issue 47: SQLite's json_valid, json_each and json_extract
/// parsed each record two to four times, in a second query, and were a third of `history`).
///
/// The stored JSON is the archive's, which a person may have edited: the scanner takes RFC 8259
/// JSON only (nesting bounded), and a record whose JSON is not JSON gives nothing, as before.
/// What it gives is what the queries gave: `metadata`'s members whose value is a string (the
/// last of a repeated key), the first top-level `rawType` and `rawPayload` when they are strings,
/// names matched as written (an escaped `met\u0061data` is not `metadata`, as for SQLite's paths).
package struct StoredRecordFields {
    package var metadata: [String: String] = [:]
    package var rawType: String?
    package var rawPayload: String?

    /// Deeper nesting than this is refused, as SQLite refuses it (its JSON depth limit: 1,000, or
    /// 2,000 before 3.42).
    static let depthLimit = 1000

    /// The fields of `json`; nil when it is not a JSON object. `unsaid`: metadata keys the listing
    /// never shows (the regions and sequence of a history without --verbose), checked and passed
    /// over: no dictionary a record for what no line prints.
    package static func parse(_ json: UnsafeBufferPointer<UInt8>, metadata wantMetadata: Bool, raw wantRaw: Bool,
                              unsaid: [[UInt8]] = []) -> StoredRecordFields? {
        var scanner = Scanner(bytes: json)
        var out = StoredRecordFields()
        // Only the first of a repeated key counts (as SQLite's paths find it).
        var seenMetadata = false, seenType = false, seenPayload = false
        scanner.skipSpace()
        // JSON that is not an object (SQLite's json_valid takes it) has none of the fields.
        guard scanner.take(UInt8(ascii: "{")) else {
            guard scanner.skipValue(depth: 1) else { return nil }
            scanner.skipSpace()
            return scanner.atEnd ? out : nil
        }
        scanner.skipSpace()
        if !scanner.take(UInt8(ascii: "}")) {
            repeat {
                scanner.skipSpace()
                guard let key = scanner.key() else { return nil }
                scanner.skipSpace()
                guard scanner.take(UInt8(ascii: ":")) else { return nil }
                scanner.skipSpace()
                if key == .metadata, !seenMetadata, wantMetadata {
                    seenMetadata = true
                    guard scanner.members(into: &out.metadata, unsaid: unsaid) else { return nil }
                } else if key == .rawType && !seenType || key == .rawPayload && !seenPayload, wantRaw {
                    if key == .rawType { seenType = true } else { seenPayload = true }
                    if scanner.peek == UInt8(ascii: "\"") {
                        guard let s = scanner.string() else { return nil }
                        if key == .rawType { out.rawType = s } else { out.rawPayload = s }
                    } else {
                        guard scanner.skipValue(depth: 1) else { return nil }
                    }
                } else {
                    guard scanner.skipValue(depth: 1) else { return nil }
                }
                scanner.skipSpace()
            } while scanner.take(UInt8(ascii: ","))
            guard scanner.take(UInt8(ascii: "}")) else { return nil }
        }
        scanner.skipSpace()
        return scanner.atEnd ? out : nil
    }

    /// A top-level key: one of the three wanted, or another.
    private enum Key { case metadata, rawType, rawPayload, other }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var i = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        var atEnd: Bool { i >= bytes.count }
        var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

        mutating func take(_ byte: UInt8) -> Bool {
            guard peek == byte else { return false }
            i += 1
            return true
        }

        mutating func skipSpace() {
            while let b = peek, b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { i += 1 }
        }

        /// An object's members whose values are strings, into `out` (an array's strings by their
        /// index, as json_each gives them); the other members are checked and skipped.
        mutating func members(into out: inout [String: String], unsaid: [[UInt8]] = []) -> Bool {
            if take(UInt8(ascii: "[")) {
                skipSpace()
                if take(UInt8(ascii: "]")) { return true }
                out.reserveCapacity(6) // a record's usual few members at once (no regrowth a record)
                var index = 0
                repeat {
                    skipSpace()
                    if peek == UInt8(ascii: "\"") {
                        guard let value = string() else { return false }
                        out[String(index)] = value
                    } else if !skipValue(depth: 2) { return false }
                    index += 1
                    skipSpace()
                } while take(UInt8(ascii: ","))
                return take(UInt8(ascii: "]"))
            }
            guard take(UInt8(ascii: "{")) else { return skipValue(depth: 1) } // a scalar: no members
            skipSpace()
            if take(UInt8(ascii: "}")) { return true }
            repeat {
                skipSpace()
                // The member's name; nil for a key the listing leaves out, told by its bytes (no
                // String made of it) and its value checked and passed over.
                let key: String?
                if let name = plainName() {
                    let written = UnsafeBufferPointer(rebasing: bytes[name])
                    key = unsaid.contains(where: { Self.same($0, written) }) ? nil : String(decoding: written, as: UTF8.self)
                } else {
                    guard let escaped = string() else { return false }
                    key = escaped
                }
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return false }
                skipSpace()
                if let key, peek == UInt8(ascii: "\"") {
                    guard let value = string() else { return false }
                    // A record's usual few members at once (no regrowth a record), when it has one to keep.
                    if out.isEmpty { out.reserveCapacity(6) }
                    out[key] = value
                } else if !skipValue(depth: 2) { return false }
                skipSpace()
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "}"))
        }

        private static func same(_ a: [UInt8], _ b: UnsafeBufferPointer<UInt8>) -> Bool {
            guard a.count == b.count else { return false }
            for k in 0 ..< a.count where a[k] != b[k] { return false }
            return true
        }

        /// The bytes of the name at `i` when it holds no escape, the name then passed over; nil
        /// (and nothing passed) for any other.
        mutating func plainName() -> Range<Int>? {
            guard peek == UInt8(ascii: "\"") else { return nil }
            var k = i + 1
            while k < bytes.count, bytes[k] != UInt8(ascii: "\""), bytes[k] != UInt8(ascii: "\\"), bytes[k] >= 0x20 { k += 1 }
            guard k < bytes.count, bytes[k] == UInt8(ascii: "\"") else { return nil }
            defer { i = k + 1 }
            return i + 1 ..< k
        }

        /// A member's name, told from the three wanted by its bytes as written (no String made of it).
        mutating func key() -> Key? {
            if let name = plainName() { return Self.which(UnsafeBufferPointer(rebasing: bytes[name])) }
            // SQLite's paths compare a member's name as it is written: an escaped name is none of the three.
            return skipString() ? .other : nil
        }

        private static func which(_ b: UnsafeBufferPointer<UInt8>) -> Key {
            func named(_ word: StaticString) -> Bool {
                guard b.count == word.utf8CodeUnitCount else { return false }
                let w = word.utf8Start
                for k in 0 ..< b.count where b[k] != w[k] { return false }
                return true
            }
            switch b.count {
            case 8: return named("metadata") ? .metadata : .other
            case 7: return named("rawType") ? .rawType : .other
            case 10: return named("rawPayload") ? .rawPayload : .other
            default: return .other
            }
        }

        /// Any JSON value, checked and passed over.
        mutating func skipValue(depth: Int) -> Bool {
            guard depth <= StoredRecordFields.depthLimit, let b = peek else { return false }
            switch b {
            case UInt8(ascii: "\""): return skipString()
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let close = b == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                i += 1
                skipSpace()
                if take(close) { return true }
                repeat {
                    skipSpace()
                    if close == UInt8(ascii: "}") {
                        guard skipString() else { return false }
                        skipSpace()
                        guard take(UInt8(ascii: ":")) else { return false }
                        skipSpace()
                    }
                    guard skipValue(depth: depth + 1) else { return false }
                    skipSpace()
                } while take(UInt8(ascii: ","))
                return take(close)
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "n"): return literal("null")
            default: return number()
            }
        }

        mutating func literal(_ word: StaticString) -> Bool {
            let n = word.utf8CodeUnitCount
            guard bytes.count - i >= n else { return false }
            for k in 0 ..< n where bytes[i + k] != word.utf8Start[k] { return false }
            i += n
            return true
        }

        /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
        mutating func number() -> Bool {
            func digits() -> Int {
                let start = i
                while let d = peek, (0x30 ... 0x39).contains(d) { i += 1 }
                return i - start
            }
            _ = take(UInt8(ascii: "-"))
            if take(UInt8(ascii: "0")) {} else if let d = peek, (0x31 ... 0x39).contains(d) { _ = digits() } else { return false }
            if take(UInt8(ascii: ".")), digits() == 0 { return false }
            if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
                if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
                if digits() == 0 { return false }
            }
            return true
        }

        mutating func skipString() -> Bool {
            guard take(UInt8(ascii: "\"")) else { return false }
            while let b = peek {
                i += 1
                switch b {
                case UInt8(ascii: "\""): return true
                case UInt8(ascii: "\\"):
                    guard let e = peek else { return false }
                    i += 1
                    if e == UInt8(ascii: "u") {
                        guard hex4() != nil else { return false }
                    } else if !Self.simpleEscapes.contains(e) { return false }
                case 0x00 ..< 0x20: return false
                default: break
                }
            }
            return false
        }

        private static let simpleEscapes: [UInt8] = Array("\"\\/bfnrt".utf8)

        mutating func hex4() -> UInt32? {
            guard bytes.count - i >= 4 else { return nil }
            var v: UInt32 = 0
            for _ in 0 ..< 4 {
                let c = bytes[i]
                let d: UInt8
                switch c {
                case 0x30 ... 0x39: d = c - 0x30
                case 0x41 ... 0x46: d = c - 0x37
                case 0x61 ... 0x66: d = c - 0x57
                default: return nil
                }
                v = v << 4 | UInt32(d)
                i += 1
            }
            return v
        }

        /// A string's text, its escapes decoded (a lone surrogate as U+FFFD); bytes that are not
        /// UTF-8 repaired as the archive's other text columns are.
        mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = i
            // Most strings hold no escape: taken as they are.
            while let b = peek, b != UInt8(ascii: "\""), b != UInt8(ascii: "\\"), b >= 0x20 { i += 1 }
            guard let stop = peek else { return nil }
            if stop == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start ..< i]), as: UTF8.self)
                i += 1
                return text
            }
            guard stop == UInt8(ascii: "\\") else { return nil } // a raw control character
            var out = Array(bytes[start ..< i])
            while let b = peek {
                i += 1
                switch b {
                case UInt8(ascii: "\""): return String(decoding: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard let e = peek else { return nil }
                    i += 1
                    switch e {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "u"):
                        guard var v = hex4() else { return nil }
                        if (0xD800 ..< 0xDC00).contains(v), bytes.count - i >= 6, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") {
                            let mark = i
                            i += 2
                            if let low = hex4(), (0xDC00 ..< 0xE000).contains(low) {
                                v = 0x10000 + (v - 0xD800) << 10 + (low - 0xDC00)
                            } else {
                                i = mark
                            }
                        }
                        UTF8.encode(Unicode.Scalar(v) ?? "\u{FFFD}") { out.append($0) }
                    default: return nil
                    }
                case 0x00 ..< 0x20: return nil
                default: out.append(b)
                }
            }
            return nil
        }
    }
}

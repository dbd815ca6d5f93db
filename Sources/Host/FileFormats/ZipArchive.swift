import CZlib
import Foundation
import TransitModel

/// The members of a zip file (Metrodroid's "export all": one card a member), read from memory: the
/// container from PKWARE's APPNOTE.TXT (end of central directory 4.3.16, central directory headers
/// 4.3.12, local headers 4.3.7), the data stored (method 0) or deflated (method 8) and inflated
/// with Debian's zlib, each checked against its CRC-32. (libzip would serve too, but pulls
/// libcrypto, bz2 and lzma into every transit process: 1.8 ms more to start each.) What a hostile
/// zip could make large is bounded before anything is inflated: the number of members, every
/// member's declared size against what is left of the file's budget, its ratio to its compressed
/// size; inflating stops at the declared size. Members whose bytes overlap (central directory
/// headers that share one stream) or whose compressed sizes add up to more than the file are
/// refused, as are a zip inside a zip, an encrypted member and ZIP64.
package enum ZipArchive {
    package struct Member {
        package let name: String
        package let data: Data
    }

    /// The most members read (an export of a hundred cards is a large one).
    package static let maxMembers = 100
    /// A member that inflates to more than this many times its compressed size is a zip bomb.
    package static let maxRatio = 1_000

    package static func isZip(_ data: Data) -> Bool { data.starts(with: [0x50, 0x4B, 0x03, 0x04]) || data.starts(with: [0x50, 0x4B, 0x05, 0x06]) }

    /// The members `wanted` picks (by name), in the archive's order, inflated; at most `budget` bytes in all.
    package static func members(_ data: Data, budget: Int, wanted: (String) -> Bool) throws -> [Member] {
        let bytes = [UInt8](data)
        let entries = try centralDirectory(bytes)
        guard entries.count <= maxMembers else { throw FileFormatError(L10n.words("a zip of %1$s members (at most %2$s are read)", .init("\(entries.count)"), .init("\(maxMembers)"))) }
        // Each member's bytes are its own: headers that share them would have the same bytes
        // inflated once a header (100 headers, one 4 MiB stream).
        guard entries.reduce(0, { $0 + $1.compressedSize }) <= bytes.count else {
            throw FileFormatError(L10n.words("a damaged zip (its members' compressed sizes add up to more than the file)"))
        }
        var read = [(entry: Entry, data: Range<Int>)]()
        for entry in entries {
            if entry.name.hasSuffix("/") { continue } // a folder
            let lower = entry.name.lowercased()
            guard ![".zip", ".jar", ".apk", ".gz", ".tgz", ".7z", ".tar"].contains(where: lower.hasSuffix) else {
                throw FileFormatError(L10n.words("a zip holding another archive (%1$s): archives inside archives are not read", .init("\(TerminalText.excerpt(entry.name))")))
            }
            guard wanted(entry.name) else { continue }
            read.append((entry, try dataRange(of: entry, in: bytes)))
        }
        // From its local header to its data's end, no member's bytes overlap another's.
        let spans = read.sorted { $0.entry.localHeader < $1.entry.localHeader }
        for (a, b) in zip(spans, spans.dropFirst()) where b.entry.localHeader < a.data.upperBound {
            throw FileFormatError(L10n.words("a damaged zip (members %1$s and %2$s share their bytes)", .init("\(TerminalText.excerpt(a.entry.name))"), .init("\(TerminalText.excerpt(b.entry.name))")))
        }
        var left = max(0, budget)
        var out = [Member]()
        for (entry, range) in read {
            guard entry.flags & 0x0001 == 0 else { throw FileFormatError(L10n.words("zip member %1$s is encrypted", .init("\(TerminalText.excerpt(entry.name))"))) }
            guard entry.size <= left else {
                throw FileFormatError(L10n.words("zip member %1$s inflates to %2$s bytes, past the %3$s-byte limit of a card file", .init("\(TerminalText.excerpt(entry.name))"), .init("\(entry.size)"), .init("\(budget)")))
            }
            guard entry.size <= maxRatio * max(entry.compressedSize, 1) || entry.size < 65_536 else {
                throw FileFormatError(L10n.words("zip member %1$s inflates %2$s times its size: a zip bomb", .init("\(TerminalText.excerpt(entry.name))"), .init("\(entry.size / max(entry.compressedSize, 1))")))
            }
            let member = Data(try contents(of: entry, bytes[range]))
            left -= member.count
            guard !isZip(member) else { throw FileFormatError(L10n.words("a zip holding another archive (%1$s): archives inside archives are not read", .init("\(TerminalText.excerpt(entry.name))"))) }
            out.append(Member(name: entry.name, data: member))
        }
        return out
    }

    /// One central directory header: what a member says of itself.
    private struct Entry {
        let name: String
        let flags: Int
        let method: Int
        let crc: UInt32
        let compressedSize: Int
        let size: Int
        let localHeader: Int
    }

    /// The members the central directory lists, found from the end of central directory record
    /// (the last `50 4B 05 06` within the last 65,557 bytes: 22 bytes and a comment of at most 65,535).
    private static func centralDirectory(_ b: [UInt8]) throws -> [Entry] {
        guard b.count >= 22, let eocd = stride(from: b.count - 22, through: max(0, b.count - 65_557), by: -1).first(where: {
            b[$0] == 0x50 && b[$0 + 1] == 0x4B && b[$0 + 2] == 0x05 && b[$0 + 3] == 0x06
        }) else { throw FileFormatError(L10n.words("a damaged zip (no end of central directory)")) }
        let count = u16(b, eocd + 10), size = u32(b, eocd + 12), offset = u32(b, eocd + 16)
        guard count != 0xFFFF, size != 0xFFFF_FFFF, offset != 0xFFFF_FFFF else { throw FileFormatError(L10n.words("a ZIP64 archive (not read: a card export is small)")) }
        guard count <= maxMembers else { throw FileFormatError(L10n.words("a zip of %1$s members (at most %2$s are read)", .init("\(count)"), .init("\(maxMembers)"))) }
        guard offset + size <= eocd else { throw FileFormatError(L10n.words("a damaged zip (its central directory runs past its end)")) }
        var entries = [Entry]()
        var i = offset
        for _ in 0 ..< count {
            guard i + 46 <= offset + size, u32(b, i) == 0x0201_4B50 else { throw FileFormatError(L10n.words("a damaged zip (central directory header %1$s)", .init("\(entries.count + 1)"))) }
            let nameLength = u16(b, i + 28), extra = u16(b, i + 30), comment = u16(b, i + 32)
            guard i + 46 + nameLength <= offset + size else { throw FileFormatError(L10n.words("a damaged zip (a name runs past the directory)")) }
            let compressed = u32(b, i + 20), size = u32(b, i + 24), local = u32(b, i + 42)
            guard compressed != 0xFFFF_FFFF, size != 0xFFFF_FFFF, local != 0xFFFF_FFFF else { throw FileFormatError(L10n.words("a ZIP64 member (not read)")) }
            entries.append(Entry(name: String(decoding: b[(i + 46) ..< (i + 46 + nameLength)], as: UTF8.self), flags: u16(b, i + 8),
                                 method: u16(b, i + 10), crc: UInt32(u32(b, i + 16)), compressedSize: compressed, size: size, localHeader: local))
            i += 46 + nameLength + extra + comment
        }
        return entries
    }

    /// Where a member's bytes lie: past its local header, as many as the central directory says.
    private static func dataRange(of e: Entry, in b: [UInt8]) throws -> Range<Int> {
        let h = e.localHeader
        guard h + 30 <= b.count, u32(b, h) == 0x0403_4B50 else { throw FileFormatError(L10n.words("a damaged zip (no local header for %1$s)", .init("\(TerminalText.excerpt(e.name))"))) }
        let start = h + 30 + u16(b, h + 26) + u16(b, h + 28)
        guard start + e.compressedSize <= b.count else { throw FileFormatError(L10n.words("a damaged zip (%1$s runs past its end)", .init("\(TerminalText.excerpt(e.name))"))) }
        return start ..< start + e.compressedSize
    }

    /// A member's bytes (`raw`, as the file holds them) stored or inflated, its size and CRC-32 checked.
    private static func contents(of e: Entry, _ raw: ArraySlice<UInt8>) throws -> [UInt8] {
        let data: [UInt8]
        switch e.method {
        case 0: data = Array(raw)
        case 8: data = try inflate(raw, size: e.size, name: e.name)
        default: throw FileFormatError(L10n.words("zip member %1$s is compressed with method %2$s (only stored and deflated members are read)", .init("\(TerminalText.excerpt(e.name))"), .init("\(e.method)")))
        }
        guard data.count == e.size else { throw FileFormatError(data.count > e.size ? L10n.words("zip member %1$s holds more than it says", .init(TerminalText.excerpt(e.name)))
                                                                  : L10n.words("zip member %1$s holds less than it says", .init(TerminalText.excerpt(e.name)))) }
        let crc = data.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
        guard crc == e.crc else { throw FileFormatError(L10n.words("zip member %1$s is damaged (its CRC-32 does not match)", .init("\(TerminalText.excerpt(e.name))"))) }
        return data
    }

    /// Raw deflate (RFC 1951) into a buffer one byte larger than `size`: more output than declared
    /// ends the inflate as a lie, never a larger allocation.
    /// zlib reads `input` where the file's bytes are (its `next_in` is not const, but inflate only reads).
    private static func inflate(_ input: ArraySlice<UInt8>, size: Int, name: String) throws -> [UInt8] {
        var output = [UInt8](repeating: 0, count: size + 1)
        var stream = z_stream()
        guard inflateInit2_(&stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw FileFormatError(L10n.words("zlib could not start inflating %1$s", .init("\(TerminalText.excerpt(name))")))
        }
        defer { inflateEnd(&stream) }
        let status: Int32 = input.withUnsafeBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = inBuffer.baseAddress.map(UnsafeMutablePointer.init(mutating:))
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                return CZlib.inflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else {
            throw FileFormatError(status == Z_BUF_ERROR || status == Z_OK ? L10n.words("zip member %1$s holds more than it says", .init(TerminalText.excerpt(name)))
                                  : L10n.words("zip member %1$s is damaged (inflate %2$s)", .init(TerminalText.excerpt(name)), .init(String(status))))
        }
        return Array(output.prefix(Int(stream.total_out)))
    }

    private static func u16(_ b: [UInt8], _ i: Int) -> Int { i + 1 < b.count ? Int(b[i]) | Int(b[i + 1]) << 8 : 0 }
    private static func u32(_ b: [UInt8], _ i: Int) -> Int { i + 3 < b.count ? u16(b, i) | u16(b, i + 2) << 16 : 0 }
}

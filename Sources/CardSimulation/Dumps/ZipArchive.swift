import CLibZip
import Foundation

/// The members of a zip file (Metrodroid's "export all": one card a member), read from memory with
/// Debian's libzip. What a hostile zip could make large is bounded before anything is inflated:
/// the number of members, every member's declared size against what is left of the file's
/// budget, its ratio to its compressed size, and what inflating it really gives. A zip inside a
/// zip is refused.
enum ZipArchive {
    struct Member {
        let name: String
        let data: Data
    }

    /// The most members read (an export of a hundred cards is a large one).
    static let maxMembers = 100
    /// A member that inflates to more than this many times its compressed size is a zip bomb.
    static let maxRatio: UInt64 = 1_000

    static func isZip(_ data: Data) -> Bool { data.starts(with: [0x50, 0x4B, 0x03, 0x04]) || data.starts(with: [0x50, 0x4B, 0x05, 0x06]) }

    /// The members `wanted` picks (by name), inflated; at most `budget` bytes in all.
    static func members(_ data: Data, budget: Int, wanted: (String) -> Bool) throws -> [Member] {
        let bytes = [UInt8](data)
        return try bytes.withUnsafeBufferPointer { try members(in: $0, budget: budget, wanted: wanted) }
    }

    private static func members(in raw: UnsafeBufferPointer<UInt8>, budget: Int, wanted: (String) -> Bool) throws -> [Member] {
        var error = zip_error_t()
        zip_error_init(&error)
        defer { zip_error_fini(&error) }
        guard let source = zip_source_buffer_create(raw.baseAddress, zip_uint64_t(raw.count), 0, &error) else {
            throw CardImageError("a zip that cannot be read")
        }
        guard let archive = zip_open_from_source(source, ZIP_RDONLY | ZIP_CHECKCONS, &error) else {
            zip_source_free(source)
            throw CardImageError("a damaged zip (\(String(cString: zip_error_strerror(&error))))")
        }
        defer { zip_discard(archive) }
        let count = zip_get_num_entries(archive, 0)
        guard count >= 0, count <= maxMembers else { throw CardImageError("a zip of \(count) members (at most \(maxMembers) are read)") }
        var left = UInt64(max(0, budget))
        var out = [Member]()
        for index in 0 ..< zip_uint64_t(count) {
            var st = zip_stat_t()
            zip_stat_init(&st)
            guard zip_stat_index(archive, index, 0, &st) == 0, has(st, ZIP_STAT_NAME), let cName = st.name else {
                throw CardImageError("a zip member \(index + 1) without a name")
            }
            let name = String(cString: cName)
            if name.hasSuffix("/") { continue } // a folder
            let lower = name.lowercased()
            guard ![".zip", ".jar", ".apk", ".gz", ".tgz", ".7z", ".tar"].contains(where: lower.hasSuffix) else {
                throw CardImageError("a zip holding another archive (\(name)): archives inside archives are not read")
            }
            guard wanted(name) else { continue }
            guard has(st, ZIP_STAT_SIZE), has(st, ZIP_STAT_COMP_SIZE) else { throw CardImageError("zip member \(name) of no stated size") }
            guard !has(st, ZIP_STAT_ENCRYPTION_METHOD) || Int32(st.encryption_method) == ZIP_EM_NONE else {
                throw CardImageError("zip member \(name) is encrypted")
            }
            guard st.size <= left else { throw CardImageError("zip member \(name) inflates to \(st.size) bytes, past the \(budget)-byte limit of a card file") }
            guard st.size <= maxRatio * max(st.comp_size, 1) || st.size < 65_536 else {
                throw CardImageError("zip member \(name) inflates \(st.size / max(st.comp_size, 1)) times its size: a zip bomb")
            }
            let member = try read(archive, index, name: name, size: st.size)
            left -= UInt64(member.count)
            guard !isZip(member) else { throw CardImageError("a zip holding another archive (\(name)): archives inside archives are not read") }
            out.append(Member(name: name, data: member))
        }
        return out
    }

    /// True when libzip filled in the stat field `flag`.
    private static func has(_ st: zip_stat_t, _ flag: UInt32) -> Bool { st.valid & zip_uint64_t(flag) != 0 }

    /// A member's bytes, never more than it said it holds (one byte more ends the read as a lie).
    private static func read(_ archive: OpaquePointer, _ index: zip_uint64_t, name: String, size: zip_uint64_t) throws -> Data {
        guard let file = zip_fopen_index(archive, index, 0) else { throw CardImageError("zip member \(name) cannot be opened") }
        defer { zip_fclose(file) }
        var buffer = [UInt8](repeating: 0, count: Int(size) + 1)
        var got = 0
        while got < buffer.count {
            let capacity = buffer.count
            let n = buffer.withUnsafeMutableBytes { zip_fread(file, $0.baseAddress.map { $0 + got }, zip_uint64_t(capacity - got)) }
            guard n >= 0 else { throw CardImageError("zip member \(name) is damaged") }
            if n == 0 { break }
            got += Int(n)
        }
        guard got == Int(size) else { throw CardImageError("zip member \(name) holds \(got > Int(size) ? "more" : "less") than it says") }
        return Data(buffer.prefix(got))
    }
}

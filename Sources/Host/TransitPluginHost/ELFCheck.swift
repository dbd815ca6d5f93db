/// Reads a library's ELF headers from its descriptor before `dlopen` maps it: a truncated file (an
/// interrupted copy) whose program headers or segments reach past its end would raise SIGBUS inside
/// the dynamic loader. Layout: ELF-64 little-endian (System V gABI, "ELF Header" and "Program
/// Header": e_phoff at 0x20, e_shoff 0x28, e_phentsize 0x36, e_phnum 0x38, e_shentsize 0x3A,
/// e_shnum 0x3C; p_offset at 0x08, p_filesz at 0x20 of each program header).
import Foundation
import TransitModel

package enum ELFCheck {
    /// Nil when the headers and every segment lie inside the file, else the reason.
    package static func problem(fd: Int32, size: Int) -> L10n.Words? {
        guard let header = read(fd, at: 0, count: 64) else { return L10n.words("is too short to be a shared library") }
        guard header.prefix(4) == [0x7F, 0x45, 0x4C, 0x46] else { return L10n.words("is not an ELF shared library") }
        guard header[4] == 2, header[5] == 1 else { return L10n.words("is not a 64-bit little-endian ELF library") }
        let phoff = le(header, 0x20, 8), shoff = le(header, 0x28, 8)
        let phentsize = le(header, 0x36, 2), phnum = le(header, 0x38, 2)
        let shentsize = le(header, 0x3A, 2), shnum = le(header, 0x3C, 2)
        let end = UInt64(size)
        guard phentsize >= 0x38, fits(phoff, phnum * phentsize, end) else { return L10n.words("is truncated (its program headers lie past its end)") }
        if shoff != 0, !fits(shoff, shnum * shentsize, end) { return L10n.words("is truncated (its section headers lie past its end)") }
        for i in 0 ..< phnum {
            guard let ph = read(fd, at: phoff + i * phentsize, count: 0x38) else { return L10n.words("is truncated") }
            if !fits(le(ph, 0x08, 8), le(ph, 0x20, 8), end) { return L10n.words("is truncated (a segment lies past its end)") }
        }
        return nil
    }

    /// offset + length ≤ end, without overflow.
    private static func fits(_ offset: UInt64, _ length: UInt64, _ end: UInt64) -> Bool {
        offset <= end && length <= end - offset
    }

    private static func le(_ b: [UInt8], _ at: Int, _ n: Int) -> UInt64 {
        (0 ..< n).reduce(UInt64(0)) { $0 | UInt64(b[at + $1]) << (8 * UInt64($1)) }
    }

    private static func read(_ fd: Int32, at offset: UInt64, count: Int) -> [UInt8]? {
        guard offset <= UInt64(Int64.max) else { return nil }
        var buffer = [UInt8](repeating: 0, count: count)
        let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(offset)) }
        return n == count ? buffer : nil
    }
}

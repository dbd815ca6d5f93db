import Foundation
import TransitModel

/// Reads a file the user did not write (a card image, dump, log or reference) without trusting
/// it: only a regular file (a FIFO or device is refused, never waited on) of at most `limit`
/// bytes, checked on the opened descriptor before reading and again while reading.
public enum BoundedFile {
    public static func read(_ path: String, limit: Int) throws -> Data {
        // O_NONBLOCK: opening a FIFO without a writer returns at once instead of blocking.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw BoundedFileError.unreadable(path) }
        defer { close(fd) }
        return try read(descriptor: fd, name: path, limit: limit)
    }

    /// The same for a file already open (the loader's, checked through that very descriptor);
    /// `name` is the path errors name.
    public static func read(descriptor fd: Int32, name path: String, limit: Int) throws -> Data {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw BoundedFileError.unreadable(path) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw BoundedFileError(L10n.words("%1$s: not a regular file", .init(path))) }
        let tooLarge = BoundedFileError(limit % (1 << 20) == 0
            ? L10n.words("%1$s: larger than the %2$s MiB limit for this file", .init(path), .init(String(limit >> 20)))
            : L10n.words("%1$s: larger than the %2$s-byte limit for this file", .init(path), .init(String(limit))))
        guard info.st_size <= limit else { throw tooLarge }
        // The size may lie (a /proc file says 0) or grow: read at most one byte past the limit.
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while data.count <= limit {
            let wanted = min(buffer.count, limit + 1 - data.count)
            let n = buffer.withUnsafeMutableBytes { Descriptor.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: $0[..<wanted])) }
            guard n >= 0 else { throw BoundedFileError.unreadable(path) }
            if n == 0 { break }
            data.append(contentsOf: buffer.prefix(n))
        }
        guard data.count <= limit else { throw tooLarge }
        return data
    }

    /// "4 MiB" for whole mebibytes, else the byte count.
    package static func describe(_ limit: Int) -> String { limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit)-byte" }
}

/// A file refused by `BoundedFile`; the description names the file.
public struct BoundedFileError: SaidError {
    public let words: L10n.Words
    public init(_ words: L10n.Words) { self.words = words }

    /// `path: cannot be read: ` and errno's words.
    static func unreadable(_ path: String) -> BoundedFileError {
        BoundedFileError(L10n.words("%1$s: cannot be read: %2$s", .init(path), L10n.system(errno)))
    }
}

import Foundation

/// Reads a file the user did not write (a card image, dump, log or reference) without trusting
/// it: only a regular file (a FIFO or device is refused, never waited on) of at most `limit`
/// bytes, checked on the opened descriptor before reading and again while reading.
public enum BoundedFile {
    public static func read(_ path: String, limit: Int) throws -> Data {
        // O_NONBLOCK: opening a FIFO without a writer returns at once instead of blocking.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw BoundedFileError("\(path): cannot be read: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        return try read(descriptor: fd, name: path, limit: limit)
    }

    /// The same for a file already open (the loader's, checked through that very descriptor);
    /// `name` is the path errors name.
    public static func read(descriptor fd: Int32, name path: String, limit: Int) throws -> Data {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw BoundedFileError("\(path): cannot be read: \(String(cString: strerror(errno)))") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw BoundedFileError("\(path): not a regular file") }
        let tooLarge = BoundedFileError("\(path): larger than the \(describe(limit)) limit for this file")
        guard info.st_size <= limit else { throw tooLarge }
        // The size may lie (a /proc file says 0) or grow: read at most one byte past the limit.
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while data.count <= limit {
            let wanted = min(buffer.count, limit + 1 - data.count)
            let n = buffer.withUnsafeMutableBytes { Descriptor.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: $0[..<wanted])) }
            guard n >= 0 else { throw BoundedFileError("\(path): cannot be read: \(String(cString: strerror(errno)))") }
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
public struct BoundedFileError: Error, CustomStringConvertible {
    public let description: String
    public init(_ d: String) { description = d }
}

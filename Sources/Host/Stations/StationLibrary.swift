import Foundation

/// The user's station tables: `--stations FILE` (each, in order), then every `*.csv` of
/// `$XDG_DATA_HOME/transit/stations` (`~/.local/share` when unset) and of
/// `<prefix>/share/transit/stations`, the prefix of the installed binary (`<bin>/..`). Loaded once,
/// when a reading first needs names; rows of earlier files win. `transit` ships no table.
final class StationLibrary {
    /// Station files are data, read whole: larger ones are refused (a 7,000-row table is ~0.5 MiB).
    static let sizeLimit = 16 << 20

    let explicit: [String]
    private let environment: [String: String]
    private let executable: String
    private var loaded: StationTable?
    /// Watch reads on several readers at once.
    private let lock = NSLock()

    init(explicit: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
         executable: String = StationLibrary.executablePath) {
        self.explicit = explicit
        self.environment = environment
        self.executable = executable
    }

    /// Every table, merged; a config error names the file (and line) that cannot be used.
    func table() throws -> StationTable {
        lock.lock()
        defer { lock.unlock() }
        if let loaded { return loaded }
        var table = StationTable()
        for path in try paths() { try StationCSV.parse(try Self.contents(of: path), file: path, into: &table) }
        loaded = table
        return table
    }

    /// The files in the order their rows count: explicit ones (which must exist), then the folders'.
    func paths() throws -> [String] {
        var out = explicit
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home.map { "\($0)/.local/share" }
        let prefix = URL(fileURLWithPath: executable).deletingLastPathComponent().deletingLastPathComponent().path
        for folder in [dataHome.map { "\($0)/transit/stations" }, "\(prefix)/share/transit/stations"].compactMap({ $0 }) {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            out += names.filter { $0.hasSuffix(".csv") }.sorted().map { "\(folder)/\($0)" }
        }
        return out
    }

    /// A regular file's bytes, at most `sizeLimit`; opened without blocking (a FIFO is refused).
    static func contents(of path: String) throws -> [UInt8] {
        func fail(_ why: String) -> TransitError { TransitError(.config, "station table \(path): \(why)") }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw fail(String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw fail(String(cString: strerror(errno))) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw fail("not a regular file") }
        guard info.st_size <= sizeLimit else { throw fail("larger than \(sizeLimit >> 20) MiB") }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw fail(String(cString: strerror(errno))) }
            if n == 0 { break }
            done += n
        }
        guard done <= sizeLimit else { throw fail("larger than \(sizeLimit >> 20) MiB") }
        return Array(bytes[0 ..< done])
    }

    /// The running binary, for the installed prefix.
    static var executablePath: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}

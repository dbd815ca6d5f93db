import Foundation
import TransitFiles
import TransitModel

/// The user's station tables: `--stations FILE` (each, in order), then every `*.csv` of
/// `$XDG_DATA_HOME/transit/stations` (`~/.local/share` when unset) and of
/// `<prefix>/share/transit/stations`, the prefix of the installed binary (`<bin>/..`). Loaded once,
/// when a reading first needs names; rows of earlier files win. `transit` ships no table.
package final class StationLibrary {
    /// Station files are data, read whole: larger ones are refused (a 7,000-row table is ~0.5 MiB).
    package static let sizeLimit = 16 << 20

    package let explicit: [String]
    private let environment: [String: String]
    private let executableDirectory: String
    private var loaded: StationTable?
    /// Told, once, what the tables hold that a user should fix (codes given two names).
    package var report: (String) -> Void = { _ in }
    /// What `report` hears, in English and in the chosen language; when set, `report` hears nothing.
    package var say: ((L10n.Words) -> Void)?
    /// Watch reads on several readers at once.
    private let lock = NSLock()

    package init(explicit: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
         executableDirectory: String = InstallLayout.executableDirectory) {
        self.explicit = explicit
        self.environment = environment
        self.executableDirectory = executableDirectory
    }

    /// Every table, merged. A file that cannot be used (missing, untrusted, too large) is passed
    /// over and said; a malformed line is skipped and said; everything else still serves.
    package func table() throws -> StationTable {
        lock.lock()
        defer { lock.unlock() }
        if let loaded { return loaded }
        var table = StationTable()
        for path in try paths() {
            let bytes: [UInt8]
            do {
                bytes = try Self.contents(of: path)
            } catch let e as TransitError {
                tell(L10n.words("%1$s: passed over; the other tables still serve", e.words))
                continue
            }
            try StationCSV.parseSaying(bytes, file: path, into: &table).forEach(tell)
        }
        loaded = table
        return table
    }

    private func tell(_ words: L10n.Words) {
        if let say { say(words) } else { report(words.english) }
    }

    /// Whether there is any table to name stations with (`--stations` or a folder's file); the
    /// history commands leave regions in a record's details only then.
    package func hasTables() throws -> Bool { try !paths().isEmpty }

    /// The files in the order their rows count: explicit ones, then the folders'.
    package func paths() throws -> [String] {
        var out = explicit
        let dataHome: String? = XDGFolders.dataHome(environment)
        let prefix = (executableDirectory as NSString).deletingLastPathComponent
        for folder in [dataHome.map { "\($0)/transit/stations" }, "\(prefix)/share/transit/stations"].compactMap({ $0 }) {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            out += names.filter { $0.hasSuffix(".csv") }.sorted().map { "\(folder)/\($0)" }
        }
        return out
    }

    /// A table's bytes, at most `sizeLimit`, from a file trusted as plugins.conf is (`TrustedFile`:
    /// owned by root or the user, writable by nobody else, nor its folders); opened without blocking.
    package static func contents(of path: String) throws -> [UInt8] {
        let file: TrustedFile
        switch TrustedFile.open(path) {
        case .success(let f): file = f
        case .failure(let why):
            throw TransitError(.config, why.unopenable ? L10n.words("station table %1$s", why.words) : L10n.words("station table %1$s is not trusted: %2$s", .init(path), why.words))
        }
        do {
            return Array(try BoundedFile.read(descriptor: file.fd, name: path, limit: sizeLimit))
        } catch {
            throw TransitError(.config, L10n.words("station table %1$s", L10n.Words(error: error)))
        }
    }
}

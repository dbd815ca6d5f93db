import Foundation
import TransitFiles
import TransitModel

/// Where the history archive lives and whether reads are kept: `$XDG_DATA_HOME/transit/history.db`
/// (`~/.local/share/transit/history.db` when XDG_DATA_HOME is unset or not absolute), and the
/// `save = yes|no` and `below = AMOUNT` lines of `transit.conf` — `$XDG_CONFIG_HOME/transit/transit.conf` (or
/// `~/.config/transit/transit.conf`), else `/etc/transit/transit.conf`; the first that exists.
package struct ArchiveSettings {
    /// The archive's folder (created 0700 when missing).
    package var folder: String
    /// False when transit.conf says `save = no` (or cannot be understood: nothing is kept then).
    package var save = true
    /// What was wrong with transit.conf, said on stderr by the commands that would store.
    package var problem: L10n.Words?
    /// `below = AMOUNT`: a reading whose balance is under it is flagged (`scan`, `watch`), in the
    /// card's minor units; `--below` overrides it.
    package var below: Int64?

    package static let fileName = "history.db"
    package static let sizeLimit = 64 * 1024

    package var databasePath: String { folder + "/" + Self.fileName }

    package static func load(environment: [String: String] = ProcessInfo.processInfo.environment) -> ArchiveSettings {
        var settings = ArchiveSettings(folder: XDGFolders.dataHome(environment) + "/transit")
        let configHome = XDGFolders.configHome(environment)
        for path in [configHome + "/transit/transit.conf", "/etc/transit/transit.conf"] where FileManager.default.fileExists(atPath: path) {
            // Trusted as plugins.conf is: one another user could write (`save = no` would end a
            // kiosk's audit trail) is passed over for the next, and said.
            switch TrustedFile.open(path) {
            case .success(let file):
                settings.read(file)
                return settings
            case .failure(let why) where !why.unopenable:
                Notices.once(L10n.words("%1$s is not trusted (%2$s): passed over", .init(path), why.words))
            case .failure:
                settings.save = false
                settings.problem = L10n.words("%1$s: cannot be read; reads are not saved", .init(path))
                return settings
            }
        }
        return settings
    }

    /// Reads `key = value` lines; `#` starts a comment. A file that cannot be read or understood
    /// turns saving off (the user meant something) and is reported.
    private mutating func read(_ file: TrustedFile) {
        let path = file.path
        // Read as every input file is: a regular file (a FIFO never blocks), within its limit.
        guard let data = try? BoundedFile.read(descriptor: file.fd, name: path, limit: Self.sizeLimit) else {
            save = false
            problem = L10n.words("%1$s: cannot be read or is over %2$s KiB; reads are not saved", .init(path), .init(String(Self.sizeLimit / 1024)))
            return
        }
        for (index, raw) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { continue }
            let parts = trimmed.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            switch (parts.first, parts.count == 2 ? parts[1].lowercased() : nil) {
            case ("save", "yes"?): save = true
            case ("save", "no"?): save = false
            case ("below", let amount?) where Int64(amount) != nil: below = Int64(amount)
            default:
                save = false
                problem = L10n.words("%1$s line %2$s: expected save = yes, save = no or below = AMOUNT (a whole number), not \"%3$s\"; reads are not saved",
                                     .init(path), .init(String(index + 1)), .init(trimmed))
                return
            }
        }
    }
}

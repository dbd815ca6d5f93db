import Foundation

/// Whether a plugin library or plugins.conf may be trusted to run in this process. The rule sudo
/// and PAM follow for the files they load: owned by root or by the user running transit, and not
/// writable by group or others; the folder holding it not writable by others unless sticky (as
/// /tmp is, where others cannot replace someone else's file).
enum FileTrust {
    /// Nil when trusted, else the reason.
    static func problem(_ path: String) -> String? {
        guard let file = status(path) else { return nil } // a missing file is reported by whoever opens it
        let me = getuid()
        if file.st_uid != 0, file.st_uid != me { return "\(path) is owned by user \(file.st_uid), neither root nor you" }
        if file.st_mode & 0o022 != 0 { return "\(path) is writable by \(file.st_mode & 0o002 != 0 ? "everyone" : "its group")" }
        let folder = (path as NSString).deletingLastPathComponent
        if let dir = status(folder.isEmpty ? "." : folder), dir.st_mode & 0o002 != 0, dir.st_mode & 0o1000 == 0 {
            return "its folder \(folder) is writable by everyone"
        }
        return nil
    }

    private static func status(_ path: String) -> stat? {
        var s = stat()
        return stat(path, &s) == 0 ? s : nil
    }
}

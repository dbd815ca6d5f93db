import Foundation

/// The user's folders, as the XDG Base Directory specification has them: `$XDG_CONFIG_HOME` and
/// `$XDG_DATA_HOME` when set to an absolute path (empty or relative values are ignored, as the
/// spec says: a relative one would put the current folder on the path), else `~/.config` and
/// `~/.local/share`. The home folder is the effective user's own (the password database's) when
/// `$HOME` belongs to someone else, as under `sudo`, which may keep the invoking user's HOME:
/// root never writes into, or reads its configuration from, another user's home.
package enum XDGFolders {
    package static func home(_ environment: [String: String]) -> String {
        if let home = environment["HOME"], home.hasPrefix("/") {
            var st = stat()
            if stat(home, &st) == 0, st.st_uid == geteuid() { return home }
        }
        if let entry = getpwuid(geteuid()), let dir = entry.pointee.pw_dir { return String(cString: dir) }
        return "/nonexistent"
    }

    package static func configHome(_ environment: [String: String]) -> String {
        absolute(environment["XDG_CONFIG_HOME"]) ?? home(environment) + "/.config"
    }

    package static func dataHome(_ environment: [String: String]) -> String {
        absolute(environment["XDG_DATA_HOME"]) ?? home(environment) + "/.local/share"
    }

    private static func absolute(_ value: String?) -> String? {
        value.flatMap { $0.hasPrefix("/") ? $0 : nil }
    }
}

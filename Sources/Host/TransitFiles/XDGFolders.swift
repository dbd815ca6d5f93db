import Foundation
import TransitModel

/// The user's folders, as the XDG Base Directory specification has them: `$XDG_CONFIG_HOME` and
/// `$XDG_DATA_HOME` when set to an absolute path (empty or relative values are ignored, as the
/// XDG specification says: a relative one would put the current folder on the path), else `~/.config` and
/// `~/.local/share`. Like `$HOME`, a value in someone else's tree — a folder on the way owned by
/// a user other than root or the effective user, as under `sudo -E` — is ignored (and said once):
/// root never writes into, or takes its configuration from, another user's folders; the home of
/// the password database is used instead.
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
        own(environment, "XDG_CONFIG_HOME") ?? home(environment) + "/.config"
    }

    package static func dataHome(_ environment: [String: String]) -> String {
        own(environment, "XDG_DATA_HOME") ?? home(environment) + "/.local/share"
    }

    /// The variable's value when it is absolute and every folder of it that exists belongs to root
    /// or the effective user.
    private static func own(_ environment: [String: String], _ name: String) -> String? {
        guard let value = environment[name], value.hasPrefix("/") else { return nil }
        guard let owner = foreignOwner(of: value) else { return value }
        Notices.once(L10n.words("%1$s=%2$s is ignored: %3$s; using %4$s", .init(name), .init(value), owner, .init(home(environment))))
        return nil
    }

    /// What makes `path` someone else's: the first existing folder along it (symbolic links
    /// followed, as a later open would) owned by neither root nor the effective user.
    package static func foreignOwner(of path: String) -> L10n.Words? {
        let me = geteuid()
        for folder in TrustedFile.ancestors(of: path) + [path] {
            var st = stat()
            guard stat(folder, &st) == 0 else { break } // the rest does not exist yet
            if st.st_uid != 0, st.st_uid != me { return L10n.words("%1$s belongs to user %2$s", .init(folder), .init(String(st.st_uid))) }
        }
        return nil
    }
}

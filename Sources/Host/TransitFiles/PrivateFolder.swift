import Foundation
import TransitModel

/// A folder `transit` keeps private data in (the history archive's), opened so that it cannot be
/// swapped: walked from `/` by `FolderWalk` (no link followed, each folder on the way owned by root
/// or the effective user and writable by nobody else unless sticky, as /tmp is), the folder itself
/// the user's own with no group or other bits. A missing folder is made 0700, only inside one of
/// the user's own: never inside someone else's.
package enum PrivateFolder {
    /// The descriptor of the checked folder (the caller closes it), or nil when it is missing and
    /// `create` is false. Throws a `FolderWalk.Problem` saying what is wrong.
    package static func open(_ path: String, create: Bool) throws(FolderWalk.Problem) -> Int32? {
        guard let folder = try FolderWalk.open(path, create: create) else { return nil }
        if let why = privateProblem(folder.status, path, isFolder: true) {
            close(folder.fd)
            throw FolderWalk.Problem(why)
        }
        return folder.fd
    }

    /// Why a private folder or file with status `st` is not: another owner, another kind, or a
    /// mode with group or other bits (others may have read it: said, never quietly repaired).
    package static func privateProblem(_ st: stat, _ what: String, isFolder: Bool) -> L10n.Words? {
        guard st.st_mode & S_IFMT == (isFolder ? S_IFDIR : S_IFREG) else {
            return isFolder ? L10n.words("%1$s is not a folder: not followed", .init(what))
                : L10n.words("%1$s is a symbolic link or not a regular file: not followed", .init(what))
        }
        guard st.st_uid == geteuid() else {
            return L10n.words("%1$s belongs to user %2$s, not to the user running transit (%3$s)", .init(what), .init(String(st.st_uid)), .init(String(geteuid())))
        }
        let mode = st.st_mode & 0o7777
        guard mode & 0o077 == 0 else {
            return L10n.words("%1$s has mode %2$s: others may have read it; after a look at who did, make it private (chmod %3$s %1$s)",
                              .init(what), .init(String(mode, radix: 8)), .init(isFolder ? "700" : "600"))
        }
        return nil
    }
}

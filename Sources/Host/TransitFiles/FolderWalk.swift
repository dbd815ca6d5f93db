import Foundation
import TransitModel

/// The one way `transit` opens a folder it keeps or writes files in (the archive's, `PrivateFolder`;
/// every file it writes, `PrivateFile`): walked from `/` one component at a time with
/// `openat(O_NOFOLLOW | O_DIRECTORY)`, so no symbolic link is followed and a folder, once checked,
/// is held by descriptor and cannot be swapped. Every folder on the way must pass StrictModes'
/// folder rule, `TrustedFile.problem`: owned by root or the user running transit, and writable by
/// nobody else unless sticky (as /tmp is). The last folder is left to the caller's own rule.
package enum FolderWalk {
    /// A folder reached: its descriptor (the caller closes it) and its status.
    package struct Opened {
        package let fd: Int32
        package let status: stat
    }

    /// Walks to absolute `path` (".." refused), checking each folder above the last; nil when a
    /// folder is missing and `create` is false. With `create`, a missing folder is made 0700, only
    /// inside one of the user's own: never inside someone else's.
    package static func open(_ path: String, create: Bool) throws(Problem) -> Opened? {
        guard path.hasPrefix("/") else { throw Problem(L10n.words("%1$s is not an absolute path", .init(path))) }
        let parts = path.split(separator: "/").map(String.init).filter { $0 != "." }
        guard !parts.contains("..") else { throw Problem(L10n.words("%1$s holds \"..\"", .init(path))) }
        var fd = Glibc.open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw Problem(L10n.words("%1$s cannot be opened: %2$s", .init("/"), L10n.system(errno)), refused: false) }
        var walked = ""
        for part in parts {
            let here = walked.isEmpty ? "/" : walked
            var st = stat()
            guard fstat(fd, &st) == 0 else { close(fd); throw Problem(L10n.words("%1$s cannot be examined", .init(here)), refused: false) }
            if let why = TrustedFile.problem(st, what: here, isFolder: true) { close(fd); throw Problem(why) }
            var next = openat(fd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if next < 0, errno == ENOENT {
                guard create else { close(fd); return nil }
                guard st.st_uid == geteuid() else {
                    close(fd)
                    throw Problem(L10n.words("%1$s belongs to user %2$s: transit makes no folder in someone else's", .init(here), .init(String(st.st_uid))))
                }
                if mkdirat(fd, part, 0o700) != 0, errno != EEXIST {
                    let failure = errno
                    close(fd)
                    throw Problem(L10n.words("cannot create %1$s: %2$s", .init(walked + "/" + part), L10n.system(failure)), refused: false)
                }
                next = openat(fd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
            let failure = errno
            close(fd)
            walked += "/" + part
            guard next >= 0 else {
                if failure == ELOOP || failure == ENOTDIR { throw Problem(L10n.words("%1$s is a symbolic link or not a folder: not followed", .init(walked))) }
                throw Problem(L10n.words("%1$s cannot be opened: %2$s", .init(walked), L10n.system(failure)), refused: false)
            }
            fd = next
        }
        var own = stat()
        guard fstat(fd, &own) == 0 else { close(fd); throw Problem(L10n.words("%1$s cannot be examined", .init(walked.isEmpty ? "/" : walked)), refused: false) }
        return Opened(fd: fd, status: own)
    }

    /// What is wrong with a folder on the way.
    package struct Problem: SaidError {
        package let words: L10n.Words
        /// The folder breaks the rule (another owner, writable by others, a link): refused, as
        /// against a system error (no permission, no memory).
        package let refused: Bool
        package init(_ words: L10n.Words, refused: Bool = true) { self.words = words; self.refused = refused }
    }
}

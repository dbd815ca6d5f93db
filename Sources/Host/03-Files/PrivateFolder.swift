import Foundation

/// A folder `transit` keeps private data in (the history archive's), opened so that it cannot be
/// swapped: walked from `/` one component at a time with `openat(O_NOFOLLOW | O_DIRECTORY)`, each
/// folder on the way owned by root or the effective user and writable by nobody else (unless
/// sticky, as /tmp is), the folder itself the user's own with no group or other bits. A missing
/// folder is made 0700, only inside one of the user's own: never inside someone else's.
package enum PrivateFolder {
    /// The descriptor of the checked folder (the caller closes it), or nil when it is missing and
    /// `create` is false. Throws `Problem` saying what is wrong.
    package static func open(_ path: String, create: Bool) throws(Problem) -> Int32? {
        guard path.hasPrefix("/") else { throw Problem("\(path) is not an absolute path") }
        let parts = path.split(separator: "/").map(String.init).filter { $0 != "." }
        guard !parts.contains("..") else { throw Problem("\(path) holds \"..\"") }
        var fd = Glibc.open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw Problem("/ cannot be opened: \(errorText())") }
        var walked = ""
        for (i, part) in parts.enumerated() {
            var st = stat()
            guard fstat(fd, &st) == 0 else { close(fd); throw Problem("\(walked.isEmpty ? "/" : walked) cannot be examined") }
            if let why = TrustedFile.problem(st, what: walked.isEmpty ? "/" : walked, isFolder: true) { close(fd); throw Problem(why) }
            var next = openat(fd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if next < 0, errno == ENOENT {
                guard create else { close(fd); return nil }
                guard st.st_uid == geteuid() else {
                    close(fd)
                    throw Problem("\(walked.isEmpty ? "/" : walked) belongs to user \(st.st_uid): transit makes no folder in someone else's")
                }
                if mkdirat(fd, part, 0o700) != 0, errno != EEXIST { close(fd); throw Problem("cannot create \(walked)/\(part): \(errorText())") }
                next = openat(fd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
            let failure = errno
            close(fd)
            walked += "/" + part
            guard next >= 0 else {
                throw Problem(failure == ELOOP || failure == ENOTDIR ? "\(walked) is a symbolic link or not a folder: not followed"
                              : "\(walked) cannot be opened: \(String(cString: strerror(failure)))")
            }
            fd = next
            if i == parts.count - 1 {
                var own = stat()
                guard fstat(fd, &own) == 0 else { close(fd); throw Problem("\(walked) cannot be examined") }
                if let why = privateProblem(own, walked, isFolder: true) { close(fd); throw Problem(why) }
            }
        }
        return fd
    }

    /// Why a private folder or file with status `st` is not: another owner, another kind, or a
    /// mode with group or other bits (others may have read it: said, never quietly repaired).
    package static func privateProblem(_ st: stat, _ what: String, isFolder: Bool) -> String? {
        guard st.st_mode & S_IFMT == (isFolder ? S_IFDIR : S_IFREG) else {
            return "\(what) is \(isFolder ? "not a folder" : "a symbolic link or not a regular file"): not followed"
        }
        guard st.st_uid == geteuid() else { return "\(what) belongs to user \(st.st_uid), not to the user running transit (\(geteuid()))" }
        let mode = st.st_mode & 0o7777
        guard mode & 0o077 == 0 else {
            return "\(what) has mode \(String(mode, radix: 8)): others may have read it; "
                + "after a look at who did, make it private (chmod \(isFolder ? "700" : "600") \(what))"
        }
        return nil
    }

    package struct Problem: Error, CustomStringConvertible {
        package let description: String
        package init(_ description: String) { self.description = description }
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}

import Foundation
import TransitModel

/// A file `transit` will run or obey (a plugin library, plugins.conf), opened once and checked
/// through the opened descriptor, so nothing can be swapped between the check and the use: the
/// library is then loaded from that same descriptor (`/proc/self/fd/N`), the conf read from it.
///
/// The rule is OpenSSH's StrictModes and sudo's for the files they load: a regular file owned by
/// root or the user running transit, writable by nobody else (its group only when that group is the
/// owner's own private group), and every folder from `/` down to it — along the path as written and
/// along the file's real path — owned by root or that user and not writable by others, unless it is
/// sticky (as /tmp is: others cannot rename or remove what is not theirs).
package final class TrustedFile: Sendable {
    package let fd: Int32
    /// The path as named.
    package let path: String
    package let size: Int

    /// Opens and checks `path`; the reason when it may not be trusted. A `secret` (a file of MIFARE
    /// Classic keys) must also be no symbolic link and readable by nobody but its owner, as OpenSSH
    /// asks of a private key: group and others have no permission at all (`chmod 600`).
    package static func open(_ path: String, secret: Bool = false) -> Result<TrustedFile, TrustProblem> {
        // O_NONBLOCK: a FIFO named as a library or conf must not block the open.
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | (secret ? O_NOFOLLOW : 0))
        guard fd >= 0 else {
            if secret, errno == ELOOP {
                return .failure(TrustProblem(L10n.words("%1$s is a symbolic link, which a key file may not be: name the file itself", .init(path))))
            }
            return .failure(TrustProblem(.init(path) + L10n.Words(": ") + L10n.system(errno), unopenable: true))
        }
        var s = stat()
        guard fstat(fd, &s) == 0 else { close(fd); return .failure(TrustProblem(L10n.words("cannot be examined"))) }
        // A secret's mode is said first (with its fix) when it is a regular file of the right owner.
        let open = secret && s.st_mode & S_IFMT == S_IFREG && (s.st_uid == 0 || s.st_uid == getuid()) ? secretProblem(s, what: path) : nil
        if let why = open ?? problem(s, what: path, isFolder: false) ?? folderProblem(path, fd: fd) {
            close(fd)
            return .failure(TrustProblem(why))
        }
        return .success(TrustedFile(fd: fd, path: path, size: Int(s.st_size)))
    }

    private init(fd: Int32, path: String, size: Int) { self.fd = fd; self.path = path; self.size = size }

    deinit { close(fd) }

    /// The path through which this very open file is reached again (for dlopen).
    package var descriptorPath: String { "/proc/self/fd/\(fd)" }

    /// The whole file as text, when it holds at most `limit` bytes of UTF-8 (CRLF left to the reader).
    package func text(limit: Int) -> Result<String, TrustProblem> {
        let data: Data
        do {
            data = try BoundedFile.read(descriptor: fd, name: path, limit: limit)
        } catch {
            return .failure(TrustProblem(L10n.Words(error: error)))
        }
        guard let text = String(data: data, encoding: .utf8) else { return .failure(TrustProblem(L10n.words("is not UTF-8 text"))) }
        return .success(text)
    }

    /// Why a file or folder with status `s` is not trusted, or nil.
    package static func problem(_ s: stat, what: L10n.Words, isFolder: Bool) -> L10n.Words? {
        let kind = s.st_mode & S_IFMT
        if !isFolder, kind != S_IFREG { return L10n.words("%1$s is not a regular file", what) }
        let me = getuid()
        if s.st_uid != 0, s.st_uid != me { return L10n.words("%1$s is owned by user %2$s, neither root nor you", what, .init(String(s.st_uid))) }
        let sticky = isFolder && s.st_mode & S_ISVTX != 0
        if s.st_mode & 0o002 != 0, !sticky { return L10n.words("%1$s is writable by everyone", what) }
        if s.st_mode & 0o020 != 0, !sticky, !isPrivateGroup(s.st_gid, of: s.st_uid) { return L10n.words("%1$s is writable by its group", what) }
        return nil
    }

    /// `problem` of a file or folder named by its path.
    package static func problem(_ s: stat, what: String, isFolder: Bool) -> L10n.Words? {
        problem(s, what: L10n.Words(what), isFolder: isFolder)
    }

    /// Why a file of secrets with status `s` is open to others: any permission for its group or others.
    package static func secretProblem(_ s: stat, what: String) -> L10n.Words? {
        guard s.st_mode & 0o077 != 0 else { return nil }
        let mode = String(s.st_mode & 0o7777, radix: 8)
        return L10n.words("%1$s may be read or written by its group or others (mode %2$s): a key file must be yours alone; run chmod 600 %1$s",
                          .init(what), .init(String(repeating: "0", count: max(0, 4 - mode.count)) + mode))
    }

    /// The first untrusted folder above the file, along the path as written and the real path.
    private static func folderProblem(_ path: String, fd: Int32) -> L10n.Words? {
        let written = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let real = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")) ?? written
        var checked = Set<String>()
        for file in [written, real] {
            for folder in ancestors(of: file) where checked.insert(folder).inserted {
                var s = stat()
                guard stat(folder, &s) == 0 else { return L10n.words("its folder %1$s cannot be examined", .init(folder)) }
                if let why = problem(s, what: L10n.words("its folder %1$s", .init(folder)), isFolder: true) { return why }
            }
        }
        return nil
    }

    /// `/`, `/a`, `/a/b` for `/a/b/c`.
    package static func ancestors(of path: String) -> [String] {
        let parts = path.split(separator: "/").dropLast()
        var out = ["/"], current = ""
        for p in parts where p != "." {
            current += "/" + p
            out.append(current)
        }
        return out
    }

    /// True when `gid` is the user's own group: the group named like the user, holding no one else.
    private static func isPrivateGroup(_ gid: gid_t, of uid: uid_t) -> Bool {
        guard let user = getpwuid(uid), user.pointee.pw_gid == gid, let group = getgrgid(gid) else { return false }
        guard String(cString: user.pointee.pw_name) == String(cString: group.pointee.gr_name) else { return false }
        return group.pointee.gr_mem.pointee == nil // no supplementary members
    }
}

/// Why a file may not be trusted, or could not even be opened.
package struct TrustProblem: SaidError {
    package let words: L10n.Words
    /// The file could not be opened at all (missing, no permission): not a question of trust.
    package let unopenable: Bool
    package init(_ words: L10n.Words, unopenable: Bool = false) { self.words = words; self.unopenable = unopenable }
}

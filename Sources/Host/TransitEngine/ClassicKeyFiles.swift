import Foundation
import TransitFiles
import TransitModel
import TransitTransport

/// The MIFARE Classic keys the user brings, as a read's key ring: each `--keys FILE` in the order
/// given, then every file of the keys folder (`$XDG_CONFIG_HOME/transit/keys`, `~/.config` when
/// unset) in name order, its hidden files (`.name`, editors' swap files) and folders left out.
/// Each file is a key dictionary (`ClassicKeyDictionary`) trusted as a secret (`TrustedFile`'s
/// `secret` rule: the user's or root's, no symbolic link, no permission for group or others).
///
/// An explicit file that cannot be used ends the command (`config`, exit 2): it was asked for, and
/// a read without it would fail later for a reason harder to see. A folder file that cannot be used
/// is said on stderr and passed over, as OpenSSH passes over a private key others may read: the
/// folder is read by every read, most of them of cards that need no key, and one bad file must not
/// stop them; the other files still serve. Nothing here ever says a key's bytes.
package struct ClassicKeyFiles {
    package let explicit: [String]
    package let environment: [String: String]
    /// `--verbose`'s lines: how many keys each file gave ("3 keys from keys.dic"), never a key.
    package var log: (String) -> Void = { _ in }
    /// A folder file or the folder passed over, said whatever the verbosity.
    package var warn: (String) -> Void = { _ in }
    /// What `warn` hears, in English and in the chosen language; when set, `warn` hears nothing.
    package var say: ((L10n.Words) -> Void)?

    package init(explicit: [String], environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.explicit = explicit
        self.environment = environment
    }

    /// The keys folder of `environment`'s user.
    package static func folder(_ environment: [String: String]) -> String {
        XDGFolders.configHome(environment) + "/transit/keys"
    }

    /// Every file's keys, in order, without duplicates (the first line that gave a key names it).
    package func load() throws -> ClassicKeyRing {
        var ring = ClassicKeyRing()
        for path in explicit {
            try add(Self.keys(of: path), from: path, to: &ring, where: "")
        }
        let folder = Self.folder(environment)
        for path in folderFiles(folder) {
            do {
                try add(Self.keys(of: path), from: path, to: &ring, where: " in the keys folder")
            } catch let e as TransitError {
                tell(L10n.words("%1$s: passed over; the other key files still serve", e.words))
            }
        }
        return ring
    }

    /// `keys`, those not already held, added to `ring`, and said; a ring past the bound is refused.
    private func add(_ keys: [ClassicKeyRing.Key], from path: String, to ring: inout ClassicKeyRing, where place: String) throws {
        var added = ring
        for key in keys { added.append(key) }
        guard added.count <= ClassicKeyDictionary.keyLimit else {
            throw TransitError(.config, L10n.words("key file %1$s brings the keys past %2$s, the most one read may try", .init(path), .init(String(ClassicKeyDictionary.keyLimit))))
        }
        let new = added.count - ring.count, name = ClassicKeyDictionary.baseName(path)
        let known = keys.count - new
        log("\(keys.isEmpty ? "no" : "\(keys.count)") key\(keys.count == 1 ? "" : "s") from \(name)\(place)"
            + (known > 0 ? " (\(known) already loaded from an earlier line or file)" : ""))
        ring = added
    }

    private func tell(_ words: L10n.Words) {
        if let say { say(words) } else { warn(words.english) }
    }

    /// The folder's files in name order; none when it does not exist, or may not be trusted (said).
    private func folderFiles(_ folder: String) -> [String] {
        var s = stat()
        guard stat(folder, &s) == 0 else {
            log("no keys folder (\(folder))")
            return []
        }
        guard s.st_mode & S_IFMT == S_IFDIR else {
            tell(L10n.words("the keys folder %1$s is not a folder: passed over", .init(folder)))
            return []
        }
        if let why = TrustedFile.problem(s, what: L10n.words("the keys folder %1$s", .init(folder)), isFolder: true) {
            tell(L10n.words("%1$s: none of its keys are read; run chmod 700 %2$s", why, .init(folder)))
            return []
        }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            tell(L10n.words("the keys folder %1$s cannot be listed: passed over", .init(folder)))
            return []
        }
        return names.filter { !$0.hasPrefix(".") }.sorted().compactMap { name in
            let path = folder + "/" + name
            var entry = stat()
            // A folder inside is not a key file; a link or anything else is refused by the open, and said.
            if lstat(path, &entry) == 0, entry.st_mode & S_IFMT == S_IFDIR {
                log("\(path) is a folder: not read for keys")
                return nil
            }
            return path
        }
    }

    /// One file's keys: trusted as a secret, at most `ClassicKeyDictionary.sizeLimit`, parsed.
    package static func keys(of path: String) throws -> [ClassicKeyRing.Key] {
        let file: TrustedFile
        switch TrustedFile.open(path, secret: true) {
        case .success(let f): file = f
        case .failure(let why): throw TransitError(.config, why.unopenable ? L10n.words("key file %1$s", why.words) : L10n.words("key file refused: %1$s", why.words))
        }
        let data: Data
        do {
            data = try BoundedFile.read(descriptor: file.fd, name: path, limit: ClassicKeyDictionary.sizeLimit)
        } catch {
            throw TransitError(.config, L10n.words("key file %1$s", L10n.Words(error: error)))
        }
        return try ClassicKeyDictionary.parse(Array(data), path: path)
    }
}

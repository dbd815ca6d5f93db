import Foundation
import TransitFiles
import TransitModel

/// plugins.conf: one plugin a line in probe order — `name library [key=value …]`, `#` comments.
package struct PluginConfig: Equatable {
    package struct Entry: Equatable {
        package let name: String
        /// The library path as written.
        package let library: String
        package let options: [String: String]
        package let line: Int
        /// The conf file the entry came from.
        package var file = ""

        package init(name: String, library: String, options: [String: String], line: Int, file: String = "") {
            self.name = name; self.library = library; self.options = options; self.line = line; self.file = file
        }
    }

    /// The largest plugins.conf read (a conf of a hundred plugins is a few kilobytes).
    package static let sizeLimit = 1 << 20

    /// The file the entries came from.
    package let path: String
    package let entries: [Entry]

    /// Parses conf text; a bad line is a config error naming file and line.
    package static func parse(_ text: String, path: String) throws -> PluginConfig {
        var entries = [Entry]()
        // Character.isNewline: "\n", and "\r\n" (one Character in Swift) from a file saved on Windows.
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            guard !words.isEmpty else { continue }
            func fail(_ why: L10n.Words) -> TransitError { TransitError(.config, L10n.Words("\(path):\(index + 1): ") + why) }
            guard words.count >= 2 else { throw fail(L10n.words("expected `name library [key=value …]`")) }
            let name = words[0]
            guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
                throw fail(L10n.words("plugin name \"%1$s\" may hold only letters, digits, - and _", .init(TerminalText.excerpt(name))))
            }
            guard !entries.contains(where: { $0.name == name }) else { throw fail(L10n.words("plugin %1$s is listed twice", .init(name))) }
            var options = [String: String]()
            for word in words.dropFirst(2) {
                let parts = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2, !parts[0].isEmpty else { throw fail(L10n.words("option \"%1$s\" is not key=value", .init(TerminalText.excerpt(word)))) }
                options[String(parts[0])] = String(parts[1])
            }
            entries.append(Entry(name: name, library: words[1], options: options, line: index + 1, file: path))
        }
        return PluginConfig(path: path, entries: entries)
    }

    /// Finds and reads the conf: `--config FILE`, else $XDG_CONFIG_HOME/transit/plugins.conf (or
    /// ~/.config/transit/plugins.conf), else /etc/transit/plugins.conf, else the installed default
    /// (`<bin>/../etc/transit/plugins.conf`, then `plugins.conf` beside the binary), else, for a
    /// binary in a SwiftPM build folder (`<package>/.build/<triple>/<configuration>`), the
    /// package's own. Never the current folder: a plugins.conf shipped beside a downloaded dump
    /// would decide what code runs.
    /// Then the drop-ins: `plugins.conf.d/*.conf` beside it, in name order, after its own lines.
    /// Every file is opened once and checked through that descriptor.
    package static func load(explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment,
                     executableDirectory: String = InstallLayout.executableDirectory) throws -> PluginConfig {
        let path: String, text: String
        if let explicit {
            path = explicit
            text = try trustedText(explicit)
        } else {
            // The first that exists and may be trusted: one in a user's folder that may not (another
            // user could write it) is passed over, and said, for the next (/etc, the installed one).
            let candidates = searchPath(environment: environment, executableDirectory: executableDirectory)
            var found: (String, String)?
            var passedOver = [L10n.Words]()
            for candidate in candidates where found == nil && FileManager.default.fileExists(atPath: candidate) {
                switch TrustedFile.open(candidate).flatMap({ $0.text(limit: sizeLimit) }) {
                case .success(let t): found = (candidate, t)
                case .failure(let why):
                    passedOver.append(L10n.words("%1$s is not trusted: %2$s", .init(candidate), why.words))
                    Notices.once(L10n.words("%1$s is not trusted (%2$s): passed over for the next plugins.conf", .init(candidate), why.words))
                }
            }
            guard let (p, t) = found else {
                throw TransitError(.config, passedOver.isEmpty ? L10n.words("no plugins.conf (looked in: %1$s)", .init(candidates.joined(separator: ", ")))
                                   : L10n.words("no trusted plugins.conf: %1$s", passedOver.joined(separator: .init("; "))))
            }
            path = p; text = t
        }
        var entries = try parse(text, path: path).entries
        for dropIn in dropIns(beside: path) {
            for entry in try parse(try trustedText(dropIn), path: dropIn).entries {
                guard let first = entries.first(where: { $0.name == entry.name }) else { entries.append(entry); continue }
                throw TransitError(.config, L10n.Words("\(dropIn):\(entry.line): ")
                                   + L10n.words("plugin %1$s is listed twice (first at %2$s)", .init(entry.name), .init("\(first.file):\(first.line)")))
            }
        }
        return PluginConfig(path: path, entries: entries)
    }

    /// The text of a conf file that passed the trust check.
    private static func trustedText(_ path: String) throws -> String {
        switch TrustedFile.open(path).flatMap({ $0.text(limit: sizeLimit) }) {
        case .success(let t): return t
        case .failure(let why): throw TransitError(.config, why.unopenable ? why.words : L10n.words("%1$s is not trusted: %2$s", .init(path), why.words))
        }
    }

    /// `plugins.conf.d/*.conf` beside `conf`, in name order (a package or an administrator adds a
    /// family there without editing the main file).
    package static func dropIns(beside conf: String) -> [String] {
        let folder = dropInFolder(beside: conf)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".conf") && !$0.hasPrefix(".") }.sorted().map { folder + "/" + $0 }
    }

    /// The drop-in folder read with `conf`: `plugins.conf.d` beside it.
    package static func dropInFolder(beside conf: String) -> String {
        ((conf as NSString).deletingLastPathComponent as NSString).appendingPathComponent("plugins.conf.d")
    }

    /// The drop-in folders of the other confs transit looks for (`searchPath`) that hold drop-ins
    /// it does not read, because `conf` is the one in use: a line written there is not loaded.
    package static func unreadDropIns(using conf: String, environment: [String: String] = ProcessInfo.processInfo.environment,
                                      executableDirectory: String = InstallLayout.executableDirectory) -> [(folder: String, files: [String])] {
        let used = dropInFolder(beside: conf)
        var seen = Set([(used as NSString).standardizingPath])
        return searchPath(environment: environment, executableDirectory: executableDirectory).compactMap { candidate in
            let folder = dropInFolder(beside: candidate)
            guard seen.insert((folder as NSString).standardizingPath).inserted else { return nil }
            let files = dropIns(beside: candidate).map { ($0 as NSString).lastPathComponent }
            return files.isEmpty ? nil : (folder, files)
        }
    }

    /// Where a conf is looked for when no --config is given, in order.
    package static func searchPath(environment: [String: String], executableDirectory: String) -> [String] {
        let xdg = XDGFolders.configHome(environment) + "/transit/plugins.conf"
        let installed = ((executableDirectory as NSString).deletingLastPathComponent as NSString).appendingPathComponent("etc/transit/plugins.conf")
        return [xdg, "/etc/transit/plugins.conf", installed, executableDirectory + "/plugins.conf"]
            + (buildTreePackage(of: executableDirectory).map { [$0 + "/plugins.conf"] } ?? [])
    }

    /// The package a SwiftPM build folder belongs to: `<package>/.build/<triple>/<configuration>`
    /// (or `.build/<configuration>`, the symlink) with a Package.swift beside `.build`; nil for any
    /// other folder (an installed binary's).
    package static func buildTreePackage(of executableDirectory: String) -> String? {
        var folder = executableDirectory as NSString
        for _ in 0 ..< 2 {
            folder = folder.deletingLastPathComponent as NSString
            guard folder.lastPathComponent == ".build" else { continue }
            let package = folder.deletingLastPathComponent
            return FileManager.default.fileExists(atPath: package + "/Package.swift") ? package : nil
        }
        return nil
    }

    /// Where a library path points: absolute as written; relative to the folder of the conf file
    /// that names it; a bare file name missing there is looked up in the installed plugin folder
    /// (`<bin>/../lib/transit/plugins`), then beside the `transit` binary (where the build puts them).
    package func resolve(_ entry: Entry, executableDirectory: String = InstallLayout.executableDirectory) -> String {
        let places = places(entry, executableDirectory: executableDirectory)
        return places.first { FileManager.default.fileExists(atPath: $0) } ?? places.last ?? entry.library
    }

    /// Every place `resolve` looks for the entry's library, in order (one for a path with a `/`).
    package func places(_ entry: Entry, executableDirectory: String = InstallLayout.executableDirectory) -> [String] {
        if entry.library.hasPrefix("/") { return [entry.library] }
        let confDirectory = ((entry.file.isEmpty ? path : entry.file) as NSString).deletingLastPathComponent
        let besideConf = ((confDirectory.isEmpty ? "." : confDirectory) as NSString).appendingPathComponent(entry.library)
        if entry.library.contains("/") { return [besideConf] }
        let installed = ((executableDirectory as NSString).deletingLastPathComponent as NSString)
            .appendingPathComponent("lib/transit/plugins/" + entry.library)
        return [besideConf, installed, (executableDirectory as NSString).appendingPathComponent(entry.library)]
    }
}

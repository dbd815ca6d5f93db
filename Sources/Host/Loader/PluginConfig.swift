import Foundation

/// plugins.conf: one plugin a line in probe order — `name library [key=value …]`, `#` comments.
struct PluginConfig: Equatable {
    struct Entry: Equatable {
        let name: String
        /// The library path as written.
        let library: String
        let options: [String: String]
        let line: Int
    }

    /// The file the entries came from.
    let path: String
    let entries: [Entry]

    /// Parses conf text; a bad line is a config error naming file and line.
    static func parse(_ text: String, path: String) throws -> PluginConfig {
        var entries = [Entry]()
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            guard !words.isEmpty else { continue }
            func fail(_ why: String) -> TransitError { TransitError(.config, "\(path):\(index + 1): \(why)") }
            guard words.count >= 2 else { throw fail("expected `name library [key=value …]`") }
            let name = words[0]
            guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
                throw fail("plugin name \"\(name)\" may hold only letters, digits, - and _")
            }
            guard !entries.contains(where: { $0.name == name }) else { throw fail("plugin \(name) is listed twice") }
            var options = [String: String]()
            for word in words.dropFirst(2) {
                let parts = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2, !parts[0].isEmpty else { throw fail("option \"\(word)\" is not key=value") }
                options[String(parts[0])] = String(parts[1])
            }
            entries.append(Entry(name: name, library: words[1], options: options, line: index + 1))
        }
        return PluginConfig(path: path, entries: entries)
    }

    /// Finds and reads the conf: `--config FILE`, else ./plugins.conf, else
    /// $XDG_CONFIG_HOME/transit/plugins.conf, else /etc/transit/plugins.conf, else the one beside the binary.
    static func load(explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment,
                     executableDirectory: String = PluginConfig.executableDirectory) throws -> PluginConfig {
        let fm = FileManager.default
        let path: String
        if let explicit {
            guard fm.fileExists(atPath: explicit) else { throw TransitError(.config, "\(explicit): no such file") }
            path = explicit
        } else {
            let xdg = environment["XDG_CONFIG_HOME"].map { $0 + "/transit/plugins.conf" }
                ?? environment["HOME"].map { $0 + "/.config/transit/plugins.conf" }
            let candidates = ["plugins.conf", xdg, "/etc/transit/plugins.conf", executableDirectory + "/plugins.conf"].compactMap { $0 }
            guard let found = candidates.first(where: { fm.fileExists(atPath: $0) }) else {
                throw TransitError(.config, "no plugins.conf (looked in: \(candidates.joined(separator: ", ")))")
            }
            path = found
        }
        if let why = FileTrust.problem(path) { throw TransitError(.config, "\(path) is not trusted: \(why)") }
        guard let data = fm.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw TransitError(.config, "\(path): cannot be read as UTF-8 text")
        }
        return try parse(text, path: path)
    }

    /// Where a library path points: absolute as written; relative to the conf file's folder; a bare
    /// file name missing there is looked up beside the `transit` binary (where the build puts plugins).
    func resolve(_ entry: Entry, executableDirectory: String = PluginConfig.executableDirectory) -> String {
        if entry.library.hasPrefix("/") { return entry.library }
        let confDirectory = (path as NSString).deletingLastPathComponent
        let besideConf = ((confDirectory.isEmpty ? "." : confDirectory) as NSString).appendingPathComponent(entry.library)
        if entry.library.contains("/") || FileManager.default.fileExists(atPath: besideConf) { return besideConf }
        return (executableDirectory as NSString).appendingPathComponent(entry.library)
    }

    /// The folder of the running `transit` binary.
    static var executableDirectory: String {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return (exe as NSString).deletingLastPathComponent
    }
}

import Foundation

/// A real ja_JP.UTF-8 for the tests without touching the machine: compiled once a test process with
/// `localedef` (the `locales` package's /usr/share/i18n; scripts/test-setup.sh installs it) into a
/// private LOCPATH, and the build tree's catalogs compiled from po/ (scripts/build-locales.sh, as
/// the README's test command does), where `.build/<triple>/debug/transit` finds them.
public enum JapaneseLocale {
    /// The LOCPATH holding ja_JP.UTF-8, or why there is none (the tests skip with it).
    public static let locpath: Result<String, SkipReason> = {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("transit-locales-\(getpid())")
        atexit { try? FileManager.default.removeItem(at: FileManager.default.temporaryDirectory.appendingPathComponent("transit-locales-\(getpid())")) }
        guard FileManager.default.fileExists(atPath: "/usr/share/i18n/locales/ja_JP") else {
            return .failure(SkipReason("no /usr/share/i18n/locales/ja_JP: install locales (scripts/test-setup.sh)"))
        }
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        // localedef may exit 1 with warnings about the charmap and still write the locale: its files tell.
        guard (try? CommandRun.run("/usr/bin/localedef", ["-i", "ja_JP", "-f", "UTF-8", dir.appendingPathComponent("ja_JP.UTF-8").path])) != nil,
              FileManager.default.fileExists(atPath: dir.appendingPathComponent("ja_JP.UTF-8/LC_MESSAGES").path) else {
            return .failure(SkipReason("localedef could not compile ja_JP.UTF-8"))
        }
        return .success(dir.path)
    }()

    /// The build tree's catalogs, compiled from po/ now (the committed ja.po, not an older copy).
    public static let catalogs: Result<Void, SkipReason> = {
        let bin = BuildProducts.directory.deletingLastPathComponent().appendingPathComponent("share/locale").path
        guard let run = try? CommandRun.run(BuildProducts.packageRoot.appendingPathComponent("scripts/build-locales.sh").path, [bin]) else {
            return .failure(SkipReason("scripts/build-locales.sh did not run"))
        }
        return run.status == 0 ? .success(()) : .failure(SkipReason("scripts/build-locales.sh failed: \(run.stderr)"))
    }()

    /// The variables of a Japanese user, to merge into a command's environment: LANG=ja_JP.UTF-8
    /// with the locale installed (LOCPATH), the other locale variables empty (gettext and
    /// setlocale ignore an empty one), then `extra` (LC_ALL=C, LANGUAGE=en…).
    public static func environment(_ extra: [String: String] = [:]) throws -> [String: String] {
        let locpath = try locpath.get()
        try catalogs.get()
        var env = ["LC_ALL": "", "LC_MESSAGES": "", "LANGUAGE": "", "TRANSIT_LOCALEDIR": ""]
        env["LOCPATH"] = locpath
        env["LANG"] = "ja_JP.UTF-8"
        env["NO_COLOR"] = "1"
        for (k, v) in extra { env[k] = v }
        return env
    }

    public struct SkipReason: Error, CustomStringConvertible {
        public let description: String
        init(_ d: String) { description = d }
    }
}

import Foundation

/// Where the running `transit` sits, from which its installed files are found (`../lib/transit`,
/// `../share/transit`) — /proc/self/exe, so a symbolic link to the binary finds the real tree.
package enum InstallLayout {
    /// The folder of the running `transit` binary.
    package static var executableDirectory: String {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return (exe as NSString).deletingLastPathComponent
    }

    /// Where the message catalogs are (`<dir>/ja/LC_MESSAGES/transit.mo`): `TRANSIT_LOCALEDIR` when
    /// set (a developer's or a test's catalogs), else `share/locale` beside the binary's `bin`:
    /// PREFIX/share/locale once installed, `.build/<triple>/share/locale` in the build tree, where
    /// scripts/build-locales.sh compiles po/ (the README's test command runs it).
    package static func catalogs(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let dir = environment["TRANSIT_LOCALEDIR"], !dir.isEmpty { return dir }
        return ((executableDirectory as NSString).deletingLastPathComponent as NSString).appendingPathComponent("share/locale")
    }
}

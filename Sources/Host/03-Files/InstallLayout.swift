import Foundation

/// Where the running `transit` sits, from which its installed files are found (`../lib/transit`,
/// `../share/transit`) — /proc/self/exe, so a symbolic link to the binary finds the real tree.
package enum InstallLayout {
    /// The folder of the running `transit` binary.
    package static var executableDirectory: String {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return (exe as NSString).deletingLastPathComponent
    }
}

import Foundation

/// Builds the plain-C plugins of Tests/Fixtures against the ABI header alone.
public enum CPluginBuilder {
    /// Compiles `source` with `defines` into `directory`; returns the library path. Without a
    /// source: the demo plugin (demo_plugin.c), or its variants' file (hostile_plugin.c) when a
    /// define names a variant ("DEMO_WRONG_ABI"; `DEMO_NAME=…` alone keeps the demo).
    public static func build(into directory: URL, name: String = "libdemo.so", defines: [String] = [],
                             source: String? = nil) throws -> String {
        let variant = defines.contains { !$0.hasPrefix("DEMO_NAME") }
        let source = source ?? (variant ? "hostile_plugin.c" : "demo_plugin.c")
        let output = directory.appendingPathComponent(name).path
        let root = BuildProducts.packageRoot
        // Warnings are errors for the plugin as shipped; the fault variants leave parts unused.
        let warnings = defines.isEmpty ? ["-Wall", "-Wextra", "-Werror"] : ["-Wall"]
        let run = try CommandRun.run("/usr/bin/env", ["cc", "-std=c99", "-shared", "-fPIC"] + warnings + [
                                                      "-I", root.appendingPathComponent("Sources/ReaderABI/include").path]
                                     + defines.map { "-D\($0)" }
                                     + [root.appendingPathComponent("Tests/Fixtures/\(source)").path, "-o", output])
        guard run.status == 0 else { throw BuildFailure(message: run.stderr) }
        return output
    }

    public struct BuildFailure: Error { public let message: String }
}

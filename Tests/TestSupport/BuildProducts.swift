import Foundation

/// Where the package and its built products are, as seen from a running test.
public enum BuildProducts {
    /// The package root (found from this file's path).
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The build folder that holds the test binary, `transit`, `transit-sim` and the plugin libraries.
    public static let directory: URL = {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
        // The test binary may sit inside a .xctest bundle folder.
        while dir.path != "/", !FileManager.default.fileExists(atPath: dir.appendingPathComponent("transit").path) {
            dir = dir.deletingLastPathComponent()
        }
        return dir
    }()

    /// The built `transit`, which finds the repository's plugins.conf as a build-tree binary does
    /// (transit never reads ./plugins.conf; bare library names resolve beside the binary).
    /// Every way a test starts `transit` goes through this path, so this is also where the test
    /// process points XDG_DATA_HOME at a temporary folder (`testDataHome`): a `transit` started by a
    /// test inherits it and never writes into the developer's own history archive.
    public static let transit: String = {
        isolateDataHome()
        // Earlier versions of the suite copied the conf beside the binary: it would shadow the package's.
        try? FileManager.default.removeItem(at: directory.appendingPathComponent("plugins.conf"))
        return directory.appendingPathComponent("transit").path
    }()
    /// The history archive's XDG_DATA_HOME for every `transit` a test starts without its own;
    /// removed when the test process ends.
    public static let testDataHome: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("transit-test-data-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: BuildProducts.testDataHome) }
        return url
    }()

    /// Points this process's XDG_DATA_HOME (inherited by every `transit` it starts) at `testDataHome`.
    public static func isolateDataHome() {
        setenv("XDG_DATA_HOME", testDataHome.path, 1)
    }

    public static var simulator: String { directory.appendingPathComponent("transit-sim").path }
    public static func plugin(_ product: String) -> String { directory.appendingPathComponent("lib\(product).so").path }

    /// The tests' Python: the virtual environment scripts/test-setup.sh makes (`TRANSIT_TEST_VENV`,
    /// default .build/venv), which holds the PyPI tools (ofxtools), else Debian's python3.
    public static var python: String {
        let venv = ProcessInfo.processInfo.environment["TRANSIT_TEST_VENV"].map { URL(fileURLWithPath: $0, relativeTo: packageRoot) }
            ?? packageRoot.appendingPathComponent(".build/venv")
        let inVenv = venv.appendingPathComponent("bin/python3").path
        return FileManager.default.isExecutableFile(atPath: inVenv) ? inVenv : "/usr/bin/python3"
    }

    /// A bundled sample card image.
    public static func sample(_ name: String) -> String { packageRoot.appendingPathComponent("samples/\(name)").path }

    /// The variable that names a folder of real card dumps (Flipper Zero `.nfc` files, JSON
    /// exports) for the tests that read them; they cannot be published, so none is in the repository.
    public static let cardDumpsVariable = "TRANSIT_CARD_DUMPS"

    /// Why those tests are skipped where there is no such folder (the README quotes it).
    public static let cardDumpsMissing = "set \(cardDumpsVariable) to a folder of real card dumps to run these"

    /// The folder `TRANSIT_CARD_DUMPS` names (relative to the current folder); unset, the team's
    /// own ../shared/cards beside the checkout. Nil when it is not a folder on this machine.
    public static var cardDumps: URL? {
        let named = ProcessInfo.processInfo.environment[cardDumpsVariable].flatMap { $0.isEmpty ? nil : $0 }
        let url = named.map { URL(fileURLWithPath: $0) }
            ?? packageRoot.deletingLastPathComponent().appendingPathComponent("shared").appendingPathComponent("cards")
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &folder) && folder.boolValue ? url.standardizedFileURL : nil
    }
}

/// A fresh temporary folder, removed by the caller.
public func temporaryDirectory() -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("transit-test-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

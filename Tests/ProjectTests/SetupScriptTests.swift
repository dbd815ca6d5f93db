import Foundation
import TestSupport
import XCTest

/// What the set-up scripts ask a machine to install, run against stand-ins of dpkg-query (nothing
/// installed), apt-get, sudo and Python that log what they are asked: a card reader's user gets
/// what reading needs; the tests' tools come from the test set-up, PyPI's into a virtual environment.
final class SetupScriptTests: XCTestCase {
    private var dir = temporaryDirectory()
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    private var log: URL { dir.appendingPathComponent("calls") }

    private func stub(_ name: String, _ body: String) throws {
        let bin = dir.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let file = bin.appendingPathComponent(name)
        try "#!/bin/sh\n\(body)\n".write(to: file, atomically: true, encoding: .utf8)
        chmod(file.path, 0o755)
    }

    /// Runs `script` with the stand-ins first on PATH; the calls they logged, one a line.
    private func run(_ script: String) throws -> (run: CommandRun, calls: [String]) {
        try stub("dpkg-query", "exit 1")
        for name in ["apt-get", "pip", "pip3"] { try stub(name, "echo \"\(name) $*\" >> '\(log.path)'") }
        try stub("sudo", "echo \"sudo $*\" >> '\(log.path)'; exec \"$@\"")
        // The venv's Python: logs, and has no ofxtools until pip installs it.
        let venv = dir.appendingPathComponent("venv")
        try stub("python3", """
            echo "python3 $*" >> '\(log.path)'
            if [ "$1 $2" = "-m venv" ]; then mkdir -p "$4/bin"; cp "$0" "$4/bin/python3"; exit 0; fi
            [ "$1" = "-c" ] && exit 1
            exit 0
            """)
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = dir.appendingPathComponent("bin").path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        env["PYTHON"] = dir.appendingPathComponent("bin/python3").path
        env["TRANSIT_TEST_VENV"] = venv.path
        let run = try CommandRun.run("/bin/bash", [BuildProducts.packageRoot.appendingPathComponent(script).path],
                                     currentDirectory: BuildProducts.packageRoot, environment: env)
        let calls = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        return (run, calls)
    }

    private func installed(_ calls: [String]) -> Set<String> {
        Set(calls.filter { $0.hasPrefix("apt-get ") && $0.contains(" install ") }
            .flatMap { $0.split(separator: " ").map(String.init) }.filter { !$0.hasPrefix("-") })
    }

    private static let testTools = ["chromium", "lintian", "umockdev", "poppler-utils", "strace", "vsmartcard-vpcd", "hledger", "po4a", "python3-pip"]

    func testTheSetUpInstallsWhatReadingCardsNeedsAndNoTestTool() throws {
        let (run, calls) = try run("scripts/setup.sh")
        XCTAssertEqual(run.status, 0, run.stderr)
        let packages = installed(calls)
        for needed in ["pcscd", "libpcsclite-dev", "libusb-1.0-0-dev", "libsqlite3-dev", "zlib1g-dev", "patchelf"] {
            XCTAssertTrue(packages.contains(needed), "\(needed): \(calls)")
        }
        for tool in Self.testTools { XCTAssertFalse(packages.contains(tool), "setup.sh installs \(tool), a test's tool") }
        XCTAssertFalse(calls.contains { $0.contains("pip") }, "setup.sh installs nothing from PyPI: \(calls)")
        XCTAssertTrue(run.stderr.contains("installing"), "it says what it installs: \(run.stderr)")
    }

    func testTheTestSetUpAddsTheTestsToolsAndPutsPyPIsIntoAVirtualEnvironment() throws {
        let (run, calls) = try run("scripts/test-setup.sh")
        XCTAssertEqual(run.status, 0, run.stderr)
        let packages = installed(calls)
        for tool in Self.testTools where tool != "python3-pip" { XCTAssertTrue(packages.contains(tool), "\(tool): \(calls)") }
        XCTAssertTrue(packages.contains("pcscd"), "it runs setup.sh first")
        let venv = dir.appendingPathComponent("venv").path
        XCTAssertTrue(calls.contains("python3 -m venv --system-site-packages \(venv)"), "\(calls)")
        let pip = calls.filter { $0.contains("pip") }
        XCTAssertEqual(pip, ["python3 -m pip install --quiet --disable-pip-version-check ofxtools"], "pip only inside the venv")
        XCTAssertFalse(calls.contains { $0.contains("--break-system-packages") })
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: venv + "/bin/python3"), "the venv's python3 ran pip")
        // test.sh (what .ci/run runs) calls the test set-up.
        let test = try String(contentsOf: BuildProducts.packageRoot.appendingPathComponent("scripts/test.sh"), encoding: .utf8)
        XCTAssertTrue(test.components(separatedBy: "\n").contains("scripts/test-setup.sh"), test)
    }
}

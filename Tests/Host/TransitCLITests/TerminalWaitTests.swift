import Foundation
import TestSupport
import XCTest

/// Long waits speak on a terminal (a pseudo-terminal made by util-linux's `script`) and stay
/// silent when stderr is a pipe; `--wait` covers pcscd not running yet, with one hint for
/// starting it in scan and doctor alike.
final class TerminalWaitTests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    /// pcscd's socket where nothing listens: pcscd "not running" for libpcsclite.
    private var noPcscd: [String: String] {
        ["PCSCLITE_CSOCK_NAME": dir.appendingPathComponent("no-pcscd.comm").path, "PATH": "/usr/bin:/bin"]
    }

    /// `transit ARGS` on a pseudo-terminal: everything it wrote to the terminal.
    private func onTerminal(_ arguments: [String]) throws -> CommandRun {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "no script(1) (util-linux)")
        let command = ([BuildProducts.transit] + arguments).map { "'\($0)'" }.joined(separator: " ")
        return try CommandRun.run("/usr/bin/script", ["-q", "-e", "-c", command, "/dev/null"], environment: noPcscd, timeout: 30)
    }

    func testScanWaitSaysWhatItWaitsForOnATerminalAndWaitsForPcscd() throws {
        let started = Date()
        let run = try onTerminal(["scan", "--wait", "2", "--no-save"])
        let took = Date().timeIntervalSince(started)
        XCTAssertEqual(run.status, 3, run.stdout)
        XCTAssertGreaterThan(took, 1.9, "--wait 2 waits for pcscd to start: \(run.stdout)")
        XCTAssertTrue(run.stdout.contains("transit: waiting up to 2 s for pcscd to start… 2 s left; Ctrl-C stops"), run.stdout)
        // Nothing found on either transport (issue 35): what was looked for on each, and how to start pcscd.
        XCTAssertTrue(run.stdout.contains("no PC/SC reader (pcscd is not running: only PC/SC readers need it)"), run.stdout)
        XCTAssertTrue(run.stdout.contains("no RC-S380 or RC-S330/360/370 on USB"), run.stdout)
        XCTAssertTrue(run.stdout.contains("start it: sudo systemctl start pcscd.socket; not installed: sudo apt install pcscd"), run.stdout)
    }

    func testPipedOutputStaysSilentWhileItWaits() throws {
        let run = try CommandRun.transit(["scan", "--wait", "1", "--no-save"], environment: noPcscd)
        XCTAssertEqual(run.status, 3, run.stderr)
        XCTAssertFalse(run.stderr.contains("waiting"), run.stderr)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, "one line, the error: \(run.stderr)")
    }

    func testDoctorGivesTheSameHintForStartingPcscd() throws {
        let run = try CommandRun.transit(["doctor", "--json"], environment: noPcscd)
        let checks = (try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8))) as? [[String: Any]] ?? []
        XCTAssertEqual(checks.first { $0["check"] as? String == "pcscd" }?["fix"] as? String,
                       "start it: sudo systemctl start pcscd.socket; not installed: sudo apt install pcscd", run.stdout)
    }

    func testWatchSaysWhatItWatchesAndHowToStop() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "no script(1) (util-linux)")
        // `timeout` ends the watch (SIGTERM: exit 0) after a second.
        let command = "timeout 1 '\(BuildProducts.transit)' watch --reader ACR122 --no-save"
        let run = try CommandRun.run("/usr/bin/script", ["-q", "-e", "-c", command, "/dev/null"], environment: noPcscd, timeout: 30)
        XCTAssertTrue(run.stdout.contains("transit: watching the readers whose names contain \"ACR122\" for cards; Ctrl-C stops"), run.stdout)
        let piped = try CommandRun.run("/usr/bin/timeout", ["1", BuildProducts.transit, "watch", "--no-save"], environment: noPcscd)
        XCTAssertFalse(piped.stderr.contains("watching"), piped.stderr)
    }
}

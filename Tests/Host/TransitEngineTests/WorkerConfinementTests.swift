import Foundation
import TestSupport
import XCTest

/// The plugin worker gives up root and every system call a read does not need once its plugins are
/// loaded, and the host trusts none of what the worker says: it checks the reading, counts the
/// exchanges and bounds the log lines itself.
final class WorkerConfinementTests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    /// A conf of the demo plugin built with `define` first, then CEPAS (which reads ezlink.json).
    private func conf(_ define: String) throws -> String {
        let lib = try CPluginBuilder.build(into: dir, name: "lib\(define).so", defines: [define])
        let conf = dir.appendingPathComponent("\(define).conf")
        try "demo \(lib)\ncepas \(BuildProducts.plugin("TransitCEPAS"))\n".write(to: conf, atomically: true, encoding: .utf8)
        return conf.path
    }

    private func scan(_ define: String, _ extra: [String] = []) throws -> CommandRun {
        try CommandRun.transit(["scan", "--config", try conf(define), "--card", BuildProducts.sample("ezlink.json"), "--json", "--no-save"] + extra)
    }

    private func assertPluginFault(_ run: CommandRun, _ said: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(run.status, 5, run.stderr, file: file, line: line)
        let error = run.json?["error"] as? [String: Any]
        XCTAssertEqual(error?["kind"] as? String, "plugin", run.stdout, file: file, line: line)
        XCTAssertEqual(error?["plugin"] as? String, "demo", run.stdout, file: file, line: line)
        XCTAssertTrue((error?["message"] as? String)?.contains(said) == true, "\(error ?? [:])", file: file, line: line)
    }

    func testAPluginCanNeitherOpenNorConnectNorRunNorBecomeRoot() throws {
        let run = try scan("DEMO_ESCAPE", ["--verbose"])
        assertPluginFault(run, "failed")
        for call in ["open", "socket", "execve", "setuid"] {
            XCTAssertTrue(run.stderr.contains("demo: \(call): Operation not permitted"), "\(call): \(run.stderr)")
        }
        // The host lived on: the same command reads a card right after.
        let next = try CommandRun.transit(["scan", "--card", BuildProducts.sample("ezlink.json"), "--json", "--no-save"])
        XCTAssertEqual(next.json?["balance"] as? Int, 897, next.stderr)
    }

    func testTheWorkerRunsWithoutRootAndWithoutNewPrivileges() throws {
        try XCTSkipUnless(geteuid() == 0, "the worker drops root only when started as root")
        // A plugin that reports the worker's /proc/self/status would need open(2), which the filter
        // refuses: the worker's own answer is the test's. Its status is read from outside instead.
        let lib = try CPluginBuilder.build(into: dir, name: "libloop.so", defines: ["DEMO_LOOP", "DEMO_NAME=\"loop\""])
        let conf = dir.appendingPathComponent("loop.conf")
        try "loop \(lib)\n".write(to: conf, atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: BuildProducts.transit)
        p.arguments = ["scan", "--config", conf.path, "--card", BuildProducts.sample("ezlink.json"), "--no-save", "--read-timeout", "30"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        defer { p.terminate(); p.waitUntilExit() }
        var status = ""
        for _ in 0 ..< 200 where !status.contains("Seccomp:\t2") {
            usleep(20_000)
            let children = (try? String(contentsOfFile: "/proc/\(p.processIdentifier)/task/\(p.processIdentifier)/children", encoding: .utf8)) ?? ""
            for child in children.split(separator: " ") {
                status = (try? String(contentsOfFile: "/proc/\(child)/status", encoding: .utf8)) ?? status
            }
        }
        func field(_ name: String) -> String? {
            status.split(separator: "\n").first { $0.hasPrefix(name + ":") }.map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
        }
        XCTAssertEqual(field("Seccomp"), "2", "a seccomp filter: \(status)")
        XCTAssertEqual(field("NoNewPrivs"), "1")
        XCTAssertFalse(field("Uid")?.hasPrefix("0") ?? true, "not root: \(field("Uid") ?? "")")
        XCTAssertEqual(field("CapEff"), "0000000000000000", "no capability")
        XCTAssertEqual(field("Groups"), "", "no supplementary group")
    }

    func testAReadingWrittenToThePipeBehindTheWorkersBackIsCheckedByTheHost() throws {
        assertPluginFault(try scan("DEMO_FORGE_DONE"), "currency ZZZ, not an ISO 4217 code")
    }

    func testTheHostCountsTheExchangesItself() throws {
        let run = try scan("DEMO_RAW_TRANSMIT")
        assertPluginFault(run, "asked the reader more than 2016 commands (counted by the host")
    }

    func testLogLinesHaveABoundPerRead() throws {
        assertPluginFault(try scan("DEMO_CHATTY"), "more than 1 MiB of log lines")
    }
}

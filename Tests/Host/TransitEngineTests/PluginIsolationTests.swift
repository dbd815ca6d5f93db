import Foundation
import TestSupport
import XCTest

/// Plugins run in a worker process: one that crashes, exits, spins, sleeps or prints ends the read
/// as a `plugin` fault naming it (the read ended, and how to debug it), stdout stays one JSON
/// object, and the host carries on to its next read.
final class PluginIsolationTests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    /// A conf with the misbehaving plugin first, then CEPAS and Japan IC (which read the samples).
    private func conf(_ misbehave: String) throws -> String {
        let lib = try CPluginBuilder.build(into: dir, name: "libbad.so", defines: [], source: "misbehaving_plugin.c")
        let conf = dir.appendingPathComponent("plugins.conf")
        try """
        bad \(lib) misbehave=\(misbehave)
        cepas \(BuildProducts.plugin("TransitCEPAS"))
        japan-ic \(BuildProducts.plugin("TransitJapanIC"))

        """.write(to: conf, atomically: true, encoding: .utf8)
        return conf.path
    }

    func testAPluginThatDiesOrHangsIsAFaultNamingIt() throws {
        let cases = [("crash", "crashed"), ("abort", "crashed"), ("exit", "ended its process (exit 0)"),
                     ("spin", "did not finish the read within its deadline of 1 s"),
                     ("sleep", "did not finish the read within its deadline of 1 s")]
        for (misbehave, said) in cases {
            let run = try CommandRun.transit(["scan", "--config", try conf(misbehave), "--card", BuildProducts.sample("ezlink.json"),
                                              "--json", "--read-timeout", "1"])
            XCTAssertEqual(run.status, 5, "\(misbehave): \(run.stderr)")
            let error = run.json?["error"] as? [String: Any]
            XCTAssertEqual(error?["kind"] as? String, "plugin", "\(misbehave): \(run.stdout)")
            XCTAssertEqual(error?["plugin"] as? String, "bad", misbehave)
            XCTAssertTrue((error?["message"] as? String)?.contains(said) == true, "\(misbehave): \(error ?? [:])")
            XCTAssertTrue(run.stderr.contains("transit: bad: plugin bad"), "\(misbehave): one line on stderr: \(run.stderr)")
            if said == "crashed" || misbehave == "exit" {
                // The read ended (nothing was printed of the card), and the message says how to find the fault.
                let message = (error?["message"] as? String) ?? ""
                XCTAssertTrue(message.contains("the read ended") && !message.contains("carried on"), message)
                XCTAssertTrue(message.contains("TRANSIT_PLUGIN_WORKER=0"), message)
            }
        }
    }

    func testTheCrashMessagesDebuggingRecipeMakesTheFaultTransitsOwn() throws {
        // The recipe the message and docs/ABI.md give: the same read with the plugins inside
        // transit, which then dies of the plugin's signal itself (a core dump or a debugger shows where).
        var env = ProcessInfo.processInfo.environment
        env["TRANSIT_PLUGIN_WORKER"] = "0"
        let run = try CommandRun.run(BuildProducts.transit, ["scan", "--config", try conf("crash"), "--card", BuildProducts.sample("ezlink.json"),
                                                             "--no-save"], environment: env)
        XCTAssertTrue(run.crashed, "transit itself ended by the signal: \(run.status) \(run.stderr)")
        XCTAssertEqual(run.status, SIGSEGV)
    }

    func testWhatAPluginPrintsNeverReachesStdout() throws {
        let run = try CommandRun.transit(["scan", "--config", try conf("print"), "--card", BuildProducts.sample("ezlink.json"), "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.json?["balance"] as? Int, 897, "stdout is the one EZ-Link object: \(run.stdout)")
        XCTAssertFalse(run.stderr.contains("999999"), "dropped without --verbose: \(run.stderr)")
        let verbose = try CommandRun.transit(["scan", "--config", try conf("print"), "--card", BuildProducts.sample("ezlink.json"),
                                              "--json", "--verbose"])
        XCTAssertEqual(verbose.json?["balance"] as? Int, 897, verbose.stdout)
        XCTAssertTrue(verbose.stderr.contains("Balance: 999999"), "shown on stderr with --verbose: \(verbose.stderr)")
    }

    func testDecodeCarriesOnAfterAPluginCrash() throws {
        let run = try CommandRun.transit(["decode", "--config", try conf("crash"), BuildProducts.sample("ezlink.json"),
                                          BuildProducts.sample("suica.json")])
        let lines = run.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        XCTAssertEqual(lines.count, 2, run.stdout)
        XCTAssertEqual((lines.first?["error"] as? [String: Any])?["plugin"] as? String, "bad")
        XCTAssertEqual((lines.last?["card"] as? [String: Any])?["balance"] as? Int, 2010, "the next file reads in a new worker")
        XCTAssertEqual(run.status, 5)
    }
}

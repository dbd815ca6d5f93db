import Foundation
import TestSupport
import XCTest

/// `transit-sim`'s exit codes follow transit's: 2 for a wrong command line or card file (usage),
/// before it ever reaches for vpcd.
final class SimulatorCommandTests: XCTestCase {
    func testABadCardFileOrOptionExitsTwoAndSaysWhy() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = dir.appendingPathComponent("bad.json")
        try "{ not json".write(to: bad, atomically: true, encoding: .utf8)
        for (arguments, said) in [(["--card", bad.path], "transit-sim: "),
                                  (["--card", dir.appendingPathComponent("missing.json").path], "missing.json"),
                                  (["--card", BuildProducts.sample("suica.json"), "--reader-model", "nosuch"], "unknown reader model nosuch"),
                                  (["--card", BuildProducts.sample("suica.json"), "--index", "0"], "--index takes")] {
            let run = try CommandRun.run(BuildProducts.simulator, arguments, timeout: 20)
            XCTAssertEqual(run.status, 2, "\(arguments): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains(said), "\(arguments): \(run.stderr)")
        }
        let usage = try CommandRun.run(BuildProducts.simulator, ["--port"], timeout: 20)
        XCTAssertEqual(usage.status, 2)
    }
}

extension SimulatorCommandTests {
    /// transit-sim reads its command line with transit's parser: a value its option does not take
    /// or an option it does not know is exit 2 with a message, before vpcd is tried (it used to
    /// take `--port notaport` for 35963 and wait there).
    func testABadValueOrAnUnknownOptionExitsTwoWithAMessage() throws {
        let card = ["--card", BuildProducts.sample("suica.json")]
        for (arguments, said) in [(card + ["--port", "notaport"], "--port takes a TCP port, 1 to 65535, not \"notaport\""),
                                  (card + ["--port", "70000"], "--port takes a TCP port"),
                                  (card + ["--latency-ms", "soon"], "--latency-ms takes a whole number"),
                                  (card + ["--remove-after", "-1"], "--remove-after takes a whole number"),
                                  (card + ["--hang-after=-1"], "--hang-after takes a whole number, 0 or more"),
                                  (card + ["--dialect", "felica"], "unknown dialect felica: --dialect must be one of"),
                                  (card + ["--prot", "35963"], "transit-sim: unknown option --prot: did you mean --port?"),
                                  (card + ["stray"], "transit-sim takes no operands, not \"stray\""),
                                  (["--index", "1"], "transit-sim needs --card FILE")] {
            let run = try CommandRun.run(BuildProducts.simulator, arguments, timeout: 20)
            XCTAssertEqual(run.status, 2, "\(arguments): \(run.stderr)")
            XCTAssertTrue(run.stderr.hasPrefix("transit-sim: "), "\(arguments): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains(said), "\(arguments): \(run.stderr)")
        }
        let help = try CommandRun.run(BuildProducts.simulator, ["--help"], timeout: 20)
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.hasPrefix("transit-sim --card FILE"), help.stdout)
    }
}

extension SimulatorCommandTests {
    /// On a terminal transit-sim says it is still trying to reach vpcd; piped, it says nothing
    /// until it gives up. Port 9 (discard) on 127.0.0.1 has no listener here.
    func testTheSimulatorSaysOnATerminalThatItIsStillTrying() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "no script(1) (util-linux)")
        let command = "timeout 2 '\(BuildProducts.simulator)' --card '\(BuildProducts.sample("suica.json"))' --port 9"
        let run = try CommandRun.run("/usr/bin/script", ["-q", "-e", "-c", command, "/dev/null"], timeout: 30)
        XCTAssertTrue(run.stdout.contains("transit-sim: nothing listens on 127.0.0.1:9 yet: still trying"), run.stdout)
        let piped = try CommandRun.run("/usr/bin/timeout", ["2", BuildProducts.simulator, "--card", BuildProducts.sample("suica.json"), "--port", "9"])
        XCTAssertEqual(piped.stderr, "", "silent when piped")
    }
}

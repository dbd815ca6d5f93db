import Foundation
import TestSupport
import XCTest

/// scripts/benchmark.py as a person reads it on a busy machine: each figure over its target named
/// with its value and target, and columns that never run into each other.
final class BenchmarkScriptTests: XCTestCase {
    private func python(_ code: String) throws -> CommandRun {
        let scripts = BuildProducts.packageRoot.appendingPathComponent("scripts").path
        return try CommandRun.run("/usr/bin/python3", ["-B", "-c", "import sys; sys.path.insert(0, sys.argv[1])\n" + code, scripts])
    }

    func testEachFigureOverTargetIsNamed() throws {
        let run = try python("""
        import benchmark
        t = benchmark.Targets()
        t.check("suica.json", "worker", 7.6, "<", 10, "ms")
        t.check("edy-mobile.json", "worker", 12.34, "<", 10, "ms")
        t.check("nanaco.json", "counted exchanges", 6, "≤", 5)
        t.check("T-Union", "peak RSS", 24.1, "<", 30, "MB")
        print("\\n".join(t.summary()))
        """)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, """
        2 figures over target:
          edy-mobile.json: worker 12.3 ms (target < 10 ms)
          nanaco.json: counted exchanges 6 (target ≤ 5)

        """)
    }

    func testTheCardColumnHoldsTheLongestName() throws {
        let run = try python("""
        import benchmark
        print(benchmark.pcsc_header())
        print(benchmark.pcsc_row("edy-mobile.json", "edy", 6, 4, 6, [54.1, 50.2, 60.3], 6.4, 24.0, 20))
        print(benchmark.usb_header())
        print(benchmark.usb_row("edy-mobile.json", "edy", 6, 13, 7, [54.1, 50.2, 60.3]))
        """)
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        guard lines.count == 4 else { return XCTFail("a header and a row for each table: \(run.stdout)") }
        for line in lines {
            // Cells are apart by two spaces at least: each header word and value stays its own.
            let cells = line.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            XCTAssertTrue(cells.count >= 8, line)
        }
        XCTAssertTrue(lines[1].hasPrefix("edy-mobile.json  edy "), lines[1])
        XCTAssertTrue(lines[3].hasPrefix("edy-mobile.json  edy "), lines[3])
        XCTAssertEqual(lines[0].count, lines[1].count, "the header is as wide as its rows")
    }

    /// Issue 34: the probe table names, for each ISO family, the APDUs sent before its plugin and its own.
    func testTheProbeTableGivesEachISOFamilysProbesAndItsPluginsOwn() throws {
        let run = try python("""
        import benchmark
        print(benchmark.probe_header())
        print(benchmark.probe_row("clipper.json", "clipper", "desfire", 1, 17))
        print(" ".join(sorted({f for _, f in benchmark.PROBE_CARDS})))
        """)
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        guard lines.count == 3 else { return XCTFail(run.stdout) }
        let cells = lines.prefix(2).map { $0.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
        XCTAssertEqual(cells[0], ["card", "family", "plugin", "probes before", "own", "counted"])
        XCTAssertEqual(cells[1], ["clipper.json", "clipper", "desfire", "1", "17", "18"], "counted: the probes and the plugin's own")
        XCTAssertEqual(lines[0].count, lines[1].count, "the header is as wide as its rows")
        XCTAssertEqual(lines[2], "calypso cepas china-city clipper hsl ksx6924 opal orca tunion", "every ISO family the host reads")
    }

    /// Issue 46: what the side-by-side table counts in the emulator's log (PN53x command frames, the
    /// ACK not one; the frames the card was sent), and its ratios over transit's row.
    func testTheRCS956TableCountsCommandFramesAndGivesRatiosOverTransit() throws {
        let run = try python("""
        import benchmark, pathlib, tempfile
        log = pathlib.Path(tempfile.mkdtemp()) / "usb.log"
        log.write_text("\\n".join(["# 0.01 running: transit", "OUT 0000ff00ff00", "OUT 0000ff02fed4022a00", "IN 0000ff00ff00",
                                    "OUT 0000ff09f7d44a010100ffff0100e100", "# 0.10 card: 212 > 0600ffff0100 < 1401", "# 0.11 card: power off",
                                    "OUT 0000ff0cf4d4420a0c012e4cd8a1b2c3d49700", "# 0.12 card: 212 > 0a0c < 0f0d", "OUT 0000ff00ff00"]))
        print(benchmark.emulator_counts(log))
        print("\\n".join(benchmark.rcs956_lines([("transit scan", 5, 10, [150.0, 140.0, 160.0]),
                                                  ("nfcpy 1.0.4 (process)", 3, 27, [450.0, 420.0, 500.0])])))
        """)
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        guard lines.count == 4 else { return XCTFail(run.stdout) }
        XCTAssertEqual(lines[0], "(2, 3)", "two card frames; three commands, the two ACKs not counted")
        let cells = lines.dropFirst().map { $0.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
        XCTAssertEqual(cells[0], ["tool", "card frames", "USB cmds", "median ms", "min ms", "max ms", "USB ratio", "ms ratio"])
        XCTAssertEqual(cells[1], ["transit scan", "5", "10", "150.0", "140.0", "160.0", "1.00", "1.00"])
        XCTAssertEqual(cells[2], ["nfcpy 1.0.4 (process)", "3", "27", "450.0", "420.0", "500.0", "2.70", "3.00"])
        XCTAssertEqual(lines[1].count, lines[2].count, "the header is as wide as its rows")
    }

    func testThePerformanceGuideStatesEveryTargetTheScriptChecks() throws {
        let performance = DocCommands.text("docs/performance.md")
        for target in ["worker: target < 10 ms", "peak RSS: target < 30 MB", "target < 30 ms", "further USB commands: target ≤ 8",
                       "fewer USB commands and a lower median than nfcpy's"] {
            XCTAssertTrue(performance.contains(target), "docs/performance.md does not say \(target)")
        }
    }
}

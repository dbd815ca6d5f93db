import Foundation
import TestSupport
import XCTest

/// Issue 47: scripts/soak.py, the watch soak, in short — 200 seeded taps of every family in turn on
/// four virtual slots of a pcscd of its own (private namespaces), the archive on. Every tap is read
/// without an error and kept in the archive, and the watch's threads and open files are the same at
/// every sample as after the first round of taps (RSS is judged only by a long soak: 200 taps are
/// within its first 500).
final class SoakEndToEndTests: XCTestCase {
    func testTwoHundredSeededTapsAreEachReadAndKeptWithThreadsAndFilesFlat() throws {
        let tools = ["/usr/sbin/pcscd", "/usr/bin/unshare", "/usr/bin/nsenter", "/usr/sbin/ip", "/usr/lib/pcsc/drivers/serial/libifdvpcd.so"]
        let available = getuid() == 0 && tools.allSatisfy(FileManager.default.fileExists)
        try Prerequisite.require(available, "the soak needs root, pcscd, vsmartcard-vpcd and util-linux; .ci/run installs them and runs as root")
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let summary = dir.appendingPathComponent("soak.json")
        let run = try CommandRun.run("/usr/bin/python3", [BuildProducts.packageRoot.appendingPathComponent("scripts/soak.py").path,
                                                         "--taps", "200", "--seed", "47", "--every", "20", "--transit", BuildProducts.transit,
                                                         "--sim", BuildProducts.simulator, "--summary", summary.path], timeout: 600)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        let got = try JSONSerialization.jsonObject(with: Data(contentsOf: summary)) as? [String: Any] ?? [:]
        XCTAssertEqual(got["kept"] as? Int, 200, "every tap in the archive: \(run.stdout)")
        XCTAssertEqual(got["flat"] as? Bool, true, "\(got["problems"] ?? "")")
        let samples = got["samples"] as? [[String: Any]] ?? []
        XCTAssertEqual(samples.last?["taps"] as? Int, 200)
        XCTAssertEqual(samples.last?["errors"] as? Int, 0)
        XCTAssertEqual(samples.last?["missed"] as? Int, 0)
        // Every family in turn: each card of samples/ the script taps was read, as its own family.
        let read = got["readByCard"] as? [String: Int] ?? [:]
        XCTAssertEqual(read.count, 18, "\(read)")
        XCTAssertTrue(read.values.allSatisfy { $0 >= 11 }, "200 taps over 18 cards: 11 or 12 each: \(read)")
        let families = got["families"] as? [String] ?? []
        for family in ["japan-ic", "edy", "waon", "nanaco", "octopus", "cepas", "ksx6924", "tunion", "china-city", "opal", "clipper",
                       "orca", "hsl", "calypso"] {
            XCTAssertTrue(families.contains(family), "\(family) not among \(families)")
        }
    }
}

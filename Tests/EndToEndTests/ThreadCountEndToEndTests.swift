import Foundation
import TestSupport
import XCTest

/// The PC/SC calls of a read run on one thread a context (`CallThread`): a T-Union read of 21
/// exchanges starts as many threads as a Suica read of 5. Counted by strace (Debian's strace) as
/// the clone calls that make threads (CLONE_THREAD), in the host and its plugin worker.
final class ThreadCountEndToEndTests: EndToEndTestCase {
    /// Threads started by `transit scan` of `card`, and the exchanges of the read.
    private func threadsStarted(reading card: String) throws -> (threads: Int, exchanges: Int) {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.harness.insert(card: BuildProducts.sample(card))
        let trace = dir.appendingPathComponent("trace").path, log = dir.appendingPathComponent("log.json").path
        let p = Self.harness.inside("/usr/bin/strace", ["-f", "-qq", "-e", "trace=clone,clone3", "-o", trace, BuildProducts.transit,
                                                        "scan", "--json", "--no-save", "--wait", "5", "--log", log,
                                                        "--reader", VirtualReaderHarness.readerName])
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        guard let text = try? String(contentsOfFile: trace, encoding: .utf8), !text.isEmpty else {
            throw XCTSkip("strace could not trace transit here (exit \(p.terminationStatus))")
        }
        XCTAssertEqual(p.terminationStatus, 0, "the scan of \(card) read the card")
        let bundle = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: log))) as? [String: Any]
        let exchanges = (bundle?["exchanges"] as? [Any])?.count ?? 0
        let threads = text.split(separator: "\n").filter { $0.contains("CLONE_THREAD") && !$0.contains("resumed>") }.count
        return (threads, exchanges)
    }

    func testASuicaAndATUnionReadStartTheSameThreads() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/strace") else { throw XCTSkip("strace is not installed") }
        let suica = try threadsStarted(reading: "suica.json")
        let tunion = try threadsStarted(reading: "tunion.json")
        print("threads started: Suica \(suica.threads) for \(suica.exchanges) exchanges, T-Union \(tunion.threads) for \(tunion.exchanges)")
        XCTAssertEqual(suica.exchanges, 5, "the Suica read's exchanges")
        XCTAssertGreaterThanOrEqual(tunion.exchanges, 20, "the T-Union read's exchanges")
        XCTAssertLessThanOrEqual(abs(suica.threads - tunion.threads), 2,
                                 "threads: Suica \(suica.threads) for \(suica.exchanges) exchanges, T-Union \(tunion.threads) for \(tunion.exchanges)")
    }
}

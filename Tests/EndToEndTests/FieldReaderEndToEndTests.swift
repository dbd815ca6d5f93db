import Foundation
import TestSupport
import XCTest

/// What real readers do that the lab did not: speak one dialect only, stop answering, carry
/// multi-system cards whose systems answer with their own IDm. Through pcscd, vpcd and transit-sim.
final class FieldReaderEndToEndTests: EndToEndTestCase {
    func scan(_ extra: [String] = []) throws -> CommandRun {
        try Self.harness.transit(["scan", "--json", "--reader", VirtualReaderHarness.readerName, "--wait", "5"] + extra)
    }

    func testEveryFeliCaCardReadsInEachDialectTheReaderSpeaks() throws {
        let cards: [(card: String, family: String, balance: Int)] = [
            ("suica.json", "japan-ic", 2010), ("edy.json", "edy", 1234), ("edy-mobile.json", "edy", 1234),
            ("waon.json", "waon", 239), ("nanaco.json", "nanaco", 1500), ("octopus.json", "octopus", 8500),
        ]
        for dialect in ["pn532", "acs-direct", "part3"] {
            for c in cards {
                // The simulated reader speaks this dialect only; the host is not told which, so every
                // read also proves the fallback from the reader name's guess (Part 3 for vpcd).
                try Self.harness.insert(card: BuildProducts.sample(c.card), ["--dialect", dialect])
                let run = try scan()
                XCTAssertEqual(run.status, 0, "\(c.card) on a \(dialect) reader: \(run.stderr)")
                XCTAssertEqual(run.json?["family"] as? String, c.family, "\(c.card) on a \(dialect) reader")
                XCTAssertEqual(run.json?["balance"] as? Int, c.balance, "\(c.card) on a \(dialect) reader")
            }
        }
    }

    func testARefusedDialectIsReplacedAndTheLogSaysSo() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.harness.insert(card: BuildProducts.sample("suica.json"), ["--dialect", "acs-direct"])
        let log = dir.appendingPathComponent("read.log.json")
        let run = try scan(["--verbose", "--log", log.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("the part3 pass-through did not work (SW 6A81); trying pn532"), run.stderr)
        let bundle = try JSONSerialization.jsonObject(with: Data(contentsOf: log)) as? [String: Any]
        XCTAssertEqual(bundle?["dialect"] as? String, "acs-direct")
        XCTAssertEqual(bundle?["refusedDialects"] as? [String], ["part3", "pn532"])
        // The log replays: the same refusals, then the same read.
        let replay = try Self.harness.transit(["replay", log.path, "--json"])
        XCTAssertEqual(replay.status, 0, replay.stderr)
        XCTAssertEqual(replay.json?["balance"] as? Int, 2010)
    }

    func testAReaderThatStopsAnsweringEndsTheScanWithinItsDeadline() throws {
        // Two answers (UID, Request System Code), then silence from the reader, the card staying on it.
        try Self.harness.insert(card: BuildProducts.sample("suica.json"), ["--hang-after", "2"])
        let started = Date()
        let run = try scan(["--exchange-timeout", "1"])
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, "ends at the exchange deadline, not never")
        XCTAssertEqual(run.status, 5, run.stderr)
        let error = try XCTUnwrap(run.json?["error"] as? [String: Any], run.stdout)
        XCTAssertEqual(error["kind"] as? String, "communication")
        XCTAssertTrue((error["message"] as? String)?.contains("the reader stopped answering") == true, "\(error)")
    }

    /// The read's deadline bounds the exchange under way too: `--read-timeout 2` with the default
    /// 5 s exchange timeout ends near 2 s, not at 2 s plus what is left of the exchange.
    func testTheReadTimeoutEndsAReadWhoseExchangeIsStillWithinItsOwnTimeout() throws {
        try Self.harness.insert(card: BuildProducts.sample("suica.json"), ["--hang-after", "2"])
        let started = Date()
        let run = try scan(["--read-timeout", "2"])
        let took = Date().timeIntervalSince(started)
        XCTAssertEqual(run.status, 5, run.stderr)
        XCTAssertLessThan(took, 3.5, "the read ended \(took) s after it began, its deadline being 2 s")
        let error = try XCTUnwrap(run.json?["error"] as? [String: Any], run.stdout)
        XCTAssertEqual(error["kind"] as? String, "communication")
        XCTAssertTrue((error["message"] as? String)?.contains("deadline") == true, "\(error)")
    }

    func testCtrlCEndsAReadBlockedOnTheReader() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let exchanges = dir.appendingPathComponent("exchanges.log").path
        try Self.harness.insert(card: BuildProducts.sample("suica.json"), ["--hang-after", "2", "--log", exchanges])
        let p = Self.harness.transitProcess(["scan", "--json", "--reader", VirtualReaderHarness.readerName, "--wait", "5", "--exchange-timeout", "60"])
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        defer { if p.isRunning { p.terminate() } }
        // The card has given its second and last answer: the read's next exchange is never answered.
        XCTAssertTrue(VirtualReaderHarness.waitForAnswers(2, loggedIn: exchanges), "the read has begun on the reader")
        // Not a wait for an event: when transit dies within about 0.3 s of the card hanging and the
        // card is then taken away, vpcd's slot sees no new card for over ten seconds (the next
        // test's). A second of the stuck exchange avoids it (issue 38).
        Thread.sleep(forTimeInterval: 1)
        p.interrupt()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationReason, .exit)
        XCTAssertEqual(p.terminationStatus, 130)
        let json = try JSONSerialization.jsonObject(with: output) as? [String: Any]
        XCTAssertEqual((json?["error"] as? [String: Any])?["kind"] as? String, "cancelled")
    }
}

import Foundation
import TestSupport
import XCTest

/// `transit scan` through libpcsclite, a real pcscd and the vsmartcard vpcd driver, fed by
/// transit-sim. Skipped where pcscd or vpcd are not installed, except in CI, where that fails.
final class ReaderEndToEndTests: XCTestCase {
    static let harness = VirtualReaderHarness()
    static var available = false

    override class func setUp() {
        available = (try? harness.startDaemon()) ?? false
    }

    override class func tearDown() { harness.stop() }

    override func setUpWithError() throws {
        if !Self.available, ProcessInfo.processInfo.environment["CI"] == "true" {
            XCTFail("pcscd with vsmartcard-vpcd is not available; .ci/run installs them")
        }
        try XCTSkipUnless(Self.available, "pcscd with vsmartcard-vpcd is not available")
    }

    override func tearDown() { Self.harness.removeCard() }

    func scan(_ extra: [String] = []) throws -> CommandRun {
        try CommandRun.transit(["scan", "--json", "--reader", VirtualReaderHarness.readerName, "--wait", "5"] + extra)
    }

    func testJapanICCardInEachDialect() throws {
        for dialect in ["pn532", "acs-direct", "part3"] {
            // The simulator accepts only this dialect, so a read proves the host spoke it.
            try Self.harness.insert(card: BuildProducts.sample("suica.json"), ["--dialect", dialect])
            let run = try scan(["--dialect", dialect])
            XCTAssertEqual(run.status, 0, "\(dialect): \(run.stderr)")
            let json = try XCTUnwrap(run.json, dialect)
            XCTAssertEqual(json["family"] as? String, "japan-ic")
            XCTAssertEqual(json["balance"] as? Int, 2010)
            let newest = try XCTUnwrap((json["transactions"] as? [[String: Any]])?.first)
            XCTAssertEqual(newest["entryStation"] as? String, "E33B")
            XCTAssertEqual(newest["exitStation"] as? String, "E621")
            XCTAssertEqual(newest["amount"] as? Int, 160)
        }
    }

    func testEdyWAONNanacoAndOctopusCards() throws {
        let expected: [(card: String, family: String, balance: Int, serial: String)] = [
            ("edy.json", "edy", 1234, "1234567890123456"), ("waon.json", "waon", 239, "6900123456789012"),
            ("nanaco.json", "nanaco", 1500, "7100001234567890"), ("octopus.json", "octopus", 8500, "0116D0E1F2031425"),
        ]
        for e in expected {
            try Self.harness.insert(card: BuildProducts.sample(e.card), ["--dialect", "pn532"])
            let run = try scan(["--dialect", "pn532"])
            XCTAssertEqual(run.status, 0, "\(e.card): \(run.stderr)")
            XCTAssertEqual(run.json?["family"] as? String, e.family)
            XCTAssertEqual(run.json?["balance"] as? Int, e.balance, e.card)
            XCTAssertEqual(run.json?["serialNumber"] as? String, e.serial, e.card)
        }
    }

    func testWrongDialectIsACommunicationError() throws {
        try Self.harness.insert(card: BuildProducts.sample("suica.json"), ["--dialect", "pn532"])
        let run = try scan(["--dialect", "part3"])
        XCTAssertEqual(run.status, 5)
        XCTAssertEqual((run.json?["error"] as? [String: Any])?["kind"] as? String, "communication")
    }

    func testEZLinkCardInEachDialect() throws {
        for dialect in ["pn532", "acs-direct", "part3"] {
            try Self.harness.insert(card: BuildProducts.sample("ezlink.json"))
            let run = try scan(["--dialect", dialect])
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertEqual(run.json?["family"] as? String, "cepas")
            XCTAssertEqual(run.json?["cardName"] as? String, "EZ-Link")
            XCTAssertEqual(run.json?["balance"] as? Int, 897)
            XCTAssertEqual((run.json?["transactions"] as? [Any])?.count, 4)
        }
    }

    func testCardPulledAwayMidReadIsSessionLostExit6() throws {
        for pullAt in [1, 2, 3] {
            try Self.harness.insert(card: BuildProducts.sample("suica.json"), ["--remove-after", String(pullAt)])
            let run = try scan()
            XCTAssertEqual(run.status, 6, "pulled after \(pullAt) exchanges: \(run.stdout) \(run.stderr)")
            XCTAssertEqual((run.json?["error"] as? [String: Any])?["kind"] as? String, "sessionLost")
            XCTAssertNil(run.json?["balance"], "no partial result")
        }
    }

    func testCardOfNoKnownFamilyIsTagNotSupportedExit4() throws {
        try Self.harness.insert(card: BuildProducts.sample("unknown-iso.json"))
        let run = try scan()
        XCTAssertEqual(run.status, 4, run.stderr)
        XCTAssertEqual((run.json?["error"] as? [String: Any])?["kind"] as? String, "tagNotSupported")
    }

    func testNoCardIsExit3() throws {
        let run = try CommandRun.transit(["scan", "--json", "--reader", VirtualReaderHarness.readerName])
        XCTAssertEqual(run.status, 3, run.stderr)
        XCTAssertEqual((run.json?["error"] as? [String: Any])?["kind"] as? String, "noCard")
        let none = try CommandRun.transit(["scan", "--json", "--reader", "No Such Reader"])
        XCTAssertEqual(none.status, 3)
        XCTAssertEqual((none.json?["error"] as? [String: Any])?["kind"] as? String, "noReader")
    }

    func testCtrlCWhileWaitingForACardIsCancelledExit130() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: BuildProducts.transit)
        p.arguments = ["scan", "--json", "--reader", VirtualReaderHarness.readerName, "--wait", "20"]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        Thread.sleep(forTimeInterval: 0.5)
        p.interrupt() // SIGINT, as Ctrl-C sends
        let output = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationReason, .exit, "transit handles SIGINT itself")
        XCTAssertEqual(p.terminationStatus, 130)
        let json = try JSONSerialization.jsonObject(with: output) as? [String: Any]
        XCTAssertEqual((json?["error"] as? [String: Any])?["kind"] as? String, "cancelled")
    }
}

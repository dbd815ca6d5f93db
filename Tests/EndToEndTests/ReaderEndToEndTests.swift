import CardSimulation
import Foundation
import TestSupport
import XCTest

/// `transit scan` through libpcsclite, a real pcscd and the vsmartcard vpcd driver, fed by
/// transit-sim. Skipped where pcscd or vpcd are not installed, except in CI, where that fails.
final class ReaderEndToEndTests: EndToEndTestCase {
    func scan(_ extra: [String] = []) throws -> CommandRun {
        try Self.harness.transit(["scan", "--json", "--reader", VirtualReaderHarness.readerName, "--wait", "5"] + extra)
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

    func testTMoneySnapperAndTUnionCards() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let tunionSelect = "00A4040008A00000063201010500"
        var noNegative = try CardImages.sample("tunion.json")
        noNegative.editApplication(select: tunionSelect) { $0.commands["805C010204"] = "000000009000" }
        var negativeRefused = try CardImages.sample("tunion.json")
        negativeRefused.editApplication(select: tunionSelect) { $0.commands["805C010204"] = "6A88" }
        let cards: [(path: String, family: String, balance: Int, currency: String)] = [
            (BuildProducts.sample("tmoney.json"), "ksx6924", 10000, "KRW"),
            (BuildProducts.sample("snapper.json"), "snapper", 1234, "NZD"),
            // Rejects SELECT 4000 and every KS X 6924 AID: read as T-Union; 5000 − 1200 fen.
            (BuildProducts.sample("tunion.json"), "tunion", 3800, "CNY"),
            (try CardImages.write(noNegative, in: dir, name: "no-negative.json"), "tunion", 5000, "CNY"),
            (try CardImages.write(negativeRefused, in: dir, name: "negative-refused.json"), "tunion", 5000, "CNY"),
        ]
        for card in cards {
            try Self.harness.insert(card: card.path)
            let run = try scan()
            XCTAssertEqual(run.status, 0, "\(card.path): \(run.stderr)")
            XCTAssertEqual(run.json?["family"] as? String, card.family, card.path)
            XCTAssertEqual(run.json?["balance"] as? Int, card.balance, card.path)
            XCTAssertEqual(run.json?["currency"] as? String, card.currency, card.path)
        }
    }

    /// Issue 34's cards through pcscd: the china-city and desfire libraries, as a user scans them.
    func testChinaCityAndDESFireCards() throws {
        let cards: [(sample: String, family: String, serial: String, balance: Int, currency: String)] = [
            ("beijing", "china-city", "1000751512345678", 3200, "CNY"), ("shenzhen", "china-city", "295176543(8)", 4560, "CNY"),
            ("shanghai", "china-city", "2105123456", 1850, "CNY"), ("wuhan", "china-city", "3101234567890123", 725, "CNY"),
            ("lingnan", "china-city", "5101234567", 6600, "CNY"), ("macau", "china-city", "1234567890", 8550, "MOP"),
            ("opal", "opal", "3085 2200 7654 3219", 1234, "AUD"), ("clipper", "clipper", "1234567890", 2550, "USD"),
            ("orca", "orca", "87654321", 1975, "USD"), ("hsl", "hsl", "924620 0012 3456 7890", 1500, "EUR"),
        ]
        for card in cards {
            try Self.harness.insert(card: BuildProducts.sample("\(card.sample).json"))
            let run = try scan()
            XCTAssertEqual(run.status, 0, "\(card.sample): \(run.stderr)")
            XCTAssertEqual(run.json?["family"] as? String, card.family, card.sample)
            XCTAssertEqual(run.json?["serialNumber"] as? String, card.serial, card.sample)
            XCTAssertEqual(run.json?["balance"] as? Int, card.balance, card.sample)
            XCTAssertEqual(run.json?["currency"] as? String, card.currency, card.sample)
        }
    }

    func testRefusedGetBalanceAfterSelectIsExit5() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var image = try CardImages.sample("tmoney.json")
        image.editApplication(select: "00A4040007D410000003000100") { $0.commands["904C000004"] = "6985" }
        image.addApplications(of: try CardImages.sample("tunion.json"))
        try Self.harness.insert(card: try CardImages.write(image, in: dir))
        let run = try scan()
        XCTAssertEqual(run.status, 5, run.stderr)
        let error = try XCTUnwrap(run.json?["error"] as? [String: Any])
        XCTAssertEqual(error["kind"] as? String, "cardRefused")
        XCTAssertEqual(error["plugin"] as? String, "ksx6924", "no plugin after it ran")
    }

    func testDumpOfTheSimulatedCardReadsBackToTheLiveResult() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["suica", "tmoney"] {
            try Self.harness.insert(card: BuildProducts.sample("\(name).json"))
            let live = try scan()
            XCTAssertEqual(live.status, 0, live.stderr)
            let out = dir.appendingPathComponent("\(name).json").path
            let dump = try Self.harness.transit(["dump", "--out", out, "--reader", VirtualReaderHarness.readerName, "--wait", "5"])
            XCTAssertEqual(dump.status, 0, dump.stderr)
            let back = try Self.harness.transit(["scan", "--json", "--card", out])
            XCTAssertEqual(back.stdout, live.stdout, name)
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

    /// A card pulled away at every exchange of a read, one card per family: always sessionLost
    /// (exit 6) and never a partial result. Exchange counts from the captures of these cards.
    func testCardPulledAwayAtEveryExchangeOfEveryFamilyIsSessionLost() throws {
        let captures = BuildProducts.packageRoot.appendingPathComponent("Tests/Fixtures/captures")
        for card in ["suica", "edy", "waon", "nanaco", "octopus", "ezlink", "tmoney", "snapper", "tunion"] {
            let log = try JSONSerialization.jsonObject(with: Data(contentsOf: captures.appendingPathComponent("\(card).log.json")))
            let exchanges = try XCTUnwrap((log as? [String: Any])?["exchanges"] as? [Any]).count
            for pullAt in 0 ..< exchanges {
                try Self.harness.insert(card: BuildProducts.sample("\(card).json"), ["--remove-after", String(pullAt)])
                let run = try scan()
                XCTAssertEqual(run.status, 6, "\(card) pulled after \(pullAt) exchanges: \(run.stdout) \(run.stderr)")
                XCTAssertEqual((run.json?["error"] as? [String: Any])?["kind"] as? String, "sessionLost", "\(card) at \(pullAt)")
                XCTAssertNil(run.json?["balance"], "no partial result")
            }
        }
    }

    func testCardOfNoKnownFamilyIsTagNotSupportedExit4() throws {
        try Self.harness.insert(card: BuildProducts.sample("unknown-iso.json"))
        let run = try scan()
        XCTAssertEqual(run.status, 4, run.stderr)
        XCTAssertEqual((run.json?["error"] as? [String: Any])?["kind"] as? String, "tagNotSupported")
    }

    func testNoCardIsExit3() throws {
        let run = try Self.harness.transit(["scan", "--json", "--reader", VirtualReaderHarness.readerName])
        XCTAssertEqual(run.status, 3, run.stderr)
        XCTAssertEqual((run.json?["error"] as? [String: Any])?["kind"] as? String, "noCard")
        // vpcd's reader is a phone's (vsmartcard remote-reader, ISO-DEP only): a MIFARE Classic card
        // held to a phone never reaches it, and the message says so, naming what reads one.
        let message = (run.json?["error"] as? [String: Any])?["message"] as? String ?? ""
        XCTAssertTrue(message.contains("a phone passes on ISO-DEP cards only"), message)
        XCTAssertTrue(message.contains("MIFARE Classic or Ultralight card held to it is never seen"), message)
        let none = try Self.harness.transit(["scan", "--json", "--reader", "No Such Reader"])
        XCTAssertEqual(none.status, 3)
        XCTAssertEqual((none.json?["error"] as? [String: Any])?["kind"] as? String, "noReader")
    }

    func testCtrlCWhileWaitingForACardIsCancelledExit130() throws {
        let p = Self.harness.transitProcess(["scan", "--json", "--reader", VirtualReaderHarness.readerName, "--wait", "20"])
        let out = Pipe()
        // stderr on a terminal: the wait says so there (WaitSpeaker), and Ctrl-C comes once it has.
        let terminal = try PseudoTerminal()
        p.standardOutput = out
        p.standardError = terminal.terminal
        try p.run()
        defer { if p.isRunning { p.terminate() } }
        let waiting = "waiting up to 20 s for a card on \(VirtualReaderHarness.readerName)"
        XCTAssertTrue(terminal.wait(for: waiting), "the scan waits for a card: \(terminal.text)")
        p.interrupt() // SIGINT, as Ctrl-C sends
        let output = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationReason, .exit, "transit handles SIGINT itself")
        XCTAssertEqual(p.terminationStatus, 130)
        let json = try JSONSerialization.jsonObject(with: output) as? [String: Any]
        XCTAssertEqual((json?["error"] as? [String: Any])?["kind"] as? String, "cancelled")
    }
}

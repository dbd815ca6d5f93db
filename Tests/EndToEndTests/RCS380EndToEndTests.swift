import Foundation
import TestSupport
import XCTest

/// Sony's RC-S380 over USB, with no hardware: the built `transit` runs under umockdev's preload
/// (Debian's umockdev) and talks through the real libusb-1.0 to an emulated RC-S380
/// (Tests/Fixtures/rcs380/rcs380_emulator.py, written from docs/research/port100.md) that
/// hosts the project's card images through `transit-sim`. No pcscd runs unless a test starts one.
/// Skipped where umockdev or python3-gi is missing, except in CI, where that fails.
class RCS380TestCase: EndToEndTestCase {
    static let emulator = BuildProducts.packageRoot.appendingPathComponent("Tests/Fixtures/rcs380/rcs380_emulator.py").path
    static let readerName = "SONY RC-S380/S (USB 1:13)"

    override func setUpWithError() throws {
        let present = FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/libumockdev-preload.so.0")
            && FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/girepository-1.0/UMockdev-1.0.typelib")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
        if !present, ProcessInfo.processInfo.environment["CI"] == "true" {
            XCTFail("umockdev, gir1.2-umockdev-1.0 and python3-gi are needed for the RC-S380 tests; .ci/run installs them")
        }
        try XCTSkipUnless(present, "umockdev, gir1.2-umockdev-1.0 and python3-gi are needed for the RC-S380 tests")
    }

    /// `command` (the built `transit` with `arguments` unless given) under the emulated RC-S380,
    /// with `options` for the emulator; `usbLog` gets one line per USB transfer.
    func emulated(_ options: [String], _ arguments: [String], usbLog: String? = nil, command: [String]? = nil,
                  timeout: Double = 60) throws -> CommandRun {
        let log = usbLog.map { ["--log", $0] } ?? []
        return try CommandRun.run("/usr/bin/python3", [Self.emulator, "--card-sim", BuildProducts.simulator, "--timeout", String(Int(timeout))]
                                  + log + options + ["--"] + (command ?? [BuildProducts.transit]) + arguments,
                                  currentDirectory: BuildProducts.packageRoot, timeout: timeout + 10)
    }

    /// The Port-100 commands the host sent: OUT transfers that are frames (the ACK is not a command).
    func commands(_ usbLog: String) -> [String] {
        ((try? String(contentsOfFile: usbLog, encoding: .utf8)) ?? "").split(separator: "\n")
            .filter { $0.hasPrefix("OUT ") && !$0.hasSuffix("0000ff00ff00") }.map { String($0.dropFirst(4)) }
    }
}

/// The RC-S380 alone: no pcscd, no `--reader`.
final class RCS380EndToEndTests: RCS380TestCase {
    /// Reads need no pcscd here: this class starts none.
    override class func setUp() {}
    override class func tearDown() {}
    override func tearDown() {}

    /// The sample cards and what their images hold (the same references as ReaderEndToEndTests').
    let cards: [(file: String, family: String, balance: Int, serial: String)] = [
        ("suica.json", "japan-ic", 2010, "012E4CD8A1B2C3D4"), ("edy.json", "edy", 1234, "1234567890123456"),
        ("waon.json", "waon", 239, "6900123456789012"), ("nanaco.json", "nanaco", 1500, "7100001234567890"),
        ("octopus.json", "octopus", 8500, "0116D0E1F2031425"),
    ]

    func testEveryFeliCaFamilyReadsAt212And424AsThroughTheCardImage() throws {
        for card in cards {
            let reference = try CommandRun.transit(["scan", "--card", BuildProducts.sample(card.file), "--json", "--no-save"])
            for rate in [[], ["--bitrate-424-only"]] {
                let run = try emulated(["--card", BuildProducts.sample(card.file)] + rate, ["scan", "--json", "--no-save"])
                XCTAssertEqual(run.status, 0, "\(card.file) \(rate): \(run.stderr)")
                XCTAssertEqual(run.json?["family"] as? String, card.family, "\(card.file) \(rate)")
                XCTAssertEqual(run.json?["balance"] as? Int, card.balance, "\(card.file) \(rate)")
                XCTAssertEqual(run.json?["serialNumber"] as? String, card.serial, "\(card.file) \(rate)")
                XCTAssertEqual(run.json as NSDictionary?, reference.json as NSDictionary?, "\(card.file) \(rate): the same reading as the card image's")
            }
        }
    }

    func testASuicaReadTakesFiveExchangesAndAtMostEightFurtherUSBCommands() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let usb = dir.appendingPathComponent("usb.log").path, bundle = dir.appendingPathComponent("read.json").path
        let run = try emulated(["--card", BuildProducts.sample("suica.json")], ["scan", "--json", "--no-save", "--log", bundle], usbLog: usb)
        XCTAssertEqual(run.status, 0, run.stderr)
        let log = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: bundle))) as? [String: Any]
        let exchanges = log?["exchanges"] as? [[String: Any]] ?? []
        XCTAssertEqual(exchanges.count, 5, "the card exchanges of the read, as through PC/SC")
        XCTAssertEqual(log?["reader"] as? String, Self.readerName)
        XCTAssertEqual(log?["dialect"] as? String, "bare-frame")
        // Port-100: 00 00 FF FF FF, LEN, LCS, then D6 and the command code (docs/research/port100.md §"Frames"); 04 is
        // InCommRF, and one carrying `06 00 FF FF 01 00` is the sense's Polling, not the card's read.
        let sent = commands(usb)
        let inCommRF = sent.filter { $0.dropFirst(16).hasPrefix("d604") }
        let cardFrames = inCommRF.filter { !$0.contains("0600ffff0100") }
        XCTAssertLessThanOrEqual(cardFrames.count, exchanges.count, "one InCommRF a card exchange (FF CA is answered from the Polling)")
        XCTAssertLessThanOrEqual(sent.count - cardFrames.count, 8, "USB commands besides the card's exchanges, set-up included: \(sent)")
    }

    func testNoCardIsSaidAndAWaitPollsAtAModestRate() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let usb = dir.appendingPathComponent("usb.log").path
        let started = Date()
        let run = try emulated(["--no-card"], ["scan", "--no-save", "--wait", "2"], usbLog: usb)
        let took = Date().timeIntervalSince(started)
        XCTAssertEqual(run.status, 3, run.stderr)
        XCTAssertTrue(run.stderr.contains("no card on \(Self.readerName) (the RC-S380 reads FeliCa cards only"), run.stderr)
        XCTAssertLessThan(took, 10)
        let pollings = commands(usb).filter { $0.contains("0600ffff0100") }.count
        XCTAssertGreaterThanOrEqual(pollings, 4, "it kept looking for 2 s")
        XCTAssertLessThanOrEqual(pollings, 24, "about four looks a second, a Polling at each bit rate: \(pollings)")
    }

    func testACardTakenAwayMidReadIsSessionLost() throws {
        // transit-sim pulls the card after answering 2 frames (the Polling and Request System Code).
        let run = try emulated(["--card", BuildProducts.sample("suica.json"), "--sim-args", "--remove-after", "2"], ["scan", "--json", "--no-save"])
        XCTAssertEqual(run.status, 6, run.stdout + run.stderr)
        XCTAssertEqual((run.json?["error"] as? [String: Any])?["kind"] as? String, "sessionLost", run.stdout)
    }

    func testAReaderThatStopsAnsweringEndsTheReadByItsDeadline() throws {
        let started = Date()
        // 8 OUT transfers get through: the reset, the open, the sense, Request System Code; the read does not.
        let run = try emulated(["--card", BuildProducts.sample("suica.json"), "--silent-after", "8"],
                               ["scan", "--json", "--no-save", "--exchange-timeout", "1", "--read-timeout", "3"])
        XCTAssertEqual(run.status, 5, run.stdout + run.stderr)
        XCTAssertEqual((run.json?["error"] as? [String: Any])?["kind"] as? String, "communication", run.stdout)
        XCTAssertLessThan(Date().timeIntervalSince(started), 4.5, "within the read's deadline of 3 s (and the emulator's start): the silent reader's field is not switched off by a command that would wait too")
    }

    func testAReaderUnpluggedMidReadEndsTheRead() throws {
        let run = try emulated(["--card", BuildProducts.sample("suica.json"), "--unplug-after", "8"], ["scan", "--json", "--no-save"])
        XCTAssertTrue([5, 6].contains(run.status), "sessionLost or communication: \(run.status) \(run.stdout) \(run.stderr)")
        let kind = (run.json?["error"] as? [String: Any])?["kind"] as? String
        XCTAssertTrue(kind == "sessionLost" || kind == "communication", run.stdout)
    }

    func testANodeTheUserCannotOpenNamesTheReaderAndTheUdevRule() throws {
        let run = try emulated(["--card", BuildProducts.sample("suica.json"), "--node-mode", "0600", "--as-nobody"], ["scan", "--json", "--no-save"])
        XCTAssertEqual(run.status, 5, run.stdout + run.stderr)
        let error = run.json?["error"] as? [String: Any]
        XCTAssertEqual(error?["kind"] as? String, "communication", "never noReader: \(run.stdout)")
        let message = error?["message"] as? String ?? ""
        for words in [Self.readerName, "/dev/bus/usb/001/013", "60-transit-rcs380.rules", "group transit"] {
            XCTAssertTrue(message.contains(words), "\(message) lacks \(words)")
        }
        let doctor = try emulated(["--node-mode", "0600", "--as-nobody"], ["doctor", "--json"])
        let checks = (try? JSONSerialization.jsonObject(with: Data(doctor.stdout.utf8))) as? [[String: Any]] ?? []
        let reader = checks.first { ($0["check"] as? String) == "reader \(Self.readerName)" }
        XCTAssertEqual(reader?["ok"] as? Bool, false, doctor.stdout)
        XCTAssertEqual(checks.first { ($0["check"] as? String) == "pcscd" }?["ok"] as? Bool, true, "the RC-S380 needs no pcscd")
    }

    func testTheKernelsPort100DriverIsDetachedForTheReadAndGivenBack() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let usb = dir.appendingPathComponent("usb.log").path
        let run = try emulated(["--card", BuildProducts.sample("suica.json"), "--kernel-driver", "port100"], ["scan", "--json", "--no-save", "--verbose"],
                               usbLog: usb)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.json?["balance"] as? Int, 2010)
        XCTAssertTrue(run.stderr.contains("detached the kernel's port100 driver from \(Self.readerName)"), run.stderr)
        let events = ((try? String(contentsOfFile: usb, encoding: .utf8)) ?? "").split(separator: "\n").filter { $0.hasPrefix("#") }
        let unbound = events.firstIndex { $0.contains("port100 unbound") }, bound = events.lastIndex { $0.contains("port100 bound") }
        XCTAssertNotNil(unbound, "detached before the claim")
        XCTAssertNotNil(bound, "given back at the end")
        if let unbound, let bound { XCTAssertLessThan(unbound, bound) }
        let doctor = try emulated(["--kernel-driver", "port100"], ["doctor"])
        XCTAssertTrue(doctor.stdout.contains("the kernel's port100 driver holds it"), doctor.stdout)
    }

    func testCtrlCEndsAWaitAtOnceAndGivesTheDriverBack() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let usb = dir.appendingPathComponent("usb.log").path
        let started = Date()
        let run = try emulated(["--no-card", "--kernel-driver", "port100"], [], usbLog: usb,
                               command: ["/usr/bin/timeout", "--preserve-status", "--signal=INT", "1", BuildProducts.transit, "scan", "--no-save", "--wait", "30"])
        XCTAssertEqual(run.status, 130, "cancelled: \(run.stderr)")
        XCTAssertLessThan(Date().timeIntervalSince(started), 6, "at once, not at the end of --wait")
        let events = ((try? String(contentsOfFile: usb, encoding: .utf8)) ?? "").split(separator: "\n").filter { $0.hasPrefix("#") }
        XCTAssertNotNil(events.firstIndex { $0.contains("port100 unbound") }, events.joined(separator: "\n"))
        XCTAssertNotNil(events.lastIndex { $0.contains("port100 bound") }, "the driver given back on Ctrl-C: \(events.joined(separator: "\n"))")
    }

    /// The events of the emulator's log (`# …` lines).
    private func events(_ usbLog: String) -> [String] {
        ((try? String(contentsOfFile: usbLog, encoding: .utf8)) ?? "").split(separator: "\n").filter { $0.hasPrefix("#") }.map(String.init)
    }

    /// The emulator's log says port100 was unbound, then bound again (given back `when`).
    private func assertDetachedAndGivenBack(_ usbLog: String, _ when: String, file: StaticString = #filePath, line: UInt = #line) {
        let events = events(usbLog)
        let unbound = events.firstIndex { $0.contains("port100 unbound") }, bound = events.lastIndex { $0.contains("port100 bound") }
        XCTAssertNotNil(unbound, events.joined(separator: "\n"), file: file, line: line)
        XCTAssertNotNil(bound, "the driver given back \(when): \(events.joined(separator: "\n"))", file: file, line: line)
        if let unbound, let bound { XCTAssertLessThan(unbound, bound, file: file, line: line) }
    }

    /// Every signal that ends transit gives the driver back: the terminal closed (HUP), Ctrl-\ (QUIT).
    func testSIGHUPAndSIGQUITEndAWaitAndGiveTheDriverBack() throws {
        for signal in ["HUP", "QUIT"] {
            let dir = temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: dir) }
            let usb = dir.appendingPathComponent("usb.log").path
            let started = Date()
            let run = try emulated(["--no-card", "--kernel-driver", "port100"], [], usbLog: usb,
                                   command: ["/usr/bin/timeout", "--preserve-status", "--signal=\(signal)", "1", BuildProducts.transit, "scan", "--no-save", "--wait", "30"])
            XCTAssertEqual(run.status, 130, "SIG\(signal) cancels: \(run.stderr)")
            XCTAssertLessThan(Date().timeIntervalSince(started), 6, "at once, not at the end of --wait")
            assertDetachedAndGivenBack(usb, "on SIG\(signal)")
        }
    }

    /// A closed stdout (the reader of `watch --json | …` gone; SIGPIPE is ignored, so the write
    /// fails) ends the watch with the driver given back too.
    func testAClosedPipeEndsAWatchAndGivesTheDriverBack() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let usb = dir.appendingPathComponent("usb.log").path, err = dir.appendingPathComponent("stderr").path
        let run = try emulated(["--card", BuildProducts.sample("suica.json"), "--kernel-driver", "port100"], [], usbLog: usb,
                               command: ["/bin/sh", "-c", "\"$0\" watch --json --no-save 2> \"$1\" | true", BuildProducts.transit, err],
                               timeout: 30)
        XCTAssertEqual(run.status, 0, run.stderr)
        let said = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
        XCTAssertTrue(said.contains("cannot write the output"), said)
        assertDetachedAndGivenBack(usb, "when stdout closed")
    }

    /// A SIGTERM while the detach is under way (a slow claim): the reader is known for give-back
    /// before its driver is detached, so the driver comes back.
    func testASIGTERMDuringASlowDetachGivesTheDriverBack() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let usb = dir.appendingPathComponent("usb.log").path
        // The signal as soon as the emulator has unbound the driver, while the detach has 3 s still to return.
        let script = "\"$0\" scan --no-save --wait 30 & p=$!; n=0; until grep -q 'port100 unbound' \"$1\" || [ $n -ge 200 ]; do sleep 0.05; n=$((n+1)); done; "
            + "sleep 0.2; kill -TERM $p; wait $p"
        let run = try emulated(["--no-card", "--kernel-driver", "port100", "--detach-delay-ms", "3000"], [], usbLog: usb,
                               command: ["/bin/sh", "-c", script, BuildProducts.transit, usb])
        XCTAssertEqual(run.status, 130, run.stderr)
        assertDetachedAndGivenBack(usb, "after a SIGTERM inside the detach")
    }

    /// A device with the RC-S380's ids that another kernel driver holds (a gadget taken by usbhid or
    /// usb-storage) is not detached: the error says who holds it.
    func testAnotherKernelDriverIsNotDetachedAndIsNamed() throws {
        for driver in ["usbhid", "usb-storage"] {
            let dir = temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: dir) }
            let usb = dir.appendingPathComponent("usb.log").path
            let run = try emulated(["--card", BuildProducts.sample("suica.json"), "--kernel-driver", driver], ["scan", "--json", "--no-save"], usbLog: usb)
            XCTAssertEqual(run.status, 5, run.stdout + run.stderr)
            let error = run.json?["error"] as? [String: Any]
            XCTAssertEqual(error?["kind"] as? String, "communication", run.stdout)
            let message = error?["message"] as? String ?? ""
            XCTAssertTrue(message.contains("the kernel's \(driver) driver holds it") && message.contains("only port100"), message)
            XCTAssertFalse(events(usb).contains { $0.contains("unbound") }, "\(driver) left bound: \(events(usb).joined(separator: "\n"))")
        }
    }

    /// A reader that fails every open with other garbage is said once in `watch`, not at every look.
    func testAReaderFailingEveryOpenWithNewGarbageIsSaidOnceInWatch() throws {
        let run = try emulated(["--garbage-answers"], [],
                               command: ["/usr/bin/timeout", "--preserve-status", "--signal=INT", "3", BuildProducts.transit, "watch", "--no-save"])
        let said = run.stderr.split(separator: "\n").filter { $0.contains("not a Port-100 frame") }
        XCTAssertEqual(said.count, 1, "once, though each look quotes other bytes:\n\(run.stderr)")
    }

    /// `doctor` opens the reader alone and checks what a read needs: bulk IN and OUT endpoints.
    func testDoctorSaysADeviceWithoutBulkEndpointsIsNoReader() throws {
        let doctor = try emulated(["--interrupt-endpoints"], ["doctor", "--json"])
        let checks = (try? JSONSerialization.jsonObject(with: Data(doctor.stdout.utf8))) as? [[String: Any]] ?? []
        let reader = checks.first { ($0["check"] as? String) == "reader \(Self.readerName)" }
        XCTAssertEqual(reader?["ok"] as? Bool, false, doctor.stdout)
        XCTAssertTrue((reader?["detail"] as? String ?? "").contains("no interface with bulk IN and OUT endpoints"), doctor.stdout)
        XCTAssertTrue((reader?["fix"] as? String ?? "").contains("no bulk endpoints"), doctor.stdout)
    }

    func testTheReadersListNamesTheRCS380AndItsCard() throws {
        let run = try emulated(["--card", BuildProducts.sample("suica.json")], ["readers", "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let rows = (try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8))) as? [[String: Any]] ?? []
        XCTAssertEqual(rows.count, 1, run.stdout)
        XCTAssertEqual(rows.first?["name"] as? String, Self.readerName)
        XCTAssertEqual(rows.first?["transport"] as? String, "usb")
        XCTAssertEqual(rows.first?["card"] as? Bool, true)
        XCTAssertEqual(rows.first?["technology"] as? String, "felica")
        let byName = try emulated(["--card", BuildProducts.sample("suica.json")], ["scan", "--json", "--no-save", "--reader", "rc-s380"])
        XCTAssertEqual(byName.json?["balance"] as? Int, 2010, byName.stderr)
        let other = try emulated(["--card", BuildProducts.sample("suica.json")], ["scan", "--json", "--no-save", "--reader", "ACR122"])
        XCTAssertEqual(other.status, 3, "--reader names another reader: \(other.stderr)")
    }

    func testALoggedReadReplaysToTheSameResultWithoutTheReader() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bundle = dir.appendingPathComponent("read.json").path
        let live = try emulated(["--card", BuildProducts.sample("nanaco.json")], ["scan", "--json", "--no-save", "--log", bundle])
        XCTAssertEqual(live.status, 0, live.stderr)
        let replayed = try CommandRun.transit(["replay", bundle, "--json"])
        XCTAssertEqual(replayed.status, 0, replayed.stderr)
        XCTAssertEqual(replayed.json as NSDictionary?, live.json as NSDictionary?)
    }
}

/// The RC-S380 beside a PC/SC reader (vpcd on a pcscd of this class's own).
final class RCS380BesidePCSCEndToEndTests: RCS380TestCase {
    /// The emulated reader's command runs inside this class's namespaces (its pcscd); the
    /// emulator's preload and testbed come with it.
    func inside(_ arguments: [String]) -> [String] {
        ["/usr/bin/nsenter", "--target", String(Self.harness.anchorProcess), "--mount", "--net",
         "--wd=\(BuildProducts.packageRoot.path)", "--", BuildProducts.transit] + arguments
    }

    func testBothReadersAreListedAndWatchSeesATapOnEach() throws {
        try Self.harness.insert(card: BuildProducts.sample("ezlink.json"))
        Self.harness.waitForCard(port: Self.readers[0].port)
        let readers = try emulated(["--card", BuildProducts.sample("suica.json")], [], command: inside(["readers", "--json"]))
        let names = ((try? JSONSerialization.jsonObject(with: Data(readers.stdout.utf8))) as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        XCTAssertTrue(names.contains(Self.readerName), readers.stdout + readers.stderr)
        XCTAssertTrue(names.contains(VirtualReaderHarness.readerName), readers.stdout)

        // A watch for 4 s: the EZ-Link on vpcd and the Suica on the RC-S380, one line each.
        let watch = try emulated(["--card", BuildProducts.sample("suica.json")], [],
                                 command: ["/usr/bin/timeout", "--signal=INT", "4"] + inside(["watch", "--json", "--no-save"]), timeout: 8)
        let lines = watch.stdout.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        let taps = Dictionary(lines.map { ($0["reader"] as? String ?? "", ($0["card"] as? [String: Any])?["family"] as? String ?? "") },
                              uniquingKeysWith: { first, _ in first })
        XCTAssertEqual(taps[Self.readerName], "japan-ic", watch.stdout + watch.stderr)
        XCTAssertEqual(taps[VirtualReaderHarness.readerName], "cepas", watch.stdout)
        XCTAssertEqual(lines.count, 2, "each card read once while it stays: \(watch.stdout)")
    }
}

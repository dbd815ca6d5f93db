import Foundation
import TestSupport
import XCTest

/// Sony's RC-S330/360/370 (the RC-S956 chip, 054c:02e1) over USB, with no hardware: the built
/// `transit` under umockdev's preload, through the real libusb-1.0, talks PN53x to an emulated
/// RC-S956 (Tests/Fixtures/rcs956/rcs956_emulator.py, written from docs/research/rcs956-facts.md
/// and checked against nfcpy's vectors by rcs956_vectors.py) hosting the card images through
/// `transit-sim`. Skipped where umockdev or python3-gi is missing, except in CI.
final class RCS956EndToEndTests: RCS380TestCase {
    static let emulator956 = BuildProducts.packageRoot.appendingPathComponent("Tests/Fixtures/rcs956/rcs956_emulator.py").path
    static let vectors = BuildProducts.packageRoot.appendingPathComponent("Tests/Fixtures/rcs956/rcs956_vectors.py").path
    static let name956 = "SONY RC-S330/360/370 (USB 1:13)"

    override class func setUp() {}
    override class func tearDown() {}
    override func tearDown() {}

    /// `arguments` to the built `transit` (or `command`) under the emulated RC-S956.
    func emulated956(_ options: [String], _ arguments: [String], usbLog: String? = nil, command: [String]? = nil,
                     timeout: Double = 60) throws -> CommandRun {
        try Self.underEmulator(Self.emulator956, options, arguments, usbLog: usbLog, command: command, timeout: timeout)
    }

    /// The emulator's options that put the Suica's image on the reader.
    static let suica = ["--card", BuildProducts.sample("suica.json")]

    /// Where the emulator's USB log and a read's log bundle go: a folder of the test's own,
    /// removed as the test ends.
    private func logs() -> (usb: String, bundle: String) {
        let dir = temporaryDirectory()
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return (dir.appendingPathComponent("usb.log").path, dir.appendingPathComponent("read.json").path)
    }

    /// The PN53x commands sent, by code (`D4 <code>` after `00 00 FF LEN LCS`; rcs956-facts.md §2).
    private func codes(_ usbLog: String) -> [String] {
        commands(usbLog).map { String($0.dropFirst(10).prefix(4)) }
    }

    func testTheEmulatorAnswersNfcpysVectors() throws {
        let run = try CommandRun.run("/usr/bin/python3", [Self.vectors], currentDirectory: BuildProducts.packageRoot, timeout: 60)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
    }

    /// Issue 46: a Suica on an emulated RC-S370 reads with the values of its image (as on the
    /// RC-S380 and through PC/SC), in ten USB commands: open 3, the field and one
    /// InListPassiveTarget, one InCommunicateThru for each of the card's four frames, the field off.
    func testASuicaReadsOnAnRCS370AsOnTheRCS380InTenUSBCommands() throws {
        let (usb, bundle) = logs()
        let reference = try CommandRun.transit(["scan", "--card", BuildProducts.sample("suica.json"), "--json", "--no-save"])
        let rcs380 = try emulated(Self.suica, ["scan", "--json", "--no-save"])
        let run = try emulated956(["--model", "RC-S370", "--card", BuildProducts.sample("suica.json")],
                                  ["scan", "--json", "--no-save", "--log", bundle], usbLog: usb)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.json?["balance"] as? Int, 2010)
        XCTAssertEqual(run.json?["serialNumber"] as? String, "012E4CD8A1B2C3D4")
        XCTAssertEqual(run.json as NSDictionary?, reference.json as NSDictionary?, "the card image's reading")
        XCTAssertEqual(run.json as NSDictionary?, rcs380.json as NSDictionary?, "the RC-S380's reading")
        let log = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: bundle))) as? [String: Any]
        XCTAssertEqual(log?["reader"] as? String, Self.name956)
        XCTAssertEqual(log?["dialect"] as? String, "bare-frame")
        let sent = codes(usb)
        // D4 42 InCommunicateThru, D4 4A InListPassiveTarget, D4 32 RFConfiguration, D4 02 GetFirmwareVersion.
        XCTAssertEqual(sent.filter { $0 == "d442" }.count, 4, "one InCommunicateThru a card frame: \(sent)")
        XCTAssertEqual(sent.filter { $0 == "d44a" }.count, 1, "\(sent)")
        XCTAssertFalse(sent.contains("d406") || sent.contains("d408"), "no register round trip: \(sent)")
        XCTAssertEqual(sent.count, 10, "\(sent)")
    }

    /// The Suica's reading from its image (`transit scan --card`): what a read on the reader must give.
    private func suicaReference() throws -> [String: Any] {
        try XCTUnwrap(try CommandRun.transit(["scan", "--card", BuildProducts.sample("suica.json"), "--json", "--no-save"]).json)
    }

    /// A log bundle's JSON.
    private func bundle(_ path: String) -> [String: Any]? {
        (try? Data(contentsOf: URL(fileURLWithPath: path))).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    }

    /// The events of the emulator's log (`# …` lines).
    private func events(_ usbLog: String) -> [String] {
        ((try? String(contentsOfFile: usbLog, encoding: .utf8)) ?? "").split(separator: "\n").filter { $0.hasPrefix("#") }.map(String.init)
    }

    /// The emulator's log says pn533_usb was unbound, then bound again: given back `when`.
    private func assertPn533GivenBack(_ usbLog: String, _ when: String, file: StaticString = #filePath, line: UInt = #line) {
        let events = events(usbLog)
        let unbound = events.firstIndex { $0.contains("pn533_usb unbound") }, bound = events.lastIndex { $0.contains("pn533_usb bound") }
        XCTAssertNotNil(unbound, "\(when): detached: \(events.joined(separator: "\n"))", file: file, line: line)
        XCTAssertNotNil(bound, "\(when): given back: \(events.joined(separator: "\n"))", file: file, line: line)
        if let unbound, let bound { XCTAssertLessThan(unbound, bound, when, file: file, line: line) }
    }

    // MARK: damaged, lost and unanswered answers (issue 46 §3)

    func testCRCErrorsOnTwoAnswersInARowAndTheSuicaIsReadRight() throws {
        let (usb, log) = logs()
        // The card's answers to InCommunicateThru: 1 Request System Code, 2 the first read, damaged (status 02) twice.
        let run = try emulated956(Self.suica + ["--damage", "2,3"], ["scan", "--json", "--no-save", "--verbose", "--log", log],
                                  usbLog: usb)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.json?["balance"] as? Int, 2010)
        XCTAssertEqual(run.json?["transactions"] as? NSArray, try suicaReference()["transactions"] as? NSArray, "the whole history")
        XCTAssertEqual(run.stderr.split(separator: "\n").filter { $0.contains("came back damaged (CRC error)") }.count, 2, run.stderr)
        XCTAssertEqual(bundle(log)?["retries"] as? Int, 2, "counted in the log bundle")
        XCTAssertEqual(codes(usb).filter { $0 == "d442" }.count, 6, "the four frames and the read twice more")
    }

    func testALostAnswerIsSentAgainAndTheSuicaIsReadRight() throws {
        let (usb, log) = logs()
        // The first read's answer lost on the air: status 01 once the chip's timeout ran out.
        let run = try emulated956(Self.suica + ["--lose", "2"], ["scan", "--json", "--no-save", "--verbose", "--log", log],
                                  usbLog: usb)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(events(usb).contains { $0.contains("lost: InCommunicateThru 2") }, "the fault was injected")
        let reference = try suicaReference()
        XCTAssertEqual(run.json?["balance"] as? Int, 2010)
        XCTAssertEqual(run.json?["serialNumber"] as? String, reference["serialNumber"] as? String)
        XCTAssertEqual(run.json?["transactions"] as? NSArray, reference["transactions"] as? NSArray, "the whole history")
        XCTAssertTrue(run.stderr.contains("the card did not answer command 06 though it is still there; sending it again (try 2 of 2)"), run.stderr)
        XCTAssertEqual(bundle(log)?["retries"] as? Int, 1)
        let sent = codes(usb)
        XCTAssertEqual(sent.filter { $0 == "d442" }.count, 5, "the read once more: \(sent)")
        XCTAssertEqual(sent.filter { $0 == "d44a" }.count, 2, "the sense, and the Polling that found the card still there: \(sent)")
    }

    func testAnInCommunicateThruTheChipNeverAnswersIsCancelledAndSentAgain() throws {
        let usb = logs().usb
        let run = try emulated956(Self.suica + ["--unanswered", "2"], ["scan", "--json", "--no-save"], usbLog: usb)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.json?["balance"] as? Int, 2010)
        XCTAssertEqual(run.json?["transactions"] as? NSArray, try suicaReference()["transactions"] as? NSArray)
        // OUT transfers: the second InCommunicateThru (the first read), then the ACK that cancels it.
        let outs = ((try? String(contentsOfFile: usb, encoding: .utf8)) ?? "").split(separator: "\n").filter { $0.hasPrefix("OUT ") }.map { String($0.dropFirst(4)) }
        let reads = outs.indices.filter { outs[$0].dropFirst(10).hasPrefix("d442") }
        XCTAssertGreaterThanOrEqual(reads.count, 5, "\(outs)")
        if reads.count >= 2, reads[1] + 1 < outs.count { XCTAssertEqual(outs[reads[1] + 1], "0000ff00ff00", "cancelled with an ACK: \(outs)") }
    }

    func testAnswersThatStayDamagedEndTheReadAsCommunicationInTime() throws {
        let usb = logs().usb
        let started = Date()
        let run = try emulated956(Self.suica + ["--damage", "1-"], ["scan", "--json", "--no-save", "--read-timeout", "3"],
                                  usbLog: usb)
        XCTAssertLessThan(Date().timeIntervalSince(started), 4.5, "within the read's deadline of 3 s (and the emulator's start)")
        XCTAssertEqual(run.status, 5, run.stdout + run.stderr)
        let error = run.json?["error"] as? [String: Any]
        XCTAssertEqual(error?["kind"] as? String, "communication", "never sessionLost: the card never left: \(run.stdout)")
        XCTAssertTrue((error?["message"] as? String ?? "").contains("CRC error"), run.stdout)
        XCTAssertNil(run.json?["balance"], "no partial result")
        XCTAssertEqual(codes(usb).filter { $0 == "d442" }.count, 3, "the damaged command tried three times in all, then no more")
    }

    func testACardWhoseAnswersAreAllLostEndsAsCommunicationInTime() throws {
        // Request System Code answered (the card's systems known), every later answer lost.
        let started = Date()
        let run = try emulated956(Self.suica + ["--lose", "2-"], ["scan", "--json", "--no-save", "--read-timeout", "3"])
        XCTAssertLessThan(Date().timeIntervalSince(started), 4.5, "within the read's deadline of 3 s (and the emulator's start)")
        XCTAssertEqual(run.status, 5, run.stdout + run.stderr)
        XCTAssertEqual((run.json?["error"] as? [String: Any])?["kind"] as? String, "communication",
                       "the card answers every Polling: never sessionLost: \(run.stdout)")
        XCTAssertNil(run.json?["balance"], "no partial result")
    }

    /// A card silent to every frame but the sense's Polling looks like a card of no family that
    /// takes no Request System Code (exit 4); never like a reader that passes no FeliCa frame:
    /// transit's own driver handed every frame to the card (`ReaderProfile.ownDriver`).
    func testACardSilentToEveryFrameIsNeverBlamedOnTheReader() throws {
        let run = try emulated956(Self.suica + ["--lose", "1-"], ["scan", "--json", "--no-save"])
        let error = run.json?["error"] as? [String: Any]
        XCTAssertNotEqual(error?["kind"] as? String, "readerUnsupported", run.stdout)
        XCTAssertFalse((error?["message"] as? String ?? "").contains("passes no FeliCa commands"), run.stdout)
        XCTAssertEqual(run.status, 4, "no family's system answered: \(run.stdout) \(run.stderr)")
    }

    // MARK: InListPassiveTarget's faults

    func testADamagedPollingAnswerIsPolledAgainByTheChipItself() throws {
        let usb = logs().usb
        let run = try emulated956(Self.suica + ["--list-fault", "1"], ["scan", "--json", "--no-save"], usbLog: usb)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.json?["balance"] as? Int, 2010)
        XCTAssertTrue(events(usb).contains { $0.contains("damaged on try 1") }, "the fault was injected")
        XCTAssertEqual(codes(usb).count, 10, "the chip's second try (RFConfiguration 05, as nfcpy sets it) costs no USB command")
    }

    func testAPollTheChipRefusesOrLeavesUnansweredIsSentOnceMore() throws {
        for kind in ["silent", "error"] {
            let usb = logs().usb
            let run = try emulated956(Self.suica + ["--list-fault", "1", "--list-fault-kind", kind],
                                      ["scan", "--json", "--no-save", "--verbose"], usbLog: usb)
            XCTAssertEqual(run.status, 0, "\(kind): \(run.stderr)")
            XCTAssertEqual(run.json?["balance"] as? Int, 2010, kind)
            XCTAssertTrue(run.stderr.contains("InListPassiveTarget") && run.stderr.contains("polling once more"), "\(kind): \(run.stderr)")
            XCTAssertEqual(codes(usb).filter { $0 == "d44a" }.count, 2, "\(kind): \(codes(usb))")
        }
    }

    func testAPresenceCheckWhosePollingAnswerCameBackDamagedIsNoRemoval() throws {
        // The first read's answer lost, then the presence check's Polling answer damaged on the chip's first try.
        let run = try emulated956(Self.suica + ["--lose", "2", "--list-fault", "2"], ["scan", "--json", "--no-save"])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertEqual(run.json?["balance"] as? Int, 2010)
    }

    func testAReaderThatNeverAnswersAPollEndsAsCommunicationAndIsGivenBack() throws {
        let usb = logs().usb
        let started = Date()
        let run = try emulated956(Self.suica + ["--list-fault", "1-", "--list-fault-kind", "silent", "--kernel-driver", "pn533_usb"],
                                  ["scan", "--json", "--no-save"], usbLog: usb)
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "two polls, each cancelled by its deadline")
        XCTAssertEqual(run.status, 5, run.stdout + run.stderr)
        let error = run.json?["error"] as? [String: Any]
        XCTAssertEqual(error?["kind"] as? String, "communication", run.stdout)
        XCTAssertTrue((error?["message"] as? String ?? "").contains("\(Self.name956) stopped answering"), run.stdout)
        assertPn533GivenBack(usb, "after a reader that stopped answering")
    }

    // MARK: the card or the reader gone

    func testACardTakenAwayMidReadIsSessionLost() throws {
        // transit-sim pulls the card after 3 frames: the sense's Polling, Request System Code, the first read.
        let run = try emulated956(Self.suica + ["--sim-args", "--remove-after", "3"], ["scan", "--json", "--no-save"])
        XCTAssertEqual(run.status, 6, run.stdout + run.stderr)
        let error = run.json?["error"] as? [String: Any]
        XCTAssertEqual(error?["kind"] as? String, "sessionLost", run.stdout)
        XCTAssertEqual(error?["message"] as? String, "the card was removed during the read", run.stdout)
        XCTAssertNil(run.json?["balance"], "no partial result")
    }

    func testAReaderUnpluggedMidReadEndsAsSessionLostNamingIt() throws {
        let usb = logs().usb
        let started = Date()
        // OUT transfers: the ACK, three to open, the field, the sense, Request System Code, the first read: unplugged there.
        let run = try emulated956(Self.suica + ["--kernel-driver", "pn533_usb", "--unplug-after", "8"],
                                  ["scan", "--json", "--no-save"], usbLog: usb)
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
        XCTAssertTrue(events(usb).contains { $0.contains("device unplugged") }, "the fault was injected")
        XCTAssertEqual(run.status, 6, run.stdout + run.stderr)
        let error = run.json?["error"] as? [String: Any]
        XCTAssertEqual(error?["kind"] as? String, "sessionLost", run.stdout)
        XCTAssertEqual(error?["message"] as? String, "\(Self.name956) was unplugged during the read", run.stdout)
        XCTAssertNil(run.json?["balance"], "no partial result")
    }

    // MARK: pn533_usb given back

    /// Every way a command ends gives the kernel's pn533_usb back: a read, each error, Ctrl-C in
    /// the middle of a read (each card frame 60 ms late, SIGINT once the first InCommunicateThru
    /// is out), SIGTERM while it waits for a card.
    func testPn533USBIsGivenBackOnEveryExit() throws {
        let suica = Self.suica
        let scan = ["scan", "--json", "--no-save"]
        let sigint = "\"$0\" scan --no-save --json & p=$!; n=0; until grep -q '^OUT 0000ff....d442' \"$1\" || [ $n -ge 500 ]; do sleep 0.01; n=$((n+1)); done; "
            + "kill -INT $p; wait $p"
        let cases: [(name: String, options: [String], arguments: [String], command: ((String) -> [String])?, status: Int32)] = [
            ("a read", suica, scan, nil, 0),
            ("communication", suica + ["--damage", "1-"], scan, nil, 5),
            ("the card removed", suica + ["--sim-args", "--remove-after", "3"], scan, nil, 6),
            ("no card", [], scan, nil, 3),
            ("Ctrl-C during the read", suica + ["--sim-args", "--latency-ms", "60"], [], { ["/bin/sh", "-c", sigint, BuildProducts.transit, $0] }, 130),
            ("SIGTERM during --wait", [], [], { _ in ["/usr/bin/timeout", "--preserve-status", "--signal=TERM", "1", BuildProducts.transit, "scan", "--no-save", "--wait", "30"] }, 130),
        ]
        for c in cases {
            let usb = logs().usb
            // --sim-args takes the rest of the emulator's options: --kernel-driver goes first.
            let run = try emulated956(["--kernel-driver", "pn533_usb"] + c.options, c.arguments, usbLog: usb, command: c.command?(usb))
            XCTAssertEqual(run.status, c.status, "\(c.name): \(run.stdout) \(run.stderr)")
            if c.name.hasPrefix("Ctrl-C") {
                XCTAssertFalse(events(usb).contains { $0.contains("card: power off") }, "cut short, not a read to its end: \(events(usb))")
            }
            assertPn533GivenBack(usb, c.name)
        }
    }

    func testPn533USBIsDetachedForTheReadAndGivenBack() throws {
        let usb = logs().usb
        let run = try emulated956(Self.suica + ["--kernel-driver", "pn533_usb"],
                                  ["scan", "--json", "--no-save", "--verbose"], usbLog: usb)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("detached the kernel's pn533_usb driver from \(Self.name956)"), run.stderr)
        let events = ((try? String(contentsOfFile: usb, encoding: .utf8)) ?? "").split(separator: "\n").filter { $0.hasPrefix("#") }
        let unbound = events.firstIndex { $0.contains("pn533_usb unbound") }, bound = events.lastIndex { $0.contains("pn533_usb bound") }
        XCTAssertNotNil(unbound)
        XCTAssertNotNil(bound, "given back at the end")
        if let unbound, let bound { XCTAssertLessThan(unbound, bound) }
    }

    func testWithoutAccessTheMessageNamesTheReaderPn533AndTheRule() throws {
        try skipUnlessNobodyReachesTheBuild()
        let run = try emulated956(Self.suica + ["--node-mode", "0600", "--as-nobody"], ["scan", "--json", "--no-save"])
        XCTAssertEqual(run.status, 5, run.stdout + run.stderr)
        let message = (run.json?["error"] as? [String: Any])?["message"] as? String ?? ""
        for words in [Self.name956, "/dev/bus/usb/001/013", "60-transit-pasori.rules", "group transit", "pn533_usb"] {
            XCTAssertTrue(message.contains(words), "\(message) lacks \(words)")
        }
        let doctor = try emulated956(["--node-mode", "0600", "--as-nobody"], ["doctor", "--json"])
        let checks = (try? JSONSerialization.jsonObject(with: Data(doctor.stdout.utf8))) as? [[String: Any]] ?? []
        let reader = checks.first { ($0["check"] as? String) == "reader \(Self.name956)" }
        XCTAssertEqual(reader?["ok"] as? Bool, false, doctor.stdout)
        XCTAssertTrue((reader?["fix"] as? String ?? "").contains("pn533_usb"), doctor.stdout)
    }

    func testReadersListsItWithItsCardAndDoctorCanOpenIt() throws {
        let readers = try emulated956(Self.suica, ["readers"])
        XCTAssertEqual(readers.status, 0, readers.stderr)
        XCTAssertTrue(readers.stdout.contains(Self.name956), readers.stdout)
        let doctor = try emulated956(["--kernel-driver", "pn533_usb"], ["doctor", "--json"])
        let checks = (try? JSONSerialization.jsonObject(with: Data(doctor.stdout.utf8))) as? [[String: Any]] ?? []
        let reader = checks.first { ($0["check"] as? String) == "reader \(Self.name956)" }
        XCTAssertEqual(reader?["ok"] as? Bool, true, doctor.stdout)
        XCTAssertTrue((reader?["detail"] as? String ?? "").contains("the kernel's pn533_usb driver holds it"), doctor.stdout)
    }

    func testAWatchReadsATapOnce() throws {
        let watch = try emulated956(Self.suica, [],
                                    command: ["/usr/bin/timeout", "--signal=INT", "3", BuildProducts.transit, "watch", "--json", "--no-save"], timeout: 8)
        let lines = watch.stdout.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        XCTAssertEqual(lines.count, 1, "one tap, read once: \(watch.stdout) \(watch.stderr)")
        XCTAssertEqual((lines.first?["card"] as? [String: Any])?["balance"] as? Int, 2010, watch.stdout)
    }
}

/// Issue 46 §5: every FeliCa family on the emulated RC-S370 with the values the same card gives
/// through PC/SC (vpcd on this class's own pcscd, as ReaderEndToEndTests reads it), field by field.
final class RCS956BesidePCSCEndToEndTests: RCS380TestCase {
    /// The sample cards, with the values ReaderEndToEndTests and TextOutputTests state for them.
    let cards: [(file: String, family: String, balance: Int, serial: String)] = [
        ("suica.json", "japan-ic", 2010, "012E4CD8A1B2C3D4"), ("edy.json", "edy", 1234, "1234567890123456"),
        ("waon.json", "waon", 239, "6900123456789012"), ("nanaco.json", "nanaco", 1500, "7100001234567890"),
        ("octopus.json", "octopus", 8500, "0116D0E1F2031425"),
    ]

    /// `arguments` to the built `transit` under the emulated RC-S370, outside this class's pcscd.
    private func onRCS370(_ options: [String], _ arguments: [String]) throws -> CommandRun {
        try Self.underEmulator(RCS956EndToEndTests.emulator956, ["--model", "RC-S370"] + options, arguments)
    }

    /// The two readings agree on every field a user reads: the card's, then each record's date,
    /// amount, type and balance, then the whole record and the whole reading.
    private func assertSameReading(_ usb: [String: Any]?, _ pcsc: [String: Any]?, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        for key in ["family", "cardName", "serialNumber", "balance", "currency", "validFrom"] {
            XCTAssertEqual(usb?[key] as? NSObject, pcsc?[key] as? NSObject, "\(what): \(key)", file: file, line: line)
        }
        XCTAssertEqual(usb?["metadata"] as? NSDictionary, pcsc?["metadata"] as? NSDictionary, "\(what): metadata", file: file, line: line)
        let mine = usb?["transactions"] as? [[String: Any]] ?? [], theirs = pcsc?["transactions"] as? [[String: Any]] ?? []
        XCTAssertEqual(mine.count, theirs.count, "\(what): records", file: file, line: line)
        for (i, (a, b)) in zip(mine, theirs).enumerated() {
            for key in ["date", "amount", "type", "balance"] {
                XCTAssertEqual(a[key] as? NSObject, b[key] as? NSObject, "\(what): record \(i + 1), \(key)", file: file, line: line)
            }
            XCTAssertEqual(a as NSDictionary, b as NSDictionary, "\(what): record \(i + 1)", file: file, line: line)
        }
        XCTAssertEqual(usb as NSDictionary?, pcsc as NSDictionary?, "\(what): the whole reading", file: file, line: line)
    }

    func testEveryFeliCaFamilyReadsOnAnRCS370WithThePCSCValuesFieldByField() throws {
        for card in cards {
            try Self.harness.insert(card: BuildProducts.sample(card.file), ["--dialect", "pn532"])
            let pcsc = try Self.harness.transit(["scan", "--json", "--no-save", "--reader", VirtualReaderHarness.readerName, "--wait", "5", "--dialect", "pn532"])
            XCTAssertEqual(pcsc.status, 0, "\(card.file) through PC/SC: \(pcsc.stderr)")
            XCTAssertEqual(pcsc.json?["family"] as? String, card.family, card.file)
            XCTAssertEqual(pcsc.json?["balance"] as? Int, card.balance, card.file)
            XCTAssertEqual(pcsc.json?["serialNumber"] as? String, card.serial, card.file)
            if card.family != "octopus" {
                XCTAssertFalse((pcsc.json?["transactions"] as? [Any] ?? []).isEmpty, "\(card.file): records to compare")
            }
            for rate in [[], ["--bitrate-424-only"]] {
                let usb = try onRCS370(["--card", BuildProducts.sample(card.file)] + rate, ["scan", "--json", "--no-save"])
                XCTAssertEqual(usb.status, 0, "\(card.file) \(rate): \(usb.stderr)")
                assertSameReading(usb.json, pcsc.json, "\(card.file) \(rate.first ?? "212 kbit/s")")
            }
        }
    }

    /// The values other tests state for these samples, read on the RC-S370: Edy's newest record
    /// (TextOutputTests: 2026-11-10 12:34:56, purchase, ¥330, balance ¥1,234), nanaco's 150 points,
    /// WAON's newest usage amount 100 (raw type 04).
    func testTheSamplesStatedValuesReadOnAnRCS370() throws {
        let edy = try onRCS370(["--card", BuildProducts.sample("edy.json")], ["scan", "--json", "--no-save"])
        let newest = (edy.json?["transactions"] as? [[String: Any]])?.first
        XCTAssertEqual(newest?["date"] as? String, "2026-11-10T12:34:56+09:00", edy.stdout)
        XCTAssertEqual(newest?["type"] as? String, "purchase")
        XCTAssertEqual(newest?["amount"] as? Int, 330)
        XCTAssertEqual(newest?["balance"] as? Int, 1234)
        let nanaco = try onRCS370(["--card", BuildProducts.sample("nanaco.json")], ["scan", "--json", "--no-save"])
        XCTAssertEqual((nanaco.json?["metadata"] as? [String: Any])?["points"] as? String, "150", nanaco.stdout)
        let waon = try onRCS370(["--card", BuildProducts.sample("waon.json")], ["scan", "--json", "--no-save"])
        let last = (waon.json?["transactions"] as? [[String: Any]])?.first
        XCTAssertEqual((last?["metadata"] as? [String: Any])?["usageAmount"] as? String, "100", waon.stdout)
        XCTAssertEqual(last?["rawType"] as? String, "04")
    }
}

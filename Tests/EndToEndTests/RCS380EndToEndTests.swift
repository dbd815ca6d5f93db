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
        try Prerequisite.require(present, "umockdev, gir1.2-umockdev-1.0 and python3-gi are needed for the RC-S380 tests; .ci/run installs them")
    }

    /// Skips a test whose `transit` runs as user nobody (`--as-nobody`) where nobody cannot reach
    /// the build tree: a clone in a folder of mode 0700 keeps nobody from the built `transit`, its
    /// plugin libraries and the repository's plugins.conf, and the run would fail for that alone.
    /// Checked as nobody (`runuser -u nobody -- test …`), so a 0755 folder runs the test.
    func skipUnlessNobodyReachesTheBuild() throws {
        let needs = [("-x", BuildProducts.transit), ("-x", BuildProducts.directory.path), ("-r", BuildProducts.directory.path),
                     ("-r", BuildProducts.packageRoot.appendingPathComponent("plugins.conf").path)]
        for (test, path) in needs {
            let check = try CommandRun.run("/usr/sbin/runuser", ["-u", "nobody", "--", "/usr/bin/test", test, path], timeout: 10)
            guard check.status == 0 else {
                throw XCTSkip("user nobody cannot \(test == "-x" ? "reach" : "read") \(path) (a folder above it is not open to others, "
                              + "e.g. a clone in a folder of mode 0700): the --as-nobody run needs it")
            }
        }
    }

    /// `command` (the built `transit` with `arguments` unless given) under the emulated RC-S380,
    /// with `options` for the emulator; `usbLog` gets one line per USB transfer. The emulator and
    /// the command see no pcscd of the machine's (`withoutTheMachinesPCSCD`): a desktop's pcscd
    /// with vpcd readers would add readers the test did not make.
    func emulated(_ options: [String], _ arguments: [String], usbLog: String? = nil, command: [String]? = nil,
                  timeout: Double = 60) throws -> CommandRun {
        try Self.underEmulator(Self.emulator, options, arguments, usbLog: usbLog, command: command, timeout: timeout)
    }

    /// `command` (the built `transit` with `arguments` unless given) under the USB chip emulator
    /// `script` (the RC-S380's, the RC-S956's), with `options` for it; `usbLog` gets one line per
    /// USB transfer; the emulator ends the command after `timeout` seconds, the test 10 s later.
    /// No pcscd of the machine's is seen (`withoutTheMachinesPCSCD`).
    static func underEmulator(_ script: String, _ options: [String], _ arguments: [String], usbLog: String? = nil, command: [String]? = nil,
                              timeout: Double = 60) throws -> CommandRun {
        let log = usbLog.map { ["--log", $0] } ?? []
        let run = withoutTheMachinesPCSCD(["/usr/bin/python3", script, "--card-sim", BuildProducts.simulator, "--timeout", String(Int(timeout))]
                                          + log + options + ["--"] + (command ?? [BuildProducts.transit]) + arguments)
        return try CommandRun.run(run.command[0], Array(run.command.dropFirst()), currentDirectory: BuildProducts.packageRoot,
                                  environment: run.environment, timeout: timeout + 10)
    }

    /// `command` in a mount namespace of its own with an empty tmpfs on /run/pcscd (as root, as
    /// `VirtualReaderHarness` does), so it finds no pcscd unless it enters one (`nsenter`); not
    /// as root, pcsc-lite is pointed at a socket that does not exist (PCSCLITE_CSOCK_NAME).
    static func withoutTheMachinesPCSCD(_ command: [String]) -> (command: [String], environment: [String: String]?) {
        guard getuid() == 0 else {
            var environment = ProcessInfo.processInfo.environment
            environment["PCSCLITE_CSOCK_NAME"] = FileManager.default.temporaryDirectory.appendingPathComponent("no-pcscd-\(getpid())/pcscd.comm").path
            return (command, environment)
        }
        let script = "mkdir -p /run/pcscd && mount -t tmpfs -o mode=0755 tmpfs /run/pcscd && exec \"$0\" \"$@\""
        return (["/usr/bin/unshare", "--mount", "--propagation", "private", "--", "/bin/sh", "-c", script] + command, nil)
    }

    /// The Port-100 commands the host sent: OUT transfers that are frames (the ACK is not a command).
    func commands(_ usbLog: String) -> [String] {
        ((try? String(contentsOfFile: usbLog, encoding: .utf8)) ?? "").split(separator: "\n")
            .filter { $0.hasPrefix("OUT ") && !$0.hasSuffix("0000ff00ff00") }.map { String($0.dropFirst(4)) }
    }
}

/// The RC-S380 alone: no pcscd (not even the machine's: `withoutTheMachinesPCSCD`), no `--reader`.
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

    /// A command's frame in the USB log (hex): after the start, LEN and LCS (16 digits) come
    /// `D6 <code>`; an InCommRF's timeout (4 digits) then the card's frame (docs/research/port100.md §"Frames").
    private func inCommRF(_ sent: [String]) -> [(timeout: String, frame: String)] {
        sent.filter { $0.dropFirst(16).hasPrefix("d604") }.map { (String($0.dropFirst(20).prefix(4)), String($0.dropFirst(24).dropLast(4))) }
    }

    /// InSetRF 106A, `D6 00 02 03 0F 03` (docs/research/port100.md §"Commands").
    private static let inSetRF106A = "d60002030f03"

    func testASuicaReadCostsTheSameElevenUSBCommandsWithNoTypeASense() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let usb = dir.appendingPathComponent("usb.log").path
        let run = try emulated(["--card", BuildProducts.sample("suica.json")], ["scan", "--json", "--no-save"], usbLog: usb)
        XCTAssertEqual(run.status, 0, run.stderr)
        let sent = commands(usb)
        // docs/performance.md's RC-S380 table before type A: 11 USB commands for the Suica, 7 besides its 4 frames.
        XCTAssertEqual(sent.count, 11, "\(sent)")
        XCTAssertFalse(sent.contains { $0.contains(Self.inSetRF106A) }, "a FeliCa card answered: no type A sense: \(sent)")
    }

    /// What a user compares between two reads of one card.
    private func summary(_ json: [String: Any]?) -> String {
        guard let json else { return "nothing" }
        let keys = ["family", "cardName", "serialNumber", "balance", "currency", "transactions", "passes", "metadata"]
        let picked = Dictionary(uniqueKeysWithValues: keys.compactMap { k in json[k].map { (k, $0) } })
        let data = (try? JSONSerialization.data(withJSONObject: picked, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// Issue 42: an Ultralight ticket on the RC-S380 is sensed at 106 kbit/s type A when no FeliCa
    /// card answers, and read through the host's storage-card path, four pages a Type 2 READ.
    func testUltralightTicketsReadWithTheValuesOfTheirImages() throws {
        for name in ["compass.json", "troika-ul.json", "ventra.json", "hsl-ul.json"] {
            let dir = temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: dir) }
            let usb = dir.appendingPathComponent("usb.log").path, bundle = dir.appendingPathComponent("read.json").path
            let decoded = try CommandRun.transit(["decode", BuildProducts.sample(name)])
            XCTAssertEqual(decoded.status, 0, "\(name): \(decoded.stderr)")
            let run = try emulated(["--card", BuildProducts.sample(name)], ["scan", "--json", "--no-save", "--log", bundle], usbLog: usb)
            XCTAssertEqual(run.status, 0, "\(name): \(run.stdout) \(run.stderr)")
            XCTAssertNotNil(run.json?["family"], "\(name): \(run.stdout)")
            XCTAssertEqual(summary(run.json), summary(decoded.json?["card"] as? [String: Any]), "\(name): the values of `transit decode`")
            let frames = inCommRF(commands(usb))
            // After the Pollings (FeliCa, unanswered) and the activation (nfcpy's 30 ms, `36 01`),
            // only READs reach the card: `30 <page>`; never a write (A2), a compatibility write (A0).
            let reads = frames.filter { !$0.frame.hasPrefix("0600ffff") && $0.timeout != "3601" }
            XCTAssertFalse(reads.isEmpty, name)
            XCTAssertTrue(reads.allSatisfy { $0.frame.hasPrefix("30") && $0.frame.count == 4 }, "\(name): \(reads)")
            let log = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: bundle))) as? [String: Any]
            let exchanges = (log?["exchanges"] as? [[String: Any]] ?? []).compactMap { $0["command"] as? String }
            XCTAssertEqual(exchanges.filter { $0.hasPrefix("FFB0") }.count, reads.count, "\(name): one READ a Read Binary")
            XCTAssertEqual(log?["reader"] as? String, Self.readerName)
            let replayed = try CommandRun.transit(["replay", bundle, "--json"])
            XCTAssertEqual(summary(replayed.json), summary(run.json), "\(name): replayed without the reader")
        }
    }

    func testAClassicCardEndsWithTheOneSentenceNamingTheRCS380() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let usb = dir.appendingPathComponent("usb.log").path
        let run = try emulated(["--card", BuildProducts.sample("easycard.json")], ["scan", "--json", "--no-save"], usbLog: usb)
        XCTAssertEqual(run.status, 5, "as the RC-S300's refusal: \(run.stdout) \(run.stderr)")
        XCTAssertEqual((run.json?["error"] as? [String: Any])?["kind"] as? String, "readerUnsupported", run.stdout)
        XCTAssertTrue(run.stderr.contains("the Sony RC-S380 cannot open MIFARE Classic sectors"), run.stderr)
        // Found (SAK 08), and nothing sent to it past its selection: no READ, no authentication.
        let frames = inCommRF(commands(usb))
        XCTAssertTrue(frames.contains { $0.frame.hasPrefix("9370") }, "selected: \(frames)")
        XCTAssertTrue(frames.allSatisfy { $0.frame.hasPrefix("0600ffff") || $0.timeout == "3601" }, "\(frames)")
    }

    func testAWatchReadsAnUltralightLeftOnTheReaderOnce() throws {
        // After the read the ticket is halted (HLTA): the next looks' SENS_REQ does not wake it.
        let watch = try emulated(["--card", BuildProducts.sample("compass.json")], [],
                                 command: ["/usr/bin/timeout", "--signal=INT", "3", BuildProducts.transit, "watch", "--json", "--no-save"], timeout: 8)
        let lines = watch.stdout.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        XCTAssertEqual(lines.count, 1, "one tap: \(watch.stdout) \(watch.stderr)")
        XCTAssertEqual((lines.first?["card"] as? [String: Any])?["family"] as? String, "compass", watch.stdout)
    }

    /// The emulator's type A card against nfcpy's documented frames (Tests/Fixtures/rcs380/typea_vectors.py).
    func testTheEmulatorsTypeACardAnswersNfcpysFrames() throws {
        let script = BuildProducts.packageRoot.appendingPathComponent("Tests/Fixtures/rcs380/typea_vectors.py").path
        let run = try CommandRun.run("/usr/bin/python3", [script], currentDirectory: BuildProducts.packageRoot, environment: nil, timeout: 60)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(run.stdout.contains("0 failure(s)"), run.stdout)
    }

    func testNoCardIsSaidAndAWaitPollsAtAModestRate() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let usb = dir.appendingPathComponent("usb.log").path
        let started = Date()
        let run = try emulated(["--no-card"], ["scan", "--no-save", "--wait", "2"], usbLog: usb)
        let took = Date().timeIntervalSince(started)
        XCTAssertEqual(run.status, 3, run.stderr)
        XCTAssertTrue(run.stderr.contains("no card on \(Self.readerName) (the RC-S380 reads FeliCa cards and MIFARE Ultralight tickets only"), run.stderr)
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

    func testCRCErrorsOnTwoAnswersInARowAndTheSuicaIsReadRight() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bundle = dir.appendingPathComponent("read.json").path
        // The card's 1st answer is the sense's Polling, the 2nd Request System Code, the 3rd the
        // first read: that one comes back with a CRC error twice, as a card set down may give.
        let run = try emulated(["--card", BuildProducts.sample("suica.json"), "--damage", "3,4"],
                               ["scan", "--json", "--no-save", "--verbose", "--log", bundle])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.json?["balance"] as? Int, 2010, run.stdout)
        XCTAssertEqual(run.json?["serialNumber"] as? String, "012E4CD8A1B2C3D4")
        XCTAssertEqual((run.json?["transactions"] as? [Any])?.count, 5, "the whole history: \(run.stdout)")
        let said = run.stderr.split(separator: "\n").filter { $0.contains("CRC error") && $0.contains("sending it again") }
        XCTAssertEqual(said.count, 2, "each retry said with --verbose: \(run.stderr)")
        let log = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: bundle))) as? [String: Any]
        XCTAssertEqual(log?["retries"] as? Int, 2, "counted in the log bundle")
        XCTAssertEqual((log?["exchanges"] as? [Any])?.count, 5, "each command once in the bundle, as the plugin saw it")
        let replayed = try CommandRun.transit(["replay", bundle, "--json"])
        XCTAssertEqual(replayed.json?["balance"] as? Int, 2010, replayed.stderr)
    }

    func testAnswersThatStayDamagedEndTheReadAsCommunicationInTime() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let usb = dir.appendingPathComponent("usb.log").path
        let started = Date()
        // Every answer after the sense's Polling damaged.
        let run = try emulated(["--card", BuildProducts.sample("suica.json"), "--damage", "2-"],
                               ["scan", "--json", "--no-save", "--read-timeout", "3"], usbLog: usb)
        XCTAssertLessThan(Date().timeIntervalSince(started), 4.5, "within the read's deadline of 3 s (and the emulator's start)")
        XCTAssertEqual(run.status, 5, run.stdout + run.stderr)
        let error = run.json?["error"] as? [String: Any]
        XCTAssertEqual(error?["kind"] as? String, "communication", "never sessionLost: the card never left: \(run.stdout)")
        XCTAssertTrue((error?["message"] as? String ?? "").contains("CRC error"), run.stdout)
        let sent = commands(usb)
        let cardFrames = sent.filter { $0.dropFirst(16).hasPrefix("d604") && !$0.contains("0600ffff0100") }
        XCTAssertEqual(cardFrames.count, 3, "the damaged command tried three times in all, then no more: \(cardFrames)")
        // SwitchRF 00 (docs/research/port100.md V1), then the ACK, as the reader is let go.
        let outs = ((try? String(contentsOfFile: usb, encoding: .utf8)) ?? "").split(separator: "\n").filter { $0.hasPrefix("OUT ") }
        XCTAssertEqual(outs.suffix(2).map { String($0.dropFirst(4)) }, ["0000ffffff0300fdd606002400", "0000ff00ff00"], "\(outs.suffix(3))")
    }

    func testAnOptionalExchangeTheReaderFailsIsSaidAndTheCardStillReads() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bundle = dir.appendingPathComponent("read.json").path
        // The card's answers: 1 Polling, 2 Request System Code, 3 and 4 the reads, 5 the issuer's
        // Request Service (JapanICIssuer), here damaged on all three tries.
        let run = try emulated(["--card", BuildProducts.sample("suica.json"), "--damage", "5,6,7"],
                               ["scan", "--json", "--no-save", "--verbose", "--log", bundle])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.json?["balance"] as? Int, 2010, run.stdout)
        XCTAssertEqual(run.json?["cardName"] as? String, "Japan IC", "unnamed: the issuer's exchange failed")
        XCTAssertTrue(run.stderr.contains("japan-ic: issuer not named: Request Service failed in the reader"), "said with --verbose: \(run.stderr)")
        let log = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: bundle))) as? [String: Any]
        let plugin = (log?["plugins"] as? [[String: Any]])?.first { ($0["name"] as? String) == "japan-ic" }
        XCTAssertTrue((plugin?["log"] as? [String] ?? []).contains { $0.hasPrefix("issuer not named") }, "in the log bundle: \(String(describing: plugin))")
        // A card that answers names its issuer, and nothing is said.
        let plain = try emulated(["--card", BuildProducts.sample("suica.json")], ["scan", "--json", "--no-save", "--verbose"])
        XCTAssertEqual(plain.json?["cardName"] as? String, "Suica", plain.stdout)
        XCTAssertFalse(plain.stderr.contains("issuer not named"), plain.stderr)
    }

    func testAWatchReadsACardOnceThoughAPollingAnswerComesBackDamaged() throws {
        // The card's answers 1–5 are the first look's Polling and the read; 6 and 7 the next look's
        // Pollings (212, then 424 kbit/s), damaged: the card did not leave, so it is not a second tap.
        let watch = try emulated(["--card", BuildProducts.sample("suica.json"), "--damage", "6,7"], [],
                                 command: ["/usr/bin/timeout", "--signal=INT", "3", BuildProducts.transit, "watch", "--json", "--no-save"], timeout: 8)
        let lines = watch.stdout.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        XCTAssertEqual(lines.count, 1, "one tap: \(watch.stdout) \(watch.stderr)")
        XCTAssertEqual((lines.first?["card"] as? [String: Any])?["balance"] as? Int, 2010, watch.stdout)
    }

    /// A watch waits out a pcscd that is not running, and says so only when no USB reader is
    /// watched (issue 35: the rule kept when the watch became a loop over the reader sources).
    func testAWatchNamesAMissingPcscdOnlyWhenNoRCS380IsWatched() throws {
        let watch = try emulated(["--card", BuildProducts.sample("suica.json")], [],
                                 command: ["/usr/bin/timeout", "--signal=INT", "3", BuildProducts.transit, "watch", "--json", "--no-save"], timeout: 8)
        let lines = watch.stdout.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        XCTAssertEqual((lines.first?["card"] as? [String: Any])?["balance"] as? Int, 2010, "the Suica is read: \(watch.stdout) \(watch.stderr)")
        XCTAssertFalse(watch.stderr.contains("pcscd"), "the RC-S380 needs no pcscd: \(watch.stderr)")
        // No Sony reader on the bus (no emulator): pcscd's absence is said, once. (An RC-S330 was the
        // reader transit did not drive here until issue 46.)
        let bare = Self.withoutTheMachinesPCSCD(["/usr/bin/timeout", "--signal=INT", "3", BuildProducts.transit, "watch", "--no-save"])
        let alone = try CommandRun.run(bare.command[0], Array(bare.command.dropFirst()), currentDirectory: BuildProducts.packageRoot,
                                       environment: bare.environment, timeout: 10)
        let said = alone.stderr.split(separator: "\n").filter { $0.contains("pcscd is not running") && $0.hasSuffix("; waiting") }
        XCTAssertEqual(said.count, 1, "said once while the watch keeps looking: \(alone.stderr)")
    }

    func testAReaderUnpluggedMidReadEndsTheRead() throws {
        let run = try emulated(["--card", BuildProducts.sample("suica.json"), "--unplug-after", "8"], ["scan", "--json", "--no-save"])
        XCTAssertTrue([5, 6].contains(run.status), "sessionLost or communication: \(run.status) \(run.stdout) \(run.stderr)")
        let kind = (run.json?["error"] as? [String: Any])?["kind"] as? String
        XCTAssertTrue(kind == "sessionLost" || kind == "communication", run.stdout)
    }

    func testANodeTheUserCannotOpenNamesTheReaderAndTheUdevRule() throws {
        try skipUnlessNobodyReachesTheBuild()
        let run = try emulated(["--card", BuildProducts.sample("suica.json"), "--node-mode", "0600", "--as-nobody"], ["scan", "--json", "--no-save"])
        XCTAssertEqual(run.status, 5, run.stdout + run.stderr)
        let error = run.json?["error"] as? [String: Any]
        XCTAssertEqual(error?["kind"] as? String, "communication", "never noReader: \(run.stdout)")
        let message = error?["message"] as? String ?? ""
        for words in [Self.readerName, "/dev/bus/usb/001/013", "60-transit-pasori.rules", "group transit"] {
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

    /// No pcscd and no Sony reader on the bus (no emulator: an RC-S330 was the reader transit did not
    /// drive here until issue 46, which RCS956EndToEndTests reads).
    func testWithNoReaderFoundReadersScanAndDoctorSayWhatTheyLookedForOnEachTransport() throws {
        let words = ["no PC/SC reader (pcscd is not running: only PC/SC readers need it)", "no RC-S380 or RC-S330/360/370 on USB"]
        func bare(_ arguments: [String]) throws -> CommandRun {
            let run = Self.withoutTheMachinesPCSCD([BuildProducts.transit] + arguments)
            return try CommandRun.run(run.command[0], Array(run.command.dropFirst()), currentDirectory: BuildProducts.packageRoot,
                                      environment: run.environment, timeout: 30)
        }
        for command in [["readers"], ["scan", "--no-save"]] {
            let run = try bare(command)
            XCTAssertEqual(run.status, 3, "\(command): noReader: \(run.stderr)")
            for w in words { XCTAssertTrue(run.stderr.contains(w), "\(command) lacks \(w): \(run.stderr)") }
        }
        let doctor = try bare(["doctor", "--json"])
        XCTAssertEqual(doctor.status, 1, doctor.stderr)
        let checks = (try? JSONSerialization.jsonObject(with: Data(doctor.stdout.utf8))) as? [[String: Any]] ?? []
        func check(_ name: String) -> [String: Any]? { checks.first { ($0["check"] as? String) == name } }
        let readers = check("readers")
        XCTAssertEqual(readers?["ok"] as? Bool, false, doctor.stdout)
        for w in words { XCTAssertTrue((readers?["detail"] as? String ?? "").contains(w), "doctor lacks \(w): \(doctor.stdout)") }
        XCTAssertEqual(check("libusb")?["ok"] as? Bool, true, "the USB section is there: \(doctor.stdout)")
        XCTAssertTrue((check("RC-S380")?["detail"] as? String ?? "").contains("none on USB"), doctor.stdout)
        XCTAssertTrue((check("RC-S330/360/370")?["detail"] as? String ?? "").contains("none on USB"), doctor.stdout)
        XCTAssertNotNil(check("udev rule"), doctor.stdout)
    }

    func testDoctorHasAUSBSectionWithTheRuleAndItsFixForAReaderItCannotOpen() throws {
        let doctor = try emulated(["--node-mode", "0600", "--as-nobody"], ["doctor", "--json"])
        let checks = (try? JSONSerialization.jsonObject(with: Data(doctor.stdout.utf8))) as? [[String: Any]] ?? []
        let reader = checks.first { ($0["check"] as? String) == "reader \(Self.readerName)" }
        let rule = checks.first { ($0["check"] as? String) == "udev rule" }
        XCTAssertEqual(reader?["ok"] as? Bool, false, doctor.stdout)
        let installed = ["/etc/udev/rules.d", "/run/udev/rules.d", "/usr/lib/udev/rules.d", "/lib/udev/rules.d"]
            .first { FileManager.default.fileExists(atPath: $0 + "/60-transit-pasori.rules") }
        if installed == nil {
            XCTAssertEqual(rule?["ok"] as? Bool, false, "not installed, and it keeps the reader closed: \(doctor.stdout)")
            XCTAssertTrue((rule?["detail"] as? String ?? "").contains("not installed"), doctor.stdout)
            XCTAssertTrue((reader?["fix"] as? String ?? "").hasPrefix("install transit's udev rule"), doctor.stdout)
        } else {
            XCTAssertTrue((rule?["detail"] as? String ?? "").contains(installed ?? ""), "where it is: \(doctor.stdout)")
            XCTAssertFalse((reader?["fix"] as? String ?? "").hasPrefix("install"), "never install what is installed: \(doctor.stdout)")
        }
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

    /// `doctor` says a device another driver holds is not read: transit detaches port100 only.
    func testDoctorSaysADeviceAnotherDriverHoldsIsNotRead() throws {
        let doctor = try emulated(["--kernel-driver", "usbhid"], ["doctor", "--json"])
        let checks = (try? JSONSerialization.jsonObject(with: Data(doctor.stdout.utf8))) as? [[String: Any]] ?? []
        let reader = checks.first { ($0["check"] as? String) == "reader \(Self.readerName)" }
        XCTAssertEqual(reader?["ok"] as? Bool, false, doctor.stdout)
        let detail = reader?["detail"] as? String ?? ""
        XCTAssertTrue(detail.contains("usbhid driver holds it, not port100") && !detail.contains("transit detaches it while"), doctor.stdout)
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

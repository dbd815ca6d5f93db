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
        let log = usbLog.map { ["--log", $0] } ?? []
        let run = Self.withoutTheMachinesPCSCD(["/usr/bin/python3", Self.emulator956, "--card-sim", BuildProducts.simulator, "--timeout", String(Int(timeout))]
                                               + log + options + ["--"] + (command ?? [BuildProducts.transit]) + arguments)
        return try CommandRun.run(run.command[0], Array(run.command.dropFirst()), currentDirectory: BuildProducts.packageRoot,
                                  environment: run.environment, timeout: timeout + 10)
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
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let usb = dir.appendingPathComponent("usb.log").path, bundle = dir.appendingPathComponent("read.json").path
        let reference = try CommandRun.transit(["scan", "--card", BuildProducts.sample("suica.json"), "--json", "--no-save"])
        let rcs380 = try emulated(["--card", BuildProducts.sample("suica.json")], ["scan", "--json", "--no-save"])
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

    func testEveryFeliCaFamilyReadsAt212And424() throws {
        for (file, balance) in [("edy.json", 1234), ("waon.json", 239), ("nanaco.json", 1500), ("octopus.json", 8500)] {
            for rate in [[], ["--bitrate-424-only"]] {
                let run = try emulated956(["--card", BuildProducts.sample(file)] + rate, ["scan", "--json", "--no-save"])
                XCTAssertEqual(run.status, 0, "\(file) \(rate): \(run.stderr)")
                XCTAssertEqual(run.json?["balance"] as? Int, balance, "\(file) \(rate)")
            }
        }
    }

    func testCRCErrorsOnTwoAnswersInARowAndTheSuicaIsReadRight() throws {
        let run = try emulated956(["--card", BuildProducts.sample("suica.json"), "--damage", "2,3"], ["scan", "--json", "--no-save", "--verbose"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.json?["balance"] as? Int, 2010)
        XCTAssertTrue(run.stderr.contains("came back damaged (CRC error)"), run.stderr)
    }

    func testAnswersThatStayDamagedEndTheReadAsCommunication() throws {
        let started = Date()
        let run = try emulated956(["--card", BuildProducts.sample("suica.json"), "--damage", "1-"], ["scan", "--json", "--no-save"])
        XCTAssertEqual(run.status, 5, run.stdout + run.stderr)
        XCTAssertEqual((run.json?["error"] as? [String: Any])?["kind"] as? String, "communication", run.stdout)
        XCTAssertLessThan(Date().timeIntervalSince(started), 20)
    }

    func testACardTakenAwayMidReadIsSessionLost() throws {
        let run = try emulated956(["--card", BuildProducts.sample("suica.json"), "--sim-args", "--remove-after", "3"], ["scan", "--json", "--no-save"])
        XCTAssertEqual(run.status, 6, run.stdout + run.stderr)
        XCTAssertEqual((run.json?["error"] as? [String: Any])?["kind"] as? String, "sessionLost", run.stdout)
    }

    func testPn533USBIsDetachedForTheReadAndGivenBack() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let usb = dir.appendingPathComponent("usb.log").path
        let run = try emulated956(["--card", BuildProducts.sample("suica.json"), "--kernel-driver", "pn533_usb"],
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
        let run = try emulated956(["--card", BuildProducts.sample("suica.json"), "--node-mode", "0600", "--as-nobody"], ["scan", "--json", "--no-save"])
        XCTAssertEqual(run.status, 5, run.stdout + run.stderr)
        let message = (run.json?["error"] as? [String: Any])?["message"] as? String ?? ""
        for words in [Self.name956, "/dev/bus/usb/001/013", "60-transit-rcs380.rules", "group transit", "pn533_usb"] {
            XCTAssertTrue(message.contains(words), "\(message) lacks \(words)")
        }
        let doctor = try emulated956(["--node-mode", "0600", "--as-nobody"], ["doctor", "--json"])
        let checks = (try? JSONSerialization.jsonObject(with: Data(doctor.stdout.utf8))) as? [[String: Any]] ?? []
        let reader = checks.first { ($0["check"] as? String) == "reader \(Self.name956)" }
        XCTAssertEqual(reader?["ok"] as? Bool, false, doctor.stdout)
        XCTAssertTrue((reader?["fix"] as? String ?? "").contains("pn533_usb"), doctor.stdout)
    }

    func testReadersListsItWithItsCardAndDoctorCanOpenIt() throws {
        let readers = try emulated956(["--card", BuildProducts.sample("suica.json")], ["readers"])
        XCTAssertEqual(readers.status, 0, readers.stderr)
        XCTAssertTrue(readers.stdout.contains(Self.name956), readers.stdout)
        let doctor = try emulated956(["--kernel-driver", "pn533_usb"], ["doctor", "--json"])
        let checks = (try? JSONSerialization.jsonObject(with: Data(doctor.stdout.utf8))) as? [[String: Any]] ?? []
        let reader = checks.first { ($0["check"] as? String) == "reader \(Self.name956)" }
        XCTAssertEqual(reader?["ok"] as? Bool, true, doctor.stdout)
        XCTAssertTrue((reader?["detail"] as? String ?? "").contains("the kernel's pn533_usb driver holds it"), doctor.stdout)
    }

    func testAWatchReadsATapOnce() throws {
        let watch = try emulated956(["--card", BuildProducts.sample("suica.json")], [],
                                    command: ["/usr/bin/timeout", "--signal=INT", "3", BuildProducts.transit, "watch", "--json", "--no-save"], timeout: 8)
        let lines = watch.stdout.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        XCTAssertEqual(lines.count, 1, "one tap, read once: \(watch.stdout) \(watch.stderr)")
        XCTAssertEqual((lines.first?["card"] as? [String: Any])?["balance"] as? Int, 2010, watch.stdout)
    }
}

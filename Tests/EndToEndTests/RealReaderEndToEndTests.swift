import CardProtocol
import CardSimulation
import Foundation
import TestSupport
import XCTest

/// The readers people own, as pcscd names them (libccid's names, pcscd's `[interface] (serial)`),
/// each answered by `transit-sim --reader-model` as its manual says: no `--dialect` given.
final class RealReaderEndToEndTests: EndToEndTestCase {
    static let acr122u = VirtualReaderHarness.Reader(name: "ACS ACR122U PICC Interface", port: 36000)
    static let acr1252u = VirtualReaderHarness.Reader(name: "ACS ACR1252 Dual Reader [ACR1252 Dual Reader PICC]", port: 36002)
    static let rcs300 = VirtualReaderHarness.Reader(name: "SONY FeliCa RC-S300/P (0201504)", port: 36004)
    static let utrust = VirtualReaderHarness.Reader(name: "Identiv uTrust 3700 F CL Reader [uTrust 3700 F CL Reader] (55021716210255)", port: 36006)
    static let omnikey = VirtualReaderHarness.Reader(name: "HID Global OMNIKEY 5022 Smart Card Reader [OMNIKEY 5022 Smart Card Reader]", port: 36008)
    static let twn4 = VirtualReaderHarness.Reader(name: "Elatec TWN4 SmartCard NFC", port: 36010)
    static let phone = VirtualReaderHarness.Reader(name: "Virtual PCD", port: 36012)

    override class var readers: [VirtualReaderHarness.Reader] { [acr122u, acr1252u, rcs300, utrust, omnikey, twn4, phone] }

    /// Puts `card` on `reader` answered as `model`, scans it, and returns the run and the
    /// simulator's exchange log (one `COMMAND -> ANSWER` line each).
    func read(_ card: String, on reader: VirtualReaderHarness.Reader, as model: String,
              _ extra: [String] = []) throws -> (run: CommandRun, exchanges: [String], bundle: [String: Any]) {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let simLog = dir.appendingPathComponent("sim.log").path, bundle = dir.appendingPathComponent("read.log.json")
        try Self.harness.insert(card: card, ["--reader-model", model, "--log", simLog], port: reader.port)
        let run = try Self.harness.transit(["scan", "--json", "--no-save", "--reader", reader.name, "--wait", "5", "--log", bundle.path] + extra)
        Self.harness.removeCard(port: reader.port)
        let lines = ((try? String(contentsOfFile: simLog, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        let log = (try? JSONSerialization.jsonObject(with: Data(contentsOf: bundle))) as? [String: Any] ?? [:]
        return (run, lines, log)
    }

    func testASuicaReadsWithoutADialectOnEveryReaderThatPassesFeliCa() throws {
        let readers: [(VirtualReaderHarness.Reader, String, profile: String, dialect: String)] = [
            (Self.acr122u, "acr122u", "ACS ACR122U", "pn532"), (Self.acr122u, "acr122u-424", "ACS ACR122U", "pn532"),
            (Self.acr1252u, "acr1252u", "ACS ACR1252U", "acs-direct"), (Self.rcs300, "rc-s300", "Sony RC-S300", "part3"),
            (Self.utrust, "utrust-3700f", "Identiv / SCM", "part3"), (Self.twn4, "twn4", "Elatec TWN4", "part3"),
        ]
        for (reader, model, profile, dialect) in readers {
            let (run, exchanges, bundle) = try read(BuildProducts.sample("suica.json"), on: reader, as: model)
            XCTAssertEqual(run.status, 0, "\(model): \(run.stdout) \(run.stderr)")
            XCTAssertEqual(run.json?["family"] as? String, "japan-ic", model)
            XCTAssertEqual(run.json?["balance"] as? Int, 2010, model)
            let newest = (run.json?["transactions"] as? [[String: Any]])?.first
            XCTAssertEqual(newest?["entryStation"] as? String, "E33B", model)
            XCTAssertEqual(newest?["amount"] as? Int, 160, model)
            XCTAssertEqual(bundle["readerProfile"] as? String, profile, model)
            XCTAssertEqual(bundle["dialect"] as? String, dialect, model)
            XCTAssertNil(bundle["refusedDialects"], "\(model): the first dialect of its line works")
            XCTAssertFalse(exchanges.isEmpty, model)
        }
    }

    func testADumpOnTheRCS300AndTheTWN4ReadsBackToTheSameCard() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let direct = try Self.harness.transit(["scan", "--json", "--no-save", "--card", BuildProducts.sample("suica.json")])
        for (reader, model) in [(Self.rcs300, "rc-s300"), (Self.twn4, "twn4"), (Self.acr122u, "acr122u")] {
            let simLog = dir.appendingPathComponent("\(model).log").path, out = dir.appendingPathComponent("\(model).json").path
            try Self.harness.insert(card: BuildProducts.sample("suica.json"), ["--reader-model", model, "--log", simLog], port: reader.port)
            let dump = try Self.harness.transit(["dump", "--out", out, "--reader", reader.name, "--wait", "5"])
            Self.harness.removeCard(port: reader.port)
            XCTAssertEqual(dump.status, 0, "\(model): \(dump.stderr)")
            let back = try Self.harness.transit(["scan", "--json", "--no-save", "--card", out])
            XCTAssertEqual(back.json?["balance"] as? Int, 2010, "\(model): \(back.stdout)")
            XCTAssertEqual(back.stdout, direct.stdout, "\(model): the dump reads as the card itself")
            let exchanges = try String(contentsOfFile: simLog, encoding: .utf8).split(separator: "\n")
            if model == "rc-s300" { XCTAssertTrue(exchanges.last?.hasPrefix("FFC2000002820000") == true, "the session closed: \(exchanges.suffix(2))") }
            if model == "twn4" { XCTAssertTrue(exchanges.allSatisfy { !$0.hasSuffix("-> 6700") }, "every message fits 54 bytes") }
        }
    }

    func testAnIdentivReaderNeverSeesFF000000() throws {
        let (run, exchanges, _) = try read(BuildProducts.sample("suica.json"), on: Self.utrust, as: "utrust-3700f")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertFalse(exchanges.contains { $0.hasPrefix("FF000000") }, "\(exchanges)")
        // Not even when asked for: FF 00 00 00 is its PIN command.
        let forced = try read(BuildProducts.sample("suica.json"), on: Self.utrust, as: "utrust-3700f", ["--dialect", "acs-direct"])
        XCTAssertEqual(forced.run.status, 2, forced.run.stdout)
        XCTAssertFalse(forced.exchanges.contains { $0.hasPrefix("FF000000") }, "\(forced.exchanges)")
        XCTAssertTrue(((forced.run.json?["error"] as? [String: Any])?["message"] as? String)?.contains("PIN") == true, forced.run.stdout)
    }

    func testTheRCS300ReadsInsideOneTransparentSession() throws {
        let (run, exchanges, _) = try read(BuildProducts.sample("suica.json"), on: Self.rcs300, as: "rc-s300")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(exchanges.filter { $0.hasPrefix("FFC2000002") }.count, 2, "one session for the whole read: \(exchanges)")
        XCTAssertEqual(exchanges.firstIndex { $0.hasPrefix("FFC2000002810000") }, 1, "after FF CA, before the first Transparent Exchange: \(exchanges)")
        XCTAssertTrue(exchanges.last?.hasPrefix("FFC2000002820000") == true, "closed after the read: \(exchanges)")
    }

    func testTheTWN4GetsNoCommandOrAnswerLongerThanItsMessages() throws {
        let (run, exchanges, _) = try read(BuildProducts.sample("suica.json"), on: Self.twn4, as: "twn4")
        XCTAssertEqual(run.status, 0, run.stderr)
        for line in exchanges {
            let parts = line.components(separatedBy: " -> ")
            XCTAssertLessThanOrEqual(parts[0].count / 2, 54, line)
            XCTAssertLessThanOrEqual((parts.last ?? "").count / 2, 54, line)
        }
    }

    func testAFeliCaCardOnAnOMNIKEYEndsNamingTheReaderNotAsAnUnknownCard() throws {
        let (run, exchanges, _) = try read(BuildProducts.sample("suica.json"), on: Self.omnikey, as: "omnikey-5022")
        XCTAssertEqual(run.status, 5, run.stdout)
        let error = run.json?["error"] as? [String: Any]
        XCTAssertEqual(error?["kind"] as? String, "readerUnsupported")
        XCTAssertTrue((error?["message"] as? String)?.hasPrefix(Self.omnikey.name + " 00 00 passes no FeliCa commands") == true, "\(String(describing: error))")
        XCTAssertEqual(exchanges.count, 1, "FF CA only: \(exchanges)")
    }

    func testAnEZLinkWithACSTypeBATRReadsAsCEPAS() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // The ATQB an ACR122U puts in the ATR (smartcard_list: 3B 8C 80 01 50 68 DD A5 … 82).
        var ezlink = try CardImages.sample("ezlink.json")
        ezlink.iso7816?.historicalBytes = "5068DDA5B11C000011778185"
        let card = try CardImages.write(ezlink, in: dir)
        let (run, _, bundle) = try read(card, on: Self.acr122u, as: "acr122u")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(bundle["atr"] as? String, "3B8C80015068DDA5B11C00001177818582")
        XCTAssertEqual(run.json?["family"] as? String, "cepas")
        XCTAssertEqual(run.json?["balance"] as? Int, 897)
    }

    func testACEPASCardBehindThePhoneBridgeReadsThoughFFCAGoesToTheCard() throws {
        let (run, exchanges, _) = try read(BuildProducts.sample("ezlink.json"), on: Self.phone, as: "phone")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.json?["family"] as? String, "cepas")
        XCTAssertEqual(run.json?["balance"] as? Int, 897)
        XCTAssertEqual(exchanges.first, "FFCA000000 -> 6D00", "the card refused the reader's GET DATA")
    }

    func testReadersShowEachReadersLine() throws {
        try Self.harness.insert(card: BuildProducts.sample("suica.json"), ["--reader-model", "acr122u"], port: Self.acr122u.port)
        Self.harness.waitForCard(port: Self.acr122u.port)
        let text = try Self.harness.transit(["readers"])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.contains("ACS ACR122U PICC Interface 00 00\tcard (felica), ATR 3B8F8001804F0CA00000030603F011000000008A"
                                           + "\tACS ACR122U: pn532, then bare-frame, then acs-direct, then part3 [manual]"), text.stdout)
        XCTAssertTrue(text.stdout.contains("\(Self.omnikey.name) 00 00\tno card\tHID OMNIKEY: passes no FeliCa frames [code]"), text.stdout)
        let json = try Self.harness.transit(["readers", "--json"])
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let rcs = try XCTUnwrap(rows.first { ($0["name"] as? String) == Self.rcs300.name + " 00 00" })
        let profile = try XCTUnwrap(rcs["profile"] as? [String: Any])
        XCTAssertEqual(profile["transparentSession"] as? Bool, true)
        XCTAssertEqual(profile["dialects"] as? [String], ["part3"])
        XCTAssertEqual(profile["confidence"] as? String, "code")
        let identiv = rows.first { ($0["name"] as? String) == Self.utrust.name + " 00 00" }?["profile"] as? [String: Any]
        XCTAssertEqual(identiv?["neverSent"] as? [String], ["acs-direct", "pn532"])
        let doctor = try Self.harness.transit(["doctor"])
        XCTAssertTrue(doctor.stdout.contains("reader \(Self.omnikey.name) 00 00: HID OMNIKEY: passes no FeliCa frames"), doctor.stdout)
    }

    /// Calypso cards (issue 33) on the type B readers people own, through pcscd: the card's name and
    /// number, its passes and validations in Paris time, within 20 counted APDUs (the "not here"
    /// answers 6A82, 6D00, 6E00 not counted), SELECT and READ RECORD only. Expected values are what
    /// scripts/make_calypso_samples.py wrote into the images, in human terms.
    func testCalypsoCardsReadWithTheirPassesOnTypeBReaders() throws {
        struct Expected { let sample: String, name: String, number: String, tariffs: [String], trips: [Int?], dates: [String], stations: [String] }
        let cards = [
            Expected(sample: "navigo.json", name: "Navigo", number: "439041101", tariffs: ["0FF1", "0FF2"], trips: [nil, 7],
                     dates: ["2026-12-01T08:15:00+01:00", "2026-11-20T17:05:00+01:00", "2026-10-25T03:10:00+01:00", "2026-10-25T01:50:00+02:00"],
                     stations: ["03C5", "0789", "1A20", "0456"]),
            Expected(sample: "navigo-cla94.json", name: "Navigo", number: "185339150", tariffs: ["0FF1"], trips: [nil],
                     dates: ["2026-11-03T07:45:00+01:00"], stations: ["0101"]),
            Expected(sample: "korrigo.json", name: "KorriGo", number: "3735928559", tariffs: ["0200"], trips: [4],
                     dates: ["2026-11-28T12:34:00+01:00"], stations: ["00AB"]),
            Expected(sample: "mobib-blank.json", name: "MOBIB", number: "639653 / 000123456789 / 4", tariffs: [], trips: [], dates: [], stations: []),
        ]
        for (reader, model) in [(Self.acr1252u, "acr1252u"), (Self.phone, "phone")] {
            for e in cards {
                let what = "\(e.sample) on \(model)"
                let (run, _, bundle) = try read(BuildProducts.sample(e.sample), on: reader, as: model)
                XCTAssertEqual(run.status, 0, "\(what): \(run.stdout) \(run.stderr)")
                let json = try XCTUnwrap(run.json, what)
                XCTAssertEqual(json["family"] as? String, "calypso", what)
                XCTAssertEqual(json["cardName"] as? String, e.name, what)
                XCTAssertEqual(json["serialNumber"] as? String, e.number, what)
                XCTAssertNil(json["balance"], "\(what): no stored value")
                let passes = json["passes"] as? [[String: Any]] ?? []
                XCTAssertEqual(passes.compactMap { $0["tariff"] as? String }, e.tariffs, what)
                XCTAssertEqual(passes.map { $0["remainingTrips"] as? Int }, e.trips, what)
                let records = json["transactions"] as? [[String: Any]] ?? []
                XCTAssertEqual(records.compactMap { $0["date"] as? String }, e.dates, what)
                XCTAssertEqual(records.compactMap { $0["entryStation"] as? String }, e.stations, what)
                // What the card was sent, as the log bundle recorded it.
                let sent = (bundle["exchanges"] as? [[String: Any]] ?? []).compactMap { x -> (command: [UInt8], sw: String)? in
                    guard let c = (x["command"] as? String).flatMap({ HexFormat.bytes($0, ignoringSpaces: true) }), c.count >= 4, c[0] != 0xFF else { return nil }
                    let answer = ((x["response"] as? String) ?? "").filter { !$0.isWhitespace }
                    return (c, String(answer.suffix(4)).uppercased())
                }
                // The whole read, every family's probes included, within 20 counted APDUs.
                XCTAssertLessThanOrEqual(sent.filter { !["6A82", "6D00", "6E00"].contains($0.sw) }.count, 20, what)
                // From the calypso plugin's first SELECT of 1TIC.ICA on: SELECT and READ RECORD only.
                let ticketing: [UInt8] = [0x31, 0x54, 0x49, 0x43, 0x2E, 0x49, 0x43, 0x41]
                let first = try XCTUnwrap(sent.firstIndex { $0.command[1] == 0xA4 && $0.command.count >= 13 && Array($0.command[5 ..< 13]) == ticketing }, what)
                XCTAssertEqual(Set(sent[first...].map { $0.command[1] }).subtracting([0xA4, 0xB2]), [], "\(what): only SELECT and READ RECORD")
            }
        }
    }
}

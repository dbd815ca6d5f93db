import Foundation
import TestSupport
import TransitModel
import TransitTransport
import TransitEngine
import XCTest

/// Log bundles and strict replay: the project's captures of its simulated cards (read through
/// pcscd + vpcd by scripts/capture.py) replay to the output of the original read.
final class ReplayTests: XCTestCase {
    static let captures = BuildProducts.packageRoot.appendingPathComponent("Tests/Fixtures/captures")

    func bundle(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: Self.captures.appendingPathComponent(name))
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// The log keeps a transport error as it was (its kind and PC/SC code, not the reported kind),
    /// and replay throws it again: a card another client reset replays as a reset, read again from
    /// the start as the original read was.
    func testATransportErrorReplaysAsItWasRecorded() throws {
        let reset = TransitError(.cardReset, "another application reset the card during the read", pcscCode: 0x8010_0068)
        let log = LogBundle(tool: "t", abiVersion: 1, reader: "r", dialect: "none", atr: "3B8180018080", uid: nil, initialAID: nil,
                            plugins: [], exchanges: [.init(command: "FFCA000000", response: "01029000", ms: 1),
                                                     .init(command: "00A4040000", response: nil, error: reset, ms: 1)],
                            outcome: "communication", error: reset)
        let decoded = try JSONDecoder().decode(LogBundle.self, from: JSONEncoder().encode(log))
        XCTAssertEqual(decoded, log)
        XCTAssertEqual(decoded.exchanges.last?.error?.kind, .cardReset, "not the reported communication")
        let channel = try decoded.replayChannel()
        XCTAssertEqual(try channel.transmit([0xFF, 0xCA, 0, 0, 0], by: .distant), [0x01, 0x02, 0x90, 0x00])
        XCTAssertThrowsError(try channel.transmit([0x00, 0xA4, 0x04, 0x00, 0x00], by: .distant)) { XCTAssertEqual($0 as? TransitError, reset) }
        XCTAssertEqual(try channel.transmit([0xFF, 0xCA, 0, 0, 0], by: .distant), [0x01, 0x02, 0x90, 0x00], "read again from the start")
        // A log of an older version, whose kinds were the reported ones, still loads.
        let old = #"{"kind":"communication","message":"gone"}"#
        XCTAssertEqual(try JSONDecoder().decode(TransitError.self, from: Data(old.utf8)), TransitError(.communication, "gone"))
        let newer = #"{"kind":"somethingNew","message":"x"}"#
        XCTAssertEqual(try JSONDecoder().decode(TransitError.self, from: Data(newer.utf8)).kind, .internal)
    }

    func testEveryCaptureReplaysToItsRecordedResult() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.captures.path).filter { $0.hasSuffix(".log.json") }
        XCTAssertGreaterThanOrEqual(names.count, 10)
        for name in names.sorted() {
            let log = try bundle(name)
            let run = try CommandRun.transit(["replay", Self.captures.appendingPathComponent(name).path, "--json"])
            let replayed = try XCTUnwrap(run.json, "\(name): \(run.stderr)")
            if let result = log["result"] as? [String: Any] {
                XCTAssertEqual(run.status, 0, "\(name): \(run.stderr)")
                XCTAssertEqual(NSDictionary(dictionary: replayed), NSDictionary(dictionary: result), name)
            } else {
                // A read that ended in an error replays to the same error.
                let recorded = try XCTUnwrap(log["error"] as? [String: Any])
                XCTAssertEqual((replayed["error"] as? [String: Any])?["kind"] as? String, recorded["kind"] as? String, name)
                XCTAssertEqual(run.status, 4, name)
            }
        }
    }

    func testBundleRecordsWhatTheIssueAsksFor() throws {
        let log = try bundle("tmoney.log.json")
        XCTAssertEqual(log["reader"] as? String, "Virtual PCD 00 00")
        XCTAssertEqual(log["abiVersion"] as? Int, 1)
        XCTAssertNotNil(log["tool"] as? String)
        XCTAssertNotNil(log["atr"] as? String)
        XCTAssertEqual(log["initialAID"] as? String, "D4100000030001", "the first AID whose SELECT succeeded")
        let plugins = try XCTUnwrap(log["plugins"] as? [[String: String]])
        XCTAssertEqual(plugins.map { $0["name"] }, ["cepas", "ksx6924"])
        XCTAssertEqual(plugins.map { $0["outcome"] }, ["notThisCard", "read"])
        let exchanges = try XCTUnwrap(log["exchanges"] as? [[String: Any]])
        XCTAssertEqual(exchanges.first?["command"] as? String, "FFCA000000", "the host asks the UID of ISO cards too")
        XCTAssertEqual(exchanges[1]["command"] as? String, "00A40000024000")
        XCTAssertEqual(log["uid"] as? String, "04C1C2C3C4C5C6", "the ISO card's UID, as FeliCa ones carry the IDm")
        XCTAssertNotNil(exchanges.first?["ms"] as? Double)
        XCTAssertEqual(log["outcome"] as? String, "read")
        let felica = try bundle("suica.log.json")
        XCTAssertEqual(felica["uid"] as? String, "012E4CD8A1B2C3D4", "the IDm")
        XCTAssertTrue((felica["note"] as? String)?.contains("card's number") == true)
    }

    func testTamperedLogReportsTheFirstDivergenceWithBothCommands() throws {
        var log = try bundle("ezlink.log.json")
        var exchanges = try XCTUnwrap(log["exchanges"] as? [[String: Any]])
        exchanges[2]["command"] = "9032030100" // the log now claims the read asked for purse 1
        log["exchanges"] = exchanges
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("tampered.json")
        try JSONSerialization.data(withJSONObject: log).write(to: path)
        let run = try CommandRun.transit(["replay", path.path, "--json"])
        XCTAssertEqual(run.status, 7)
        let error = try XCTUnwrap(run.json?["error"] as? [String: Any])
        XCTAssertEqual(error["kind"] as? String, "replayDiverged")
        XCTAssertEqual(error["message"] as? String, "exchange 3: the read asks 9032030000, the log has 9032030100")
    }

    func testScanWritesALogThatReplaysIdentically() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("read.json").path
        let scan = try CommandRun.transit(["scan", "--card", BuildProducts.sample("nanaco.json"), "--log", log])
        XCTAssertEqual(scan.status, 0, scan.stderr)
        let replay = try CommandRun.transit(["replay", log])
        XCTAssertEqual(replay.status, 0, replay.stderr)
        XCTAssertEqual(replay.stdout, scan.stdout, "text output identical too")
    }
}

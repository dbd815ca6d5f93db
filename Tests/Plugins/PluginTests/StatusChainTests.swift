import CardSimulation
import TestSupport
import TransitModel
import XCTest

/// Issue 45: a card that answers 61 xx (more data, ISO 7816-4 §5.3.3) to every GET RESPONSE, or
/// 6C xx (wrong Le) to every command, ends the read as malformed after a bounded chain, through the
/// default plugins, instead of holding it until its deadline.
final class StatusChainTests: XCTestCase {
    static let samples = ["tmoney.json", "ezlink.json", "tunion.json", "beijing.json", "navigo.json", "clipper.json"]

    private func readAnswering(_ status: [UInt8], _ sample: String) throws -> PluginRead.Outcome {
        try PluginRead.read(CardImages.sample(sample), plugins: PluginRead.Plugin.defaultOrder) { _, command, answer in
            command.starts(with: [0xFF, 0xCA]) ? answer : status
        }
    }

    func testACardAnswering61ForEverIsMalformedAfterABoundedChain() throws {
        for sample in Self.samples {
            let outcome = try readAnswering([0x61, 0x10], sample)
            XCTAssertEqual(outcome.error?.kind, .malformedResponse, "\(sample): \(String(describing: outcome.error))")
            XCTAssertEqual(outcome.error?.kind.exitCode, 5, "\(sample): exit 5")
            // The UID, the first command and its 32 GET RESPONSEs: the first plugin's first command ends it.
            XCTAssertLessThanOrEqual(outcome.exchanges, 2 + 32, "\(sample): \(outcome.exchanges) exchanges")
        }
    }

    func testACardAnswering6CForEverIsMalformedAfterOneResend() throws {
        for sample in Self.samples {
            let outcome = try readAnswering([0x6C, 0x10], sample)
            XCTAssertEqual(outcome.error?.kind, .malformedResponse, "\(sample): \(String(describing: outcome.error))")
            XCTAssertLessThanOrEqual(outcome.exchanges, 3, "\(sample): the UID, the command and its one re-send")
        }
    }

    func testAWrongLeIsAskedAgainOnceByTheHostAndThePluginSeesTheFile() throws {
        // ISO 7816-4: 6C xx names the Le the card wants. Shenzhen Tong's file 0x15 (28 bytes, 1C) is
        // read whole with Le 00; a card that wants 1C is asked again by CardSession, once, and the
        // plugin reads the file as it would have.
        let wholeFile: [UInt8] = [0x00, 0xB0, 0x95, 0x00, 0x00]
        let outcome = try PluginRead.read(CardImages.sample("shenzhen.json"), plugins: [.chinaCity]) { _, command, answer in
            command == wholeFile ? [0x6C, 0x1C] : answer
        }
        XCTAssertEqual(outcome.reading?.serialNumber, "295176543(8)", "\(String(describing: outcome.error))")
        let reads = outcome.bundle.exchanges.filter { $0.command.hasPrefix("00B095") }
        XCTAssertEqual(reads.map(\.command), ["00B0950000", "00B095001C"])
        XCTAssertEqual(reads.first?.response, "6C1C")
    }
}

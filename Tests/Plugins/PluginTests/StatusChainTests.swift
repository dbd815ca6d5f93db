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
}

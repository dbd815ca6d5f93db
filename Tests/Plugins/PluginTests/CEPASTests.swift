import CardSimulation
import Foundation
import TestSupport
import XCTest

/// CEPAS through its built library: the CEPAS sentences of docs/specification.md and its detection fallback.
final class CEPASTests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    static let select = "00A40000024000"
    static let purseCommand = "9032030000"
    static let demoSelect = "00A4040008F07472616E73697400"

    func hex(_ b: [UInt8]) -> String { b.map { String(format: "%02X", $0) }.joined() }
    func s24(_ v: Int) -> [UInt8] { let u = UInt32(bitPattern: Int32(v)) & 0xFFFFFF; return [UInt8(u >> 16), UInt8(u >> 8 & 0xFF), UInt8(u & 0xFF)] }

    /// A purse laid out by hand: balance, CAN 1111 2222 3333 4444, no dates, `logCount` records.
    func purse(balance: Int, logCount: Int) -> String {
        hex([0x02, 0x01] + s24(balance) + s24(0) + [0x11, 0x11, 0x22, 0x22, 0x33, 0x33, 0x44, 0x44] + [UInt8](repeating: 0, count: 8)
            + [0, 0, 0, 0] + [UInt8](repeating: 0, count: 12) + [UInt8(logCount), 0] + [UInt8](repeating: 0, count: 21)) + "9000"
    }

    func logRecord(type: UInt8, amount: Int, seconds: UInt32) -> [UInt8] {
        [type] + s24(amount) + [UInt8(seconds >> 24), UInt8(seconds >> 16 & 0xFF), UInt8(seconds >> 8 & 0xFF), UInt8(seconds & 0xFF)]
            + Array("USERDATA".utf8)
    }

    /// A card with a CEPAS purse answering as given, and the demo application (the C plugin reads it).
    func card(selectAnswer: String = "9000", purseAnswer: String, log: [String: String] = [:]) -> CardImage {
        CardImage(iso7816: .init(uid: "08A1B2C3", historicalBytes: nil, applications: [
            .init(name: "cepas", select: Self.select, answer: selectAnswer, commands: [Self.purseCommand: purseAnswer].merging(log) { a, _ in a }),
            .init(name: "demo", select: Self.demoSelect, answer: "9000", commands: ["805C000004": "000000079000"]),
        ], commands: nil))
    }

    func readWithDemoAfter(_ image: CardImage) throws -> PluginRead.Outcome {
        let demo = try CPluginBuilder.build(into: dir)
        return try PluginRead.read(image, plugins: [.cepas, .init("demo", demo)])
    }

    func testSampleEZLink() throws {
        let r = try XCTUnwrap(PluginRead.read(CardImages.sample("ezlink.json"), plugins: [.japanIC, .cepas]).reading)
        XCTAssertEqual(r.family, "cepas")
        XCTAssertEqual(r.cardName, "EZ-Link")
        XCTAssertEqual(r.serialNumber, "1009123456789012")
        XCTAssertEqual(r.balance, 897)
        XCTAssertEqual(r.currency, "SGD")
        XCTAssertEqual(r.validFrom?.description, "2021-03-15")
        XCTAssertEqual(r.validUntil?.description, "2030-06-30")
        XCTAssertEqual(r.transactions.map(\.type.rawValue), ["trip", "trip", "topup", "unknown"])
        XCTAssertEqual(r.transactions.map(\.amount), [128, 99, 2000, nil])
        // Times count from 1995-01-01 00:00 Singapore time and print in UTC+08:00.
        XCTAssertEqual(r.transactions.first?.date?.description, "2026-11-20T08:15:30+08:00")
        // An unknown type keeps its raw payload and has no amount.
        XCTAssertEqual(r.transactions.last?.rawType, "A0")
        XCTAssertEqual(r.transactions.last?.rawPayload?.count, 32)
    }

    func testTypeTableAndEpoch() throws {
        let types: [(UInt8, String)] = [(0x30, "trip"), (0x31, "trip"), (0x03, "topup"), (0x75, "topup"), (0x76, "topup"),
                                        (0x01, "purchase"), (0x04, "purchase"), (0x05, "unknown"), (0xF0, "unknown")]
        let records = types.enumerated().map { i, t in logRecord(type: t.0, amount: -(i + 1) * 10, seconds: UInt32(i)) }
        let image = card(purseAnswer: purse(balance: -250, logCount: records.count),
                         log: ["90320300010000": hex(records.flatMap { $0 }) + "9000"])
        let r = try XCTUnwrap(PluginRead.read(image, plugins: [.cepas]).reading)
        XCTAssertEqual(r.balance, -250, "a negative purse stays negative")
        XCTAssertEqual(r.cardName, "NETS FlashPay", "CAN prefix 111")
        XCTAssertEqual(r.transactions.map(\.type.rawValue), types.map(\.1))
        XCTAssertEqual(r.transactions.map(\.amount), [10, 20, 30, 40, 50, 60, 70, nil, nil])
        XCTAssertNil(r.transactions.first?.date?.description, "a zero timestamp is no date, not 1995-01-01T00:00:00+08:00")
        XCTAssertEqual(r.transactions[1].date?.description, "1995-01-01T00:00:01+08:00", "seconds since 1995-01-01 00:00 Singapore time")
    }

    func testThirtyRecordsTakeTwoLogCommandsAndFourExchangesAfterTheUID() throws {
        let records = (0 ..< 30).map { logRecord(type: 0x30, amount: -100, seconds: UInt32(1000 - $0)) }
        let image = card(purseAnswer: purse(balance: 100, logCount: 30), log: [
            "90320300010000": hex(records.prefix(16).flatMap { $0 }) + "9000",
            "90320300011000": hex(records.dropFirst(16).flatMap { $0 }) + "9000",
        ])
        let outcome = try PluginRead.read(image, plugins: [.cepas])
        XCTAssertEqual(outcome.reading?.transactions.count, 30)
        // The host's FF CA (the reader answers it from anticollision, no RF), then SELECT, GET PURSE, two log reads.
        XCTAssertEqual(outcome.exchanges, 1 + 4)
    }

    func testAnyStatusWordRejectingSelect4000MeansNotCEPAS() throws {
        for sw in ["6A82", "6986", "6D00", "6E00", "6A81"] {
            let outcome = try readWithDemoAfter(card(selectAnswer: sw, purseAnswer: purse(balance: 1, logCount: 0)))
            XCTAssertEqual(outcome.plugin, "demo", "SELECT answered \(sw): the next reader runs")
            XCTAssertEqual(outcome.reading?.balance, 7)
        }
    }

    func testGetPurseFallbackStatusWordsMeanNotCEPAS() throws {
        for sw in ["6A81", "6A82", "6D00", "6E00"] {
            let outcome = try readWithDemoAfter(card(purseAnswer: sw))
            XCTAssertEqual(outcome.plugin, "demo", "GET PURSE answered \(sw)")
        }
    }

    func testOtherGetPurseRefusalEndsTheReadWithoutTheNextPlugin() throws {
        let outcome = try readWithDemoAfter(card(purseAnswer: "6982"))
        XCTAssertEqual(outcome.error?.kind, .cardRefused)
        XCTAssertEqual(outcome.error?.plugin, "cepas")
        XCTAssertFalse(outcome.log.contains { $0.hasPrefix("demo") }, "the demo plugin must not run: \(outcome.log)")
    }

    func testMalformedPurseAndLogAreMalformedResponse() throws {
        let short = try readWithDemoAfter(card(purseAnswer: "0201000381" + "9000"))
        XCTAssertEqual(short.error?.kind, .malformedResponse)
        let oddLog = try readWithDemoAfter(card(purseAnswer: purse(balance: 1, logCount: 2), log: ["90320300010000": "0102039000"]))
        XCTAssertEqual(oddLog.error?.kind, .malformedResponse)
    }

    func testCardRemovedDuringGetPurseIsSessionLostAndEndsTheRead() throws {
        let image = card(purseAnswer: purse(balance: 1, logCount: 0))
        let demo = try CPluginBuilder.build(into: dir)
        let outcome = try PluginRead.read(image, plugins: [.cepas, .init("demo", demo)]) { i, _, answer in
            if i == 2 { throw HostErrors.removed } // 0 FF CA, 1 SELECT 4000, 2 GET PURSE
            return answer
        }
        XCTAssertEqual(outcome.error?.kind, .sessionLost)
        XCTAssertEqual(outcome.error?.kind.exitCode, 6)
        XCTAssertEqual(outcome.exchanges, 3, "no plugin runs after the card is gone")
    }

    func testEveryEmptyShortOrPaddedAnswerEndsInADocumentedError() throws {
        let image = try CardImages.sample("ezlink.json")
        let documented: Set<String> = ["malformedResponse", "cardRefused", "tagNotSupported"]
        for index in 1 ..< 4 { // the plugin's exchanges, after the host's FF CA
            for change in [{ (_: [UInt8]) in [] }, { Array($0.prefix(1)) }, { Array($0.dropFirst(3)) },
                           { Array($0.dropLast(3)) + [0x90, 0x00] }, { [0x00] + $0 }] {
                let outcome = try PluginRead.read(image, plugins: [.cepas]) { i, _, answer in i == index ? change(answer) : answer }
                if let e = outcome.error {
                    XCTAssertTrue(documented.contains(e.kind.rawValue), "exchange \(index): \(e)")
                }
            }
        }
    }
}

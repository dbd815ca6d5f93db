import CardSimulation
import TestSupport
import XCTest

/// Japan IC cards named by one Request Service of each issuer's marker node. Each image carries the
/// common Cybernetics services (008B balance, 090F history, 108F, 10CB), the nodes the public
/// service lists show shared between issuers (1848: Suica, PASMO, Kitaca, TOICA; 1F88 and 2048:
/// Hayakaken, nimoca, SUGOCA; 2308: Suica, PASMO) and the issuer's own area nodes, locked as on
/// the card (kormax/felica-tool filesystems.json, Metrodroid SuicaTest; docs/research/felica-iso.md §"Issuer markers").
final class JapanICIssuerTests: XCTestCase {
    static let issuers: [(name: String, own: [String], shared: [String])] = [
        ("Suica", ["1808", "180A", "18C8", "18CA"], ["1848", "2308"]),
        ("PASMO", ["1CC8", "1CCA", "1CCB"], ["1848", "2308"]),
        ("ICOCA", ["1A48", "1A4A", "1A4B"], []),
        ("Kitaca", ["2088", "208A", "208B"], ["1848"]),
        ("TOICA", ["1E08", "1E0A", "1E0B"], ["1848"]),
        ("manaca", ["9888", "988A", "988B"], []),
        ("PiTaPa", ["1B88", "1B8A"], []),
        ("SUGOCA", ["21C8", "21CA"], ["1F88", "2048"]),
        ("nimoca", ["1F48", "1F4A", "1F4B"], ["1F88", "2048"]),
        ("Hayakaken", ["2448", "244A", "244B"], ["1F88", "2048"]),
    ]

    func image(_ nodes: [String]) throws -> CardImage {
        var image = try CardImages.sample("suica.json")
        image.felica?.systems[0].services["108F"] = [String(repeating: "0", count: 32)]
        image.felica?.systems[0].services["10CB"] = [String(repeating: "0", count: 32)]
        image.felica?.systems[0].lockedServices = nodes
        return image
    }

    func read(_ image: CardImage, fault: PluginRead.Fault? = nil) throws -> PluginRead.Outcome {
        try PluginRead.read(image, plugins: [.japanIC], fault: fault)
    }

    func testEveryIssuerIsNamedInFiveExchanges() throws {
        for issuer in Self.issuers {
            let outcome = try read(try image(issuer.own + issuer.shared))
            let r = try XCTUnwrap(outcome.reading, "\(issuer.name): \(String(describing: outcome.error))")
            XCTAssertEqual(r.cardName, issuer.name)
            XCTAssertEqual(r.metadata["issuerMarkers"], issuer.own[0])
            XCTAssertEqual(r.metadata["medium"], "card")
            XCTAssertEqual(r.balance, 2010, issuer.name)
            XCTAssertLessThanOrEqual(outcome.exchanges, 5, issuer.name)
        }
    }

    func testTwoMarkersOrNoneKeepJapanIC() throws {
        let two = try XCTUnwrap(read(try image(["1808", "1CC8", "1848"])).reading)
        XCTAssertEqual(two.cardName, "Japan IC", "a wrong name is worse than a plain one")
        XCTAssertEqual(two.metadata["issuerMarkers"], "1808 1CC8")
        let none = try XCTUnwrap(read(try image(["1848", "0810"])).reading)
        XCTAssertEqual(none.cardName, "Japan IC")
        XCTAssertNil(none.metadata["issuerMarkers"])
        XCTAssertEqual(none.balance, 2010)
    }

    func testOptionalMarkers() throws {
        let regional = try XCTUnwrap(read(try image(["1808", "2588"])).reading)
        XCTAssertEqual(regional.cardName, "Suica", "a JR East regional Suica is a Suica")
        XCTAssertEqual(regional.metadata["issuerMarkers"], "1808 2588")
        XCTAssertEqual(try XCTUnwrap(read(try image(["BD48", "BD4A"])).reading).cardName, "icsca")
        let phone = try XCTUnwrap(read(try image(["1808", "1F08", "1F0A"])).reading)
        XCTAssertEqual(phone.cardName, "Suica")
        XCTAssertEqual(phone.metadata["medium"], "phone", "only phones carry area 1F08")
    }

    func testACardSilentToRequestServiceStillReadsAsJapanIC() throws {
        // Part 3's "no response from the card" to the Request Service (its frame's code, 02, after
        // the 95 object and the frame's length byte): the read keeps its balance and history, costs nothing more.
        let silent: PluginRead.Fault = { _, command, answer in
            command.count > 15 && command[0 ..< 2] == [0xFF, 0xC2] && command[15] == 0x02 ? [0xC0, 0x03, 0x01, 0x64, 0x01, 0x90, 0x00] : answer
        }
        let outcome = try read(try image(["1808"]), fault: silent)
        let r = try XCTUnwrap(outcome.reading, "\(String(describing: outcome.error))")
        XCTAssertEqual(r.cardName, "Japan IC")
        XCTAssertNil(r.metadata["medium"])
        XCTAssertEqual(r.transactions.count, 5)
        XCTAssertEqual(outcome.exchanges, 5)
        // A garbled answer to it as well.
        let garbled: PluginRead.Fault = { i, _, answer in i == 4 ? Array(answer.dropLast(5)) + [0x90, 0x00] : answer }
        XCTAssertEqual(try XCTUnwrap(read(try image(["1808"]), fault: garbled).reading).cardName, "Japan IC")
    }
}

extension JapanICIssuerTests {
    func testTheRequestServiceIsTheFrameTheResearchWroteOut() throws {
        // docs/research/felica-iso.md §"Issuer markers", the test vector for n = 13:
        // LEN 02 <IDm(0003)> 0D 08 18 C8 1C 48 1A 88 20 08 1E 88 98 88 1B C8 21 48 1F 48 24 88 25 48 BD 08 1F
        var frames = [[UInt8]]()
        let spy: PluginRead.Fault = { _, command, answer in
            if command.count > 15, command[0 ..< 2] == [0xFF, 0xC2], command[15] == 0x02 { frames.append(Array(command[14 ..< command.count - 1])) }
            return answer
        }
        _ = try read(try image(["1808"]), fault: spy)
        let idm: [UInt8] = [0x01, 0x2E, 0x4C, 0xD8, 0xA1, 0xB2, 0xC3, 0xD4]
        XCTAssertEqual(frames, [[0x25, 0x02] + idm + [0x0D, 0x08, 0x18, 0xC8, 0x1C, 0x48, 0x1A, 0x88, 0x20, 0x08, 0x1E, 0x88, 0x98,
                                                      0x88, 0x1B, 0xC8, 0x21, 0x48, 0x1F, 0x48, 0x24, 0x88, 0x25, 0x48, 0xBD, 0x08, 0x1F]])
    }
}

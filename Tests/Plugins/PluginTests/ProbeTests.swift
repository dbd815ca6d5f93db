import CardSimulation
import TestSupport
import TransitModel
import XCTest

/// Probing in the default plugins.conf order (issue 34): cepas, ksx6924 and china-city say "not
/// this card" without an exchange when the card's historical bytes are `80` alone, as a DESFire
/// card's are (docs/research/pcsc.md §"Historical bytes"); each family's cards with their real
/// ATRs (pcsc-tools' smartcard_list.txt) still read.
final class ProbeTests: XCTestCase {
    /// The commands of a read in the default order, the host's FF CA first, and the reading.
    func read(_ image: CardImage, plugins: [PluginRead.Plugin] = PluginRead.Plugin.defaultOrder) throws -> (PluginRead.Outcome, [String]) {
        var commands = [String]()
        let outcome = try PluginRead.read(image, plugins: plugins) { _, command, answer in
            commands.append(command.map { String(format: "%02X", $0) }.joined()); return answer
        }
        return (outcome, commands)
    }

    func sample(_ name: String, historicalBytes: String?) throws -> CardImage {
        var image = try CardImages.sample(name)
        image.iso7816?.historicalBytes = historicalBytes
        return image
    }

    /// T-Union's SELECT (its AID A0 00 00 06 32 01 01 05, Le 00), the one probe a DESFire card still gets.
    static let tunionSelect = "00A4040008A00000063201010500"

    func testADESFireCardGetsOneProbeBeforeTheDesfirePlugin() throws {
        // Own APDUs of each card (Get Application IDs, selects, reads), as OpalTests and the others count them.
        for (name, family, own) in [("opal.json", "opal", 3), ("clipper.json", "clipper", 17), ("orca.json", "orca", 10), ("hsl.json", "hsl", 7)] {
            let image = try CardImages.sample(name)
            XCTAssertEqual(image.iso7816?.historicalBytes, "80", "\(name) has DESFire's ATR, 3B 81 80 01 80 80")
            let (outcome, commands) = try read(image)
            XCTAssertEqual(outcome.reading?.family, family, "\(name): \(String(describing: outcome.error))")
            XCTAssertEqual(Array(commands.prefix(3)), ["FFCA000000", Self.tunionSelect, "906A000000"], name)
            XCTAssertEqual(commands.count - 1, 1 + own, "\(name): T-Union's SELECT and the card's own")
            XCTAssertEqual(outcome.bundle.plugins.map(\.name), ["cepas", "ksx6924", "tunion", "desfire"], name)
        }
    }

    func testAnISOCardShowingNoApplicationDataIsNotSentTheirSelects() throws {
        // An EZ-Link's purse behind DESFire's historical bytes: cepas does not ask it.
        let (cepas, sent) = try read(try sample("ezlink.json", historicalBytes: "80"), plugins: [.cepas])
        XCTAssertEqual(cepas.error?.kind, .tagNotSupported)
        XCTAssertEqual(sent, ["FFCA000000"], "no exchange after the UID")
        let (ksx, ksxSent) = try read(try sample("tmoney.json", historicalBytes: "80"), plugins: [.ksx6924])
        XCTAssertEqual(ksx.error?.kind, .tagNotSupported)
        XCTAssertEqual(ksxSent, ["FFCA000000"])
        let (city, citySent) = try read(try sample("beijing.json", historicalBytes: "80"), plugins: [.chinaCity])
        XCTAssertEqual(city.error?.kind, .tagNotSupported)
        XCTAssertEqual(citySent, ["FFCA000000"])
        // T-Union has no rule (no real T-Union ATR is on record): its card is read all the same,
        // cepas and ksx6924 asking nothing first.
        let (tunion, tunionSent) = try read(try sample("tunion.json", historicalBytes: "80"))
        XCTAssertEqual(tunion.reading?.family, "tunion", "\(String(describing: tunion.error))")
        XCTAssertEqual(tunionSent[1], Self.tunionSelect)
        XCTAssertEqual(tunionSent.count - 1, 14, "T-Union's own APDUs only")
    }

    /// A DESFire card none of the desfire families reads (as an Oyster or PRESTO card): no row of
    /// ISO SELECTs from cepas, ksx6924 or china-city; T-Union's and Calypso's probes remain.
    func testAnUnreadDESFireCardIsSparedTheRulingFamiliesProbes() throws {
        var image = try CardImages.sample("opal.json")
        image.iso7816?.desfire?.applications[0].aid = "112233"
        let (outcome, commands) = try read(image)
        XCTAssertEqual(outcome.error?.kind, .tagNotSupported)
        XCTAssertFalse(commands.contains("00A40000024000"), "cepas's SELECT 4000")
        XCTAssertFalse(commands.contains { $0.hasPrefix("00A40400") && $0.contains("D41000") }, "ksx6924's AIDs")
        XCTAssertFalse(commands.contains("00B0840020"), "china-city's Beijing MF read")
        XCTAssertEqual(commands.first { $0.hasPrefix("00A4") }, Self.tunionSelect)
    }

    /// Each family's card with a real ATR of its kind reads as it does with the simulator's default
    /// bytes, in the same number of APDUs.
    func testCardsWithTheirRealATRsReadAsBefore() throws {
        let cases: [(sample: String, historical: String, family: String, counted: Int)] = [
            ("ezlink.json", "1C2D9411F7718500", "cepas", 3),            // CEPAS, EZ-Link: 3B 88 80 01 1C 2D 94 11 F7 71 85 00 BE
            ("ezlink.json", "50D5404F231C0000117781", "cepas", 3),      // CEPAS in ACS's form: 3B 8C 80 01 50 D5 40 4F …
            ("tmoney.json", "040200200071C140", "ksx6924", 8),          // Seoul Citypass+ T-Money: 3B 88 80 01 04 02 00 20 …
            ("tmoney.json", "030202110000", "ksx6924", 8),              // Cashbee: 3B 86 80 01 03 02 02 11 00 00 15
            ("beijing.json", "4858", "china-city", 22),                 // Yikatong BMAC: 3B 82 80 01 48 58 13
            ("shanghai.json", "2085008B030FE09AA0E040", "china-city", 24), // Shanghai Public Transportation Card
        ]
        for c in cases {
            let (outcome, commands) = try read(try sample(c.sample, historicalBytes: c.historical))
            XCTAssertEqual(outcome.reading?.family, c.family, "\(c.sample) \(c.historical): \(String(describing: outcome.error))")
            XCTAssertEqual(commands.count - 1, c.counted, "\(c.sample) \(c.historical)")
        }
    }
}

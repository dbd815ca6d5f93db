import CardProtocol
import CardSimulation
import TestSupport
import TransitModel
import XCTest

/// Calypso cards through the calypso library in the plugin worker. Expected values are the ones
/// scripts/make_calypso_samples.py writes down in human terms (dates, zones, trips), not the
/// plugin's output.
final class CalypsoTests: XCTestCase {
    /// INS bytes of Calypso commands that change the card or open the way to it (Eclipse Keyple
    /// `CardCommandRef`): Open/Close/Manage Secure Session 8A 8E 82, Update/Write/Append Record DC D2
    /// E2, Update/Write Binary D6 D0, Increase/Decrease (Multiple) 32 30 3A 38, Change Key/PIN D8,
    /// Verify PIN 20, Get Challenge 84, SV Get/Debit/Reload/Undebit 7C BA B8 BC, Invalidate 04,
    /// Rehabilitate 44.
    static let forbidden: Set<UInt8> = [0x8A, 0x8E, 0x82, 0xDC, 0xD2, 0xE2, 0xD6, 0xD0, 0x32, 0x30, 0x3A, 0x38, 0xD8, 0x20,
                                        0x84, 0x7C, 0xBA, 0xB8, 0xBC, 0x04, 0x44]
    /// What the plugin sends: SELECT and READ RECORD only.
    static let allowed: Set<UInt8> = [0xA4, 0xB2]

    struct Read {
        let reading: CardReading
        /// The plugin's commands (the host's FF CA left out) and their status words.
        let commands: [(command: [UInt8], sw: String)]
        /// Commands that count against the budget: not the "not here" probes (6A82, 6D00, 6E00).
        var counted: Int { commands.filter { !["6A82", "6D00", "6E00"].contains($0.sw) }.count }
    }

    func read(_ sample: String, plugins: [PluginRead.Plugin] = [.calypso], file: StaticString = #filePath, line: UInt = #line) throws -> Read {
        let outcome = try PluginRead.read(CardImages.sample(sample), plugins: plugins)
        let reading = try XCTUnwrap(outcome.reading, "\(String(describing: outcome.error)) \(outcome.log)", file: file, line: line)
        let commands = outcome.bundle.exchanges.compactMap { e -> ([UInt8], String)? in
            guard let c = HexFormat.bytes(e.command, ignoringSpaces: true), c.count >= 2, c[0] != 0xFF else { return nil }
            return (c, String((e.response ?? "").filter { !$0.isWhitespace }.suffix(4)).uppercased())
        }
        for (c, _) in commands {
            XCTAssertFalse(Self.forbidden.contains(c[1]), "card-changing INS \(HexFormat.string([c[1]]))", file: file, line: line)
            XCTAssertTrue(Self.allowed.contains(c[1]), "INS \(HexFormat.string([c[1]])) sent", file: file, line: line)
        }
        return Read(reading: reading, commands: commands.map { (command: $0.0, sw: $0.1) })
    }

    func testNavigoMonthlyPassCarnetAndValidationsEitherSideOfTheChangeToWinterTime() throws {
        let read = try read("navigo.json")
        let r = read.reading
        XCTAssertEqual(r.family, "calypso")
        XCTAssertEqual(r.cardName, "Navigo")
        XCTAssertEqual(r.serialNumber, "439041101", "decimal of the serial's last 4 bytes 1A2B3C4D")
        XCTAssertNil(r.balance, "no stored value")
        XCTAssertEqual(r.currency, "EUR")
        XCTAssertEqual(r.validUntil?.description, "2031-06-30")
        XCTAssertEqual(r.metadata["network"], "250901")
        XCTAssertEqual(r.metadata["personal.surname"], "DUPONT")
        XCTAssertEqual(r.metadata["personal.birthDate"], "1985-04-12")

        // Validations newest first; the special event (2026-11-20) between them by time.
        XCTAssertEqual(r.transactions.map { $0.date?.description }, [
            "2026-12-01T08:15:00+01:00", "2026-11-20T17:05:00+01:00",
            "2026-10-25T03:10:00+01:00", "2026-10-25T01:50:00+02:00",
        ])
        XCTAssertEqual(r.transactions.map(\.type), [.trip, .trip, .trip, .trip])
        XCTAssertEqual(r.transactions.map(\.entryStation), ["03C5", "0789", "1A20", "0456"])
        XCTAssertEqual(r.transactions.map { $0.metadata["route"] }, ["14", "4", "38", "38"])
        XCTAssertEqual(r.transactions.map { $0.metadata["contractPointer"] }, ["1", "1", "2", "2"])
        XCTAssertEqual(r.transactions.map { $0.metadata["network"] }, ["250901", "250901", "250901", "250901"])
        XCTAssertEqual(r.transactions[1].metadata["event"], "special")
        XCTAssertEqual(r.transactions[1].amount, 150, "1.50 charged")
        XCTAssertNil(r.transactions[0].amount)

        XCTAssertEqual(r.passes.count, 2)
        let monthly = r.passes[0], carnet = r.passes[1]
        XCTAssertEqual(monthly.tariff, "0FF1")
        XCTAssertEqual(monthly.validFrom?.description, "2026-12-01")
        XCTAssertEqual(monthly.validUntil?.description, "2026-12-31")
        XCTAssertEqual(monthly.zones, "1-5")
        XCTAssertNil(monthly.remainingTrips)
        XCTAssertEqual(monthly.status, .valid)
        XCTAssertEqual(monthly.metadata["price"], "86.40")
        XCTAssertEqual(carnet.tariff, "0FF2")
        XCTAssertEqual(carnet.remainingTrips, 7, "counter 1C0ABC >> 18")
        XCTAssertEqual(carnet.validFrom?.description, "2026-09-14")
        XCTAssertEqual(carnet.metadata["price"], "16.90")

        // SELECT, environment, contract list, contracts, counters, event log, special events: one
        // multi-record READ RECORD a file.
        XCTAssertEqual(read.commands.count, 7)
        XCTAssertLessThanOrEqual(read.counted, 20)
        XCTAssertTrue(read.commands.dropFirst().allSatisfy { $0.command[3] & 0x07 == 0x05 }, "every read is of all records")
    }

    func testACardOfClass94OnlyThatAnswersNothingToLeZeroIsReadWithKnownLengths() throws {
        let read = try read("navigo-cla94.json")
        let r = read.reading
        XCTAssertEqual(r.cardName, "Navigo")
        XCTAssertEqual(r.serialNumber, "185339150", "0B0C0D0E")
        XCTAssertEqual(r.transactions.map { $0.date?.description }, ["2026-11-03T07:45:00+01:00"])
        XCTAssertEqual(r.transactions.first?.entryStation, "0101")
        XCTAssertEqual(r.transactions.first?.metadata["route"], "1")
        XCTAssertEqual(r.passes.map(\.tariff), ["0FF1"])
        XCTAssertEqual(r.passes.first?.validFrom?.description, "2026-11-01")
        XCTAssertEqual(r.passes.first?.validUntil?.description, "2026-11-30")
        XCTAssertEqual(r.passes.first?.zones, "1-2")
        // The first SELECT with CLA 00 answers 6E00; everything after is CLA 94.
        XCTAssertEqual(read.commands.first?.command.first, 0x00)
        XCTAssertEqual(read.commands.first?.sw, "6E00")
        XCTAssertTrue(read.commands.dropFirst().allSatisfy { $0.command[0] == 0x94 })
        // After the empty answer, every READ RECORD asks for 29 bytes.
        let reads = read.commands.filter { $0.command[1] == 0xB2 }
        XCTAssertEqual(reads.first?.command.last, 0x00)
        XCTAssertTrue(reads.dropFirst().allSatisfy { $0.command.last == 0x1D })
        XCTAssertLessThanOrEqual(read.counted, 20)
    }

    func testKorriGoWithoutOptionalFilesAndOneRecordACommand() throws {
        let read = try read("korrigo.json")
        let r = read.reading
        XCTAssertEqual(r.cardName, "KorriGo")
        XCTAssertEqual(r.serialNumber, "3735928559", "DEADBEEF")
        XCTAssertEqual(r.metadata["network"], "250908")
        XCTAssertEqual(r.passes.count, 1)
        XCTAssertEqual(r.passes.first?.tariff, "0200")
        XCTAssertEqual(r.passes.first?.validFrom?.description, "2026-11-02")
        XCTAssertEqual(r.passes.first?.zones, "1-2")
        XCTAssertEqual(r.passes.first?.remainingTrips, 4, "its own counter file 0A: 4 trips, 1 a trip")
        XCTAssertEqual(r.passes.first?.metadata["price"], "14.50")
        XCTAssertEqual(r.transactions.map { $0.date?.description }, ["2026-11-28T12:34:00+01:00"])
        XCTAssertEqual(r.transactions.first?.entryStation, "00AB")
        XCTAssertEqual(r.transactions.first?.metadata["route"], "57")
        XCTAssertEqual(r.transactions.first?.metadata["network"], "250908")
        // Files 19 and 1D answer 6A82: asked, absent, no error.
        XCTAssertEqual(read.commands.filter { $0.sw == "6A82" }.map { $0.command[3] >> 3 }, [0x19, 0x1D])
        XCTAssertLessThanOrEqual(read.counted, 20)
    }

    func testAnEventOrContractThatDoesNotFitItsLayoutIsKeptRawAndTheRestRead() throws {
        // All-FF records: every bitmap says every field is present, which runs past 29 bytes.
        let ff = String(repeating: "FF", count: 29)
        var image = try CardImages.sample("navigo.json")
        image.editApplication(select: "00A4040008315449432E49434100") {
            $0.records?["08"]?[1] = ff
            $0.records?["09"]?[1] = ff
        }
        let outcome = try PluginRead.read(image, plugins: [.calypso])
        let r = try XCTUnwrap(outcome.reading, "\(String(describing: outcome.error))")
        XCTAssertEqual(r.transactions.count, 4)
        XCTAssertEqual(r.transactions.last?.type, .unknown)
        XCTAssertEqual(r.transactions.last?.rawPayload, ff)
        XCTAssertEqual(r.transactions.first?.date?.description, "2026-12-01T08:15:00+01:00")
        XCTAssertEqual(r.passes.map(\.tariff), ["0FF1", "0FF2"])
        XCTAssertEqual(r.passes.first?.zones, "1-5")
        XCTAssertEqual(r.passes.last?.metadata["raw"], ff)
    }

    func testABlankMOBIBIsANamedCardWithItsPrintedNumberAndNoPasses() throws {
        let read = try read("mobib-blank.json")
        XCTAssertEqual(read.reading.cardName, "MOBIB")
        // The environment's BCD serial from bit 98, printed 6 / 6+4+2 / 1 as Metrodroid prints MOBIB
        // (MobibTransitData.getSerial); the generator writes the digits 6396530001234567894.
        XCTAssertEqual(read.reading.serialNumber, "639653 / 000123456789 / 4")
        XCTAssertEqual(read.reading.validUntil?.description, "2030-12-31")
        XCTAssertEqual(read.reading.metadata["network"], "056001")
        XCTAssertEqual(read.reading.passes, [])
        XCTAssertEqual(read.reading.transactions, [])
        XCTAssertEqual(read.commands.count, 2, "SELECT and the environment")
    }

    static let select = "00A4040008315449432E49434100"

    func testACardRefusingThePartialNameIsSelectedByTheNavigoRev3AID() throws {
        // Navigo Rev 3 / HCE: full DF name A0 00 00 04 04 01 25 09 01 01 (docs/research/calypso-desfire-china.md §"Calypso selection").
        var image = try CardImages.sample("navigo.json")
        image.editApplication(select: Self.select) { $0.select = "00A404000AA000000404012509010100" }
        let outcome = try PluginRead.read(image, plugins: [.calypso])
        XCTAssertEqual(outcome.reading?.cardName, "Navigo", "\(String(describing: outcome.error))")
        XCTAssertEqual(outcome.reading?.passes.count, 2)
        XCTAssertEqual(outcome.bundle.exchanges.filter { $0.response == "6A82" }.map(\.command), [Self.select])
    }

    func testTheContractListIsACountThenThatManyEntries() throws {
        // EN 1545 repeat (Metrodroid En1545Repeat: the 4-bit counter first). A count of 1 before
        // two entries' worth of bits: only the first entry is a pass; the bits after it are not read.
        // 0001 · 110 (tariff, pointer) · 0FF1 · 00001 · 110 · 0FF2 · 00010
        var bits = "0001" + "110" + "0000111111110001" + "00001" + "110" + "0000111111110010" + "00010"
        bits += String(repeating: "0", count: 29 * 8 - bits.count)
        let bytes = stride(from: 0, to: bits.count, by: 8).map { i -> UInt8 in
            let chunk = bits.dropFirst(i).prefix(8)
            return UInt8(chunk, radix: 2) ?? 0
        }
        var image = try CardImages.sample("navigo.json")
        image.editApplication(select: Self.select) { $0.records?["1E"] = [HexFormat.string(bytes)] }
        let r = try XCTUnwrap(PluginRead.read(image, plugins: [.calypso]).reading)
        XCTAssertEqual(r.passes.map(\.tariff), ["0FF1"])
        XCTAssertEqual(r.passes.first?.validFrom?.description, "2026-12-01")
    }

    func testNetworksAreNamedFromTheirIDs() throws {
        // Environments from scripts/make_calypso_samples.py's environment(): version 1, network, issuer
        // 03, validity end 2030-01-01. 000001 0000111 <network 24 bits> 00000011 …
        let environments = [
            "04392802B81DE2A0000000000000000000000000000000000000000000": ("Intercode (France) 057", "250057"), // Lyon TCL
            "04389880081DE2A0000000000000000000000000000000000000000000": ("Calypso", "131001"), // not Intercode: raw
        ]
        for (record, (name, network)) in environments {
            var image = try CardImages.sample("navigo.json")
            image.editApplication(select: Self.select) { $0.records?["07"] = [record] }
            let r = try XCTUnwrap(PluginRead.read(image, plugins: [.calypso]).reading, name)
            XCTAssertEqual(r.cardName, name)
            XCTAssertEqual(r.metadata["network"], network)
            XCTAssertEqual(r.serialNumber, "439041101")
        }
    }

    func testMutatedAnswersEndInAReadingOrAnError() throws {
        // Untrusted radio input: a byte of one answer changed, or an answer cut short, never traps,
        // and keeps ReadProperty's properties: a reading or an error a card can cause, never
        // internal or plugin; no balance (Navigo holds none: any would be invented); no date outside
        // 1980-2100; at most twice the exchanges of the whole card's read.
        var random = SplitMix64(seed: 0x4341_4C59_5053_4F)
        let image = try CardImages.sample("navigo.json")
        let whole = try PluginRead.read(image, plugins: [.calypso], runner: .inProcess)
        XCTAssertNil(whole.reading?.balance)
        for _ in 0 ..< 400 {
            let mutation = AnswerMutation(&random, exchanges: 7)
            let outcome = try PluginRead.read(image, plugins: [.calypso], fault: mutation.fault, runner: .inProcess)
            XCTAssertEqual(ReadProperty.broken(outcome, purse: { _ in nil }, exchanges: 2 * whole.exchanges), [])
        }
    }

    func testCalypsoCardsAreFoundBehindEveryOtherFamily() throws {
        for sample in ["navigo.json", "navigo-cla94.json", "korrigo.json", "mobib-blank.json"] {
            let outcome = try PluginRead.read(CardImages.sample(sample), plugins: PluginRead.Plugin.defaultOrder)
            XCTAssertEqual(outcome.reading?.family, "calypso", "\(sample): \(String(describing: outcome.error))")
        }
    }

    func testACardWithoutTheTicketingApplicationIsNotCalypso() throws {
        let outcome = try PluginRead.read(CardImages.sample("unknown-iso.json"), plugins: [.calypso])
        XCTAssertNil(outcome.reading)
        XCTAssertEqual(outcome.error?.kind, .tagNotSupported)
    }
}

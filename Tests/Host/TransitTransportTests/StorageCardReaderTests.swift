import XCTest
import CardProtocol
import TransitModel
import TransitTransport

/// MIFARE Classic and Ultralight through each reader family's storage-card commands, checked against
/// the byte vectors of the readers' manuals: ACS ACR122T API v2.02 p.12-16 (Load Keys `FF 82 00 00 06
/// FF FF FF FF FF FF`, General Authenticate `FF 86 00 00 05 01 00 04 60 00`, Read Binary `FF B0 00 04
/// 10`), HID's mifare-sample (`FF 82 20 00 06 …`, key number 00), Identiv uTrust 3720F §6.2.3-6.2.4
/// (`FF 82 00 60 06 …`, then General Authenticate naming key number 01).
final class StorageCardReaderTests: XCTestCase {
    /// PC/SC Part 3 storage-card ATRs: standard 03 (ISO 14443 A part 3), card names 00 01 and 00 03.
    static let classic1K: [UInt8] = [0x3B, 0x8F, 0x80, 0x01, 0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x6A]
    static let ultralight: [UInt8] = [0x3B, 0x8F, 0x80, 0x01, 0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06, 0x03, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x68]
    static let ok: [UInt8] = [0x90, 0x00]
    static let failed: [UInt8] = [0x63, 0x00]
    static let factory: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
    static let madeUp: [UInt8] = [0x4A, 0x2B, 0x1C, 0x0D, 0x5E, 0x6F]

    private func session(_ reader: String, _ atr: [UInt8], _ answers: [[UInt8]], keys: [[UInt8]] = []) throws -> (CardSession, ListChannel) {
        let channel = ListChannel(reader: reader, atr: atr, answers: [[0x01, 0x02, 0x03, 0x04] + Self.ok] + answers)
        let ring = ClassicKeyRing(keys.enumerated().map { .init($1, source: "test.keys line \($0 + 1)") })
        let session = CardSession(channel: channel, dialect: nil, deadline: .distant, keys: ring)
        XCTAssertEqual(try session.identify(), atr == Self.classic1K ? .mifareClassic : .mifareUltralight)
        return (session, channel)
    }

    func testAnACR122UOpensASectorWithTheManualsCommands() throws {
        let block = [UInt8](repeating: 0x11, count: 16)
        let (session, channel) = try session("ACS ACR122U PICC Interface 00 00", Self.classic1K,
                                             [Self.ok, Self.ok, block + Self.ok, block + Self.ok, block + Self.ok])
        let data = try XCTUnwrap(session.storage?.sector(1))
        XCTAssertEqual(data.count, 48, "the three data blocks; the trailer is never read")
        XCTAssertEqual(Array(channel.commands.dropFirst()), [
            [0xFF, 0x82, 0x00, 0x00, 0x06] + Self.factory,
            [0xFF, 0x86, 0x00, 0x00, 0x05, 0x01, 0x00, 0x04, 0x60, 0x00],
            [0xFF, 0xB0, 0x00, 0x04, 0x10], [0xFF, 0xB0, 0x00, 0x05, 0x10], [0xFF, 0xB0, 0x00, 0x06, 0x10],
        ])
        XCTAssertEqual(session.storage?.authentications, 1)
        // Asked again, by this plugin or the next: no exchange.
        _ = try session.storage?.sector(1)
        XCTAssertEqual(channel.commands.count, 6)
    }

    func testAnACR1252UReadsTheThreeDataBlocksInOneCommand() throws {
        let (session, channel) = try session("ACS ACR1252 Dual Reader [ACR1252 Dual Reader PICC] 00 00", Self.classic1K,
                                             [Self.ok, Self.ok, [UInt8](repeating: 0x22, count: 48) + Self.ok])
        XCTAssertEqual(try session.storage?.sector(0)?.count, 48)
        XCTAssertEqual(channel.commands.last, [0xFF, 0xB0, 0x00, 0x00, 0x30], "48 bytes: ACM1252U-Y3 §5.2.4.3")
    }

    func testAnOMNIKEYLoadsTheKeyInItsOwnForm() throws {
        let (session, channel) = try session("HID Global OMNIKEY 5022 Smart Card Reader 00 00", Self.classic1K,
                                             [Self.ok, Self.ok] + Array(repeating: [UInt8](repeating: 0, count: 16) + Self.ok, count: 3),
                                             keys: [Self.madeUp])
        _ = try session.storage?.sector(2)
        XCTAssertEqual(channel.commands[1], [0xFF, 0x82, 0x20, 0x00, 0x06] + Self.madeUp)
        XCTAssertEqual(channel.commands[2], [0xFF, 0x86, 0x00, 0x00, 0x05, 0x01, 0x00, 0x08, 0x60, 0x00])
    }

    func testAnIdentivReaderLoadsByKeyTypeAndAuthenticatesWithKeyNumberOne() throws {
        let (session, channel) = try session("Identiv uTrust 3700 F CL Reader 00 00", Self.classic1K,
                                             (0 ..< 5).flatMap { _ in [Self.ok, Self.failed] } // the key brought and 4 generic ones, as key A: refused
                                             + [Self.ok, Self.ok] // the key brought, loaded as type 61: opens
                                             + Array(repeating: [UInt8](repeating: 0, count: 16) + Self.ok, count: 3),
                                             keys: [Self.madeUp])
        XCTAssertNotNil(try session.storage?.sector(1))
        XCTAssertEqual(channel.commands[1], [0xFF, 0x82, 0x00, 0x60, 0x06] + Self.madeUp)
        XCTAssertEqual(channel.commands[2], [0xFF, 0x86, 0x00, 0x00, 0x05, 0x01, 0x00, 0x04, 0x60, 0x01])
        // The generic keys are tried as key A before any key B: skip to the first key B.
        let keyB = try XCTUnwrap(channel.commands.firstIndex { $0.count == 11 && $0[3] == 0x61 })
        XCTAssertEqual(channel.commands[keyB], [0xFF, 0x82, 0x00, 0x61, 0x06] + Self.madeUp)
        XCTAssertEqual(channel.commands[keyB + 1], [0xFF, 0x86, 0x00, 0x00, 0x05, 0x01, 0x00, 0x04, 0x61, 0x01])
    }

    func testAnUnknownReaderIsProbedOnceForItsForm() throws {
        // ACS form refused (6A 86: wrong P1 P2), ACS session key's and OMNIKEY's refused, Identiv's taken.
        let (session, channel) = try session("Some Reader 00 00", Self.classic1K,
                                             [[0x6A, 0x86], [0x6A, 0x86], [0x6A, 0x86], Self.ok, Self.ok]
                                             + Array(repeating: [UInt8](repeating: 0, count: 16) + Self.ok, count: 3)
                                             + [Self.ok] + Array(repeating: [UInt8](repeating: 0, count: 16) + Self.ok, count: 3),
                                             keys: [Self.madeUp])
        _ = try session.storage?.sector(0)
        _ = try session.storage?.sector(1)
        let loads = channel.commands.filter { $0.starts(with: [0xFF, 0x82]) }
        XCTAssertEqual(loads.map { Array($0.prefix(4)) }, [[0xFF, 0x82, 0x00, 0x00], [0xFF, 0x82, 0x00, 0x20], [0xFF, 0x82, 0x20, 0x00], [0xFF, 0x82, 0x00, 0x60]],
                       "one probe, then the loaded key serves sector 1 without another Load Keys")
    }

    /// ACM1281U-C7 reference manual v1.02 §5.1.3.1, example 1: `FF 82 00 20 06 FF FF FF FF FF FF`
    /// loads the volatile session key 20; General Authenticate names key number 20 (ACR1283L
    /// reference manual v1.00 p.22).
    func testAnACR1281UTakesItsKeyAsTheVolatileSessionKey() throws {
        let (session, channel) = try session("ACS ACR1281 1S Dual Reader [ACR1281 1S Dual Reader PICC] 00 00", Self.classic1K,
                                             [Self.ok, Self.ok] + Array(repeating: [UInt8](repeating: 0, count: 16) + Self.ok, count: 3))
        XCTAssertNotNil(try session.storage?.sector(1))
        XCTAssertEqual(channel.commands[1], [0xFF, 0x82, 0x00, 0x20, 0x06, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        XCTAssertEqual(channel.commands[2], [0xFF, 0x86, 0x00, 0x00, 0x05, 0x01, 0x00, 0x04, 0x60, 0x20])
    }

    func testAReaderThatRefusesItsTablesFormIsProbedForAnotherAndItIsRemembered() throws {
        // A reader named as an ACR122U whose firmware answers 63 00 to the ACS forms ("Other =
        // Reserved") and takes OMNIKEY's: the other forms once, then that one for the process.
        let name = "ACS ACR122U PICC Interface (a reader that refuses its table's form) 00 00"
        let data = Array(repeating: [UInt8](repeating: 0, count: 16) + Self.ok, count: 3)
        let (first, channel) = try session(name, Self.classic1K, [Self.failed, Self.failed, Self.ok, Self.ok] + data, keys: [Self.madeUp])
        XCTAssertNotNil(try first.storage?.sector(1))
        XCTAssertEqual(channel.commands.filter { $0.starts(with: [0xFF, 0x82]) }.map { Array($0.prefix(4)) },
                       [[0xFF, 0x82, 0x00, 0x00], [0xFF, 0x82, 0x00, 0x20], [0xFF, 0x82, 0x20, 0x00]])
        XCTAssertEqual(channel.commands[4], [0xFF, 0x86, 0x00, 0x00, 0x05, 0x01, 0x00, 0x04, 0x60, 0x00])
        // The next card on that reader: OMNIKEY's form at once.
        let (next, again) = try session(name, Self.classic1K, [Self.ok, Self.ok] + data, keys: [Self.madeUp])
        XCTAssertNotNil(try next.storage?.sector(1))
        XCTAssertEqual(again.commands[1], [0xFF, 0x82, 0x20, 0x00, 0x06] + Self.madeUp)
    }

    /// Issue 42's budget, 3 × the sectors asked for + the keys at hand (the file's and 4 generic
    /// ones), holds when no key opens any sector, however long the key file.
    func testLockedSectorsSpendNoMoreThanTheBudgetWhateverTheKeyFile() throws {
        let keys: [[UInt8]] = (0 ..< 100).map { n in [0x5A, 0x5B, 0x5C, 0x5D, UInt8(n / 256), UInt8(n % 256)] }
        let channel = RuleChannel(reader: "ACS ACR122U", atr: Self.classic1K) { apdu in
            apdu.starts(with: [0xFF, 0xCA]) ? [0x01, 0x02, 0x03, 0x04, 0x90, 0x00] : apdu.starts(with: [0xFF, 0x82]) ? Self.ok : Self.failed
        }
        let ring = ClassicKeyRing(keys.enumerated().map { .init($1, source: "big.keys line \($0 + 1)") })
        let session = CardSession(channel: channel, dialect: nil, deadline: .distant, keys: ring)
        XCTAssertEqual(try session.identify(), .mifareClassic)
        for n in [1, 2, 3] { XCTAssertNil(try session.storage?.sector(n), "sector \(n)") }
        XCTAssertEqual(session.storage?.lockedSectors, [1, 2, 3])
        XCTAssertEqual(session.storage?.authentications, 3 * 3 + 100 + 4)
        XCTAssertEqual(channel.commands.filter { $0.starts(with: [0xFF, 0x86]) }.count, 3 * 3 + 100 + 4)
    }

    func testTheKeyThatOpenedTheLastSectorIsTriedFirstThenTheNextInTheFile() throws {
        // Keys k0, k1, k2 open sectors 0, 1, 2: the file lists them in sector order.
        let keys: [[UInt8]] = (0 ..< 3).map { n in [0xA0, 0xB0, 0xC0, 0xD0, 0xE0, UInt8(n)] }
        var answers = [[UInt8]]()
        let data = Array(repeating: [UInt8](repeating: 0, count: 16) + Self.ok, count: 3)
        answers += [Self.ok, Self.ok] + data // sector 0: k0 opens
        answers += [Self.failed, Self.ok, Self.ok] + data // sector 1: k0 (loaded) fails, k1 opens
        answers += [Self.failed, Self.ok, Self.ok] + data // sector 2: k1 fails, k2 opens
        let (session, _) = try session("ACS ACR122U", Self.classic1K, answers, keys: keys)
        for n in 0 ..< 3 { XCTAssertNotNil(try session.storage?.sector(n)) }
        XCTAssertEqual(session.storage?.authentications, 5, "1 + 2 + 2: within 3 × sectors + keys + 4")
    }

    func testASectorNoKeyOpensIsLockedAndTheKeyDigestNeedsTheOpeningKey() throws {
        let refusals = Array(repeating: [[UInt8]]([Self.ok, Self.failed]), count: 2 * 5).flatMap { $0 } // 5 keys, A then B
        let (session, _) = try session("ACS ACR122U", Self.classic1K, refusals, keys: [Self.madeUp])
        XCTAssertNil(try session.storage?.sector(3))
        XCTAssertEqual(session.storage?.lockedSectors, [3])
        XCTAssertNil(try session.storage?.keyMatches(sector: 3, salt: "troika", digests: []), "locked: nothing to match, no exchange")
    }

    func testTheKeyDigestMatchesOnlyTheKeyThatOpenedTheSector() throws {
        let key: [UInt8] = [0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6]
        let (session, _) = try session("ACS ACR122U", Self.classic1K,
                                       [Self.ok, Self.ok] + Array(repeating: [UInt8](repeating: 0, count: 16) + Self.ok, count: 3), keys: [key])
        // hashlib: md5(b"troika" + key + b"troika") (MD5Tests).
        XCTAssertEqual(try session.storage?.keyMatches(sector: 1, salt: "troika", digests: ["2D2D15E22129A559FFD3C07BB7DB8DF7"]), true)
        XCTAssertEqual(try session.storage?.keyMatches(sector: 1, salt: "charlie", digests: ["2d2d15e22129a559ffd3c07bb7db8df7"]), false)
    }

    func testUltralightPagesAreReadFourAtATime() throws {
        let pages = (0 ..< 16).map { UInt8($0) }
        let (session, channel) = try session("ACS ACR122U", Self.ultralight, [pages + Self.ok, pages + Self.ok, pages + Self.ok])
        XCTAssertEqual(try session.storage?.pages(4, count: 12).count, 48)
        XCTAssertEqual(Array(channel.commands.dropFirst()), [[0xFF, 0xB0, 0x00, 0x04, 0x10], [0xFF, 0xB0, 0x00, 0x08, 0x10], [0xFF, 0xB0, 0x00, 0x0C, 0x10]],
                       "ACR122T API p.16: Read Binary of 16 bytes from a page")
    }

    func testTheRCS300SaysInOneSentenceThatItCannotOpenClassicSectors() throws {
        let channel = ListChannel(reader: "SONY FeliCa RC-S300/P 00 00", atr: Self.classic1K, answers: [])
        let session = CardSession(channel: channel, dialect: nil, deadline: .distant)
        XCTAssertThrowsError(try session.identify()) { error in
            let e = error as? TransitError
            XCTAssertEqual(e?.kind, .readerUnsupported)
            XCTAssertTrue(e?.message.hasPrefix("the Sony RC-S300 cannot open MIFARE Classic sectors") == true, e?.message ?? "")
        }
        XCTAssertTrue(channel.commands.isEmpty, "said before any exchange")
    }

    func testALoadKeysIsRecordedWithoutItsKey() {
        XCTAssertEqual(StorageCommand.recorded([0xFF, 0x82, 0x00, 0x00, 0x06] + Self.madeUp), "FF82000006XXXXXXXXXXXX")
        XCTAssertEqual(StorageCommand.recorded([0xFF, 0x86, 0x00, 0x00, 0x05, 0x01, 0x00, 0x04, 0x60, 0x00]), "FF860000050100046000")
    }
}

/// A reader whose answer to each command a rule gives.
final class RuleChannel: ReaderChannel {
    let readerName: String
    let atr: [UInt8]
    let rule: ([UInt8]) -> [UInt8]
    var commands = [[UInt8]]()

    init(reader: String, atr: [UInt8], rule: @escaping ([UInt8]) -> [UInt8]) {
        readerName = reader; self.atr = atr; self.rule = rule
    }

    func transmit(_ apdu: [UInt8], by deadline: Deadline) throws(TransitError) -> [UInt8] {
        commands.append(apdu)
        return rule(apdu)
    }
}

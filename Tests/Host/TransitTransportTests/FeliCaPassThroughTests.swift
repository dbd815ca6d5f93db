import TestSupport
import XCTest
import CardProtocol
import TransitModel
import TransitFiles
import TransitTransport
import TransitPCSC
import TransitStations
import TransitArchive
import TransitOutput

/// The pass-through each reader's profile asks for, on answers written from the readers' manuals.
final class FeliCaPassThroughTests: XCTestCase {
    private let felicaATR = ReaderVectors.atrs[2].atr
    private let frame = ReaderVectors.acr122uReadFrame
    private func part3Answer(_ f: [UInt8]) -> [UInt8] { [0xC0, 0x03, 0x00, 0x90, 0x00, 0x97, UInt8(f.count)] + f + [0x90, 0x00] }

    func testTheACR122UReadsInItsPN532Form() throws {
        let channel = ListChannel(reader: "ACS ACR122U PICC Interface 00 00", atr: felicaATR, answers: [ReaderVectors.acr122uAnswerPN532])
        let session = CardSession(channel: channel, dialect: nil, deadline: .distant)
        XCTAssertEqual(try session.felica(frame), ReaderVectors.acr122uAnswerFrame)
        XCTAssertEqual(channel.commands, [ReaderVectors.acr122uReadPN532])
    }

    func testAReaderNamedACR122UThatIsNotAPN532MovesOnToTheBareFrame() throws {
        // 63 00 on the first exchange is ambiguous (acsccid names its ACR1251U-A2 "ACS ACR122U"):
        // not this dialect, so the manual's other form goes next.
        let channel = ListChannel(reader: "ACS ACR122U 00 00", atr: felicaATR, answers: [[0x63, 0x00], ReaderVectors.acr122uAnswerBare])
        let session = CardSession(channel: channel, dialect: nil, deadline: .distant)
        XCTAssertEqual(try session.felica(frame), ReaderVectors.acr122uAnswerFrame)
        XCTAssertEqual(channel.commands, [ReaderVectors.acr122uReadPN532, frame])
        XCTAssertEqual(session.dialect, .bareFrame)
        XCTAssertEqual(session.refusedDialects, [.pn532])
    }

    /// On a USB reader transit drives (`ReaderProfile.ownDriver`: a line its driver adds, as
    /// TransitUSB's are) every frame reached the card: 63 00 to the first one is the card's
    /// silence, not a reader that passes none.
    func testOnAReaderOfTransitsOwnDriverTheFirstSilenceIsTheCards() throws {
        ReaderTable.add([ReaderProfile(name: "Acme OD-1", patterns: ["OD-1"], dialects: [.bareFrame], source: "this test", confidence: .guess,
                                       ownDriver: true)])
        for reader in ["ACME OD-1 (USB 1:13)"] {
            let channel = ListChannel(reader: reader, atr: felicaATR, answers: [[0x63, 0x00]])
            let session = CardSession(channel: channel, dialect: nil, deadline: .distant)
            XCTAssertThrowsError(try session.felica(frame)) { XCTAssertEqual(($0 as? TransitError)?.kind, .noAnswer, "\(reader): \($0)") }
            XCTAssertEqual(session.dialect, .bareFrame, reader)
            XCTAssertEqual(session.refusedDialects, [], reader)
        }
    }

    func testAPN532ErrorOnTheFirstExchangeIsNotThisDialect() throws {
        let channel = ListChannel(atr: felicaATR, answers: [[0xD5, 0x41, 0x02, 0x90, 0x00], part3Answer([0x02, 0x0D])])
        let session = CardSession(channel: channel, dialect: nil, firstGuess: .pn532, deadline: .distant)
        XCTAssertEqual(try session.felica([0x02, 0x0C]), [0x02, 0x0D])
        XCTAssertEqual(session.dialect, .part3)
    }

    func testTheACR1252UReadsInTheDirectTransmitOfItsLog() throws {
        let channel = ListChannel(reader: "ACS ACR1252 Reader [ACR1252 Reader PICC] 00 00", atr: felicaATR, answers: [ReaderVectors.acr1252Answer])
        let session = CardSession(channel: channel, dialect: nil, deadline: .distant)
        XCTAssertEqual(try session.felica(Array(ReaderVectors.acr1252Read.dropFirst(5))), Array(ReaderVectors.acr1252Answer.dropLast(2)))
        XCTAssertEqual(channel.commands, [ReaderVectors.acr1252Read])
    }

    func testTheRCS300GetsATransparentSessionAroundTheRead() throws {
        let channel = ListChannel(reader: "SONY FeliCa RC-S300/P (0201504) 00 00", atr: felicaATR,
                                  answers: [ReaderVectors.sessionTaken, part3Answer([0x02, 0x0D]), part3Answer([0x02, 0x0D]), ReaderVectors.sessionTaken])
        let session = CardSession(channel: channel, dialect: nil, deadline: .distant)
        XCTAssertEqual(try session.felica([0x02, 0x0C]), [0x02, 0x0D])
        XCTAssertEqual(try session.felica([0x02, 0x0C]), [0x02, 0x0D])
        session.finish(after: nil)
        XCTAssertEqual(channel.commands.first, ReaderVectors.startSession)
        XCTAssertEqual(channel.commands.last, ReaderVectors.endSession)
        XCTAssertEqual(channel.commands.count, 4, "one session for the whole read")
        XCTAssertEqual(channel.commands[1].prefix(4), [0xFF, 0xC2, 0x00, 0x01])
    }

    func testAnRCS300ThatRefusesTheSessionStillReads() throws {
        let channel = ListChannel(reader: "SONY FeliCa RC-S300/S (1469193) 00 00", atr: felicaATR, answers: [[0x6A, 0x81], part3Answer([0x02, 0x0D])])
        let session = CardSession(channel: channel, dialect: nil, deadline: .distant)
        XCTAssertEqual(try session.felica([0x02, 0x0C]), [0x02, 0x0D])
        session.finish(after: nil)
        XCTAssertEqual(channel.commands.count, 2, "no end of a session that never began")
    }

    func testNoSessionIsEndedAfterTheCardLeft() throws {
        let channel = ListChannel(reader: "SONY FeliCa RC-S300/S (1469193) 00 00", atr: felicaATR, answers: [ReaderVectors.sessionTaken, part3Answer([0x02, 0x0D])])
        let session = CardSession(channel: channel, dialect: nil, deadline: .distant)
        _ = try session.felica([0x02, 0x0C])
        session.finish(after: TransitError(.sessionLost, "gone"))
        XCTAssertEqual(channel.commands.count, 2)
    }

    func testAnIdentivReaderNeverSeesFF000000() throws {
        let reader = "Identiv uTrust 3700 F CL Reader [uTrust 3700 F CL Reader] (55021716210255) 00 00"
        let refusing = ListChannel(reader: reader, atr: felicaATR, answers: [[0x6A, 0x81], [0x6A, 0x81], [0x6A, 0x81]])
        XCTAssertThrowsError(try CardSession(channel: refusing, dialect: nil, deadline: .distant).felica(frame)) {
            XCTAssertEqual(($0 as? TransitError)?.kind, .readerUnsupported)
        }
        // Not after a refusal, not as the dialect this reader used before, not when asked for.
        let remembered = ListChannel(reader: reader, atr: felicaATR, answers: [part3Answer([0x02, 0x0D])])
        XCTAssertEqual(try CardSession(channel: remembered, dialect: nil, firstGuess: .acsDirect, deadline: .distant).felica([0x02, 0x0C]), [0x02, 0x0D])
        for dialect in [FeliCaDialect.pn532, .acsDirect] {
            let forced = ListChannel(reader: reader, atr: felicaATR, answers: [])
            XCTAssertThrowsError(try CardSession(channel: forced, dialect: dialect, deadline: .distant).felica(frame)) {
                XCTAssertEqual(($0 as? TransitError)?.kind, .usage)
                XCTAssertTrue(($0 as? TransitError)?.message.contains("PIN") == true)
            }
            XCTAssertTrue(forced.commands.isEmpty)
        }
        for command in refusing.commands + remembered.commands {
            XCTAssertFalse(command.starts(with: ReaderVectors.identivPINPrefix), HexFormat.string(command))
        }
    }

    func testAnOMNIKEYEndsTheReadNamingTheReaderWithoutAnExchange() throws {
        let reader = "HID Global OMNIKEY 5022 Smart Card Reader [OMNIKEY 5022 Smart Card Reader] 00 00"
        let channel = ListChannel(reader: reader, atr: felicaATR, answers: [])
        XCTAssertThrowsError(try CardSession(channel: channel, dialect: nil, deadline: .distant).felica(frame)) {
            let e = $0 as? TransitError
            XCTAssertEqual(e?.kind, .readerUnsupported)
            XCTAssertEqual(e?.kind.exitCode, 5)
            XCTAssertTrue(e?.message.hasPrefix(reader + " passes no FeliCa commands") == true, "\(String(describing: e))")
            XCTAssertTrue(e?.message.contains("docs/readers.md") == true)
        }
        XCTAssertTrue(channel.commands.isEmpty)
    }

    func testTheDriversMaxInputIsReadAsLibccidWritesIt() {
        // libccid answers SCARD_ATTR_MAXINPUT with dwMaxCCIDMessageLength − 10 as a 4-byte
        // little-endian number: 261 for the ACR122U (271), 54 for the TWN4 (64), 1024 for the
        // uTrust 3700 F (1034) (ccid src/ifdhandler.c; readers/*.txt).
        XCTAssertEqual(PCSCCard.maxInput(attribute: [0x05, 0x01, 0x00, 0x00]), 261)
        XCTAssertEqual(PCSCCard.maxInput(attribute: [0x36, 0x00, 0x00, 0x00]), 54)
        XCTAssertEqual(PCSCCard.maxInput(attribute: [0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]), 1024)
        for odd: [UInt8] in [[], [0x05, 0x01], [0x00, 0x00, 0x00, 0x00], [0xFF, 0xFF, 0xFF, 0xFF], [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]] {
            XCTAssertNil(PCSCCard.maxInput(attribute: odd), "\(odd)")
        }
    }

    func testTheLargestFrameComesFromTheSmallerOfDriverAndTable() throws {
        final class Sized: ReaderChannel {
            let readerName: String, atr: [UInt8], maxCommand: Int?
            init(_ name: String, _ atr: [UInt8], _ max: Int?) { readerName = name; self.atr = atr; maxCommand = max }
            func transmit(_ apdu: [UInt8], by deadline: Deadline) throws(TransitError) -> [UInt8] { [0x6A, 0x81] }
        }
        XCTAssertNil(CardSession(channel: Sized("Virtual PCD 00 00", felicaATR, nil), dialect: nil, deadline: .distant).largestFeliCaFrame)
        XCTAssertEqual(CardSession(channel: Sized("Elatec TWN4 SmartCard NFC 00 00", felicaATR, nil), dialect: nil, deadline: .distant).largestFeliCaFrame, 37)
        XCTAssertEqual(CardSession(channel: Sized("Virtual PCD 00 00", felicaATR, 54), dialect: nil, deadline: .distant).largestFeliCaFrame, 37)
        XCTAssertEqual(CardSession(channel: Sized("ACS ACR1252 Reader [ACR1252 Reader PICC] 00 00", felicaATR, 1024), dialect: nil, deadline: .distant).largestFeliCaFrame, 255)
    }
}

/// What a card is, from its ATR and the least the reader must be asked.
final class CardIdentificationTests: XCTestCase {
    private let felicaPolling: [UInt8] = [0xC0, 0x03, 0x00, 0x90, 0x00, 0x97, 0x12, 0x12, 0x01] + ReaderVectors.idm
        + [0x03, 0x00, 0x4B, 0x02, 0x4F, 0x49, 0x8A, 0x8A, 0x90, 0x00]

    func testAMemoryCardNoFamilyReadsEndsWithItsNameAndNoExchange() {
        let topaz = ReaderVectors.atrs.first { $0.kind == .storage("Topaz (NFC Forum type 1)") }?.atr ?? []
        let channel = ListChannel(atr: topaz, answers: [])
        XCTAssertThrowsError(try CardSession(channel: channel, dialect: nil, deadline: .distant).identify()) {
            XCTAssertEqual(($0 as? TransitError)?.kind, .tagNotSupported)
            XCTAssertTrue(($0 as? TransitError)?.message.contains("Topaz") == true)
        }
        XCTAssertTrue(channel.commands.isEmpty)
    }

    func testMIFAREClassicAndUltralightAreReadAsStorageCards() throws {
        for (name, technology) in [("MIFARE Classic 1K", CardTechnology.mifareClassic), ("MIFARE Ultralight", .mifareUltralight)] {
            let atr = ReaderVectors.atrs.first { $0.kind == .storage(name) }?.atr ?? []
            let channel = ListChannel(reader: "ACS ACR122U", atr: atr, answers: [[0x04, 0x11, 0x22, 0x33, 0x90, 0x00]])
            let session = CardSession(channel: channel, dialect: nil, deadline: .distant)
            XCTAssertEqual(try session.identify(), technology, name)
            XCTAssertEqual(session.uid, [0x04, 0x11, 0x22, 0x33])
            XCTAssertEqual(channel.commands, [[0xFF, 0xCA, 0x00, 0x00, 0x00]], "the UID only: the sectors wait for a plugin")
        }
    }

    func testAnATROfNoKnownFormIsFeliCaOnlyWhenPollingAnswers() throws {
        let odd = ReaderVectors.atrs.first { $0.source.contains("Nokia") }?.atr ?? []
        let felica = ListChannel(atr: odd, answers: [ReaderVectors.idm + [0x90, 0x00], felicaPolling])
        let session = CardSession(channel: felica, dialect: nil, deadline: .distant)
        XCTAssertEqual(try session.identify(), .felica)
        XCTAssertEqual(session.uid, ReaderVectors.idm)
        XCTAssertEqual(felica.commands.last?.suffix(7), [0x06, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0x00], "Polling FFFF in Part 3")
        // A 4-byte UID is no FeliCa IDm: no Polling, and the card is ISO.
        let iso = ListChannel(atr: odd, answers: [[1, 2, 3, 4, 0x90, 0x00]])
        XCTAssertEqual(try CardSession(channel: iso, dialect: nil, deadline: .distant).identify(), .iso7816)
        XCTAssertEqual(iso.commands.count, 1)
        // An 8-byte UID to which no Polling is answered in any dialect is ISO.
        let silent = ListChannel(atr: odd, answers: [ReaderVectors.idm + [0x90, 0x00], [0xC0, 0x03, 0x01, 0x64, 0x01, 0x90, 0x00]])
        XCTAssertEqual(try CardSession(channel: silent, dialect: nil, deadline: .distant).identify(), .iso7816)
    }

    func testTheSCMFormGivesTheIDmWhenFFCADoesNot() throws {
        let channel = ListChannel(reader: "SCM Microsystems Inc. SCL01x Contactless Reader 00 00", atr: ReaderVectors.scmFeliCaATR, answers: [[0x6A, 0x81]])
        let session = CardSession(channel: channel, dialect: nil, deadline: .distant)
        XCTAssertEqual(try session.identify(), .felica)
        XCTAssertEqual(session.uid, ReaderVectors.idm)
    }

    func testAnISOCardBehindAPhoneReadsThoughFFCAIsRefused() throws {
        let ezlink = ReaderVectors.atrs.first { $0.source.contains("EZ-Link, ACS") }?.atr ?? []
        let channel = ListChannel(reader: "Virtual PCD 00 00", atr: ezlink, answers: [[0x6E, 0x00]])
        let session = CardSession(channel: channel, dialect: nil, deadline: .distant)
        XCTAssertEqual(try session.identify(), .iso7816)
        XCTAssertEqual(session.uid, [])
    }
}

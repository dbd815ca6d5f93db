import XCTest
import CardProtocol
import TransitModel
import TransitFiles
import TransitTransport
import TransitStations
import TransitArchive
import TransitOutput

/// A reader channel that answers from a list and records commands.
final class ListChannel: ReaderChannel {
    let readerName: String
    let atr: [UInt8]
    var answers: [[UInt8]]
    var commands = [[UInt8]]()

    init(reader: String = "test reader", atr: [UInt8] = [0x3B, 0x80, 0x80, 0x01, 0x01], answers: [[UInt8]]) {
        readerName = reader; self.atr = atr; self.answers = answers
    }

    func transmit(_ apdu: [UInt8], by deadline: Deadline) throws(TransitError) -> [UInt8] {
        commands.append(apdu)
        guard !answers.isEmpty else { throw TransitError(.sessionLost, "gone") }
        return answers.removeFirst()
    }
}

final class CardSessionTests: XCTestCase {
    func testGetResponseCollectsChainedData() throws {
        let channel = ListChannel(answers: [[0x61, 0x02], [0xAA, 0xBB, 0x90, 0x00]])
        let session = CardSession(channel: channel, dialect: nil, deadline: .distant)
        XCTAssertEqual(try session.apdu([0x90, 0x32, 0x03, 0x00, 0x00]), [0xAA, 0xBB, 0x90, 0x00])
        XCTAssertEqual(channel.commands.last, [0x00, 0xC0, 0x00, 0x00, 0x02])
    }

    /// Issue 45: a card answering 61 xx to every GET RESPONSE fails as malformed after the bound,
    /// long before the read's deadline, instead of being asked again and again.
    func testAGetResponseChainThatNeverEndsIsMalformedAfterItsBound() throws {
        let channel = ListChannel(answers: Array(repeating: [0xAA, 0x61, 0x10], count: 1_000))
        let session = CardSession(channel: channel, dialect: nil, deadline: .distant)
        XCTAssertThrowsError(try session.apdu([0x00, 0xA4, 0x04, 0x00, 0x02, 0x3F, 0x00])) { error in
            XCTAssertEqual((error as? TransitError)?.kind, .malformedResponse)
            XCTAssertTrue((error as? TransitError)?.message.contains("61 xx") == true, "\(error)")
        }
        XCTAssertEqual(channel.commands.count, 1 + CardSession.maxGetResponses, "the command and its bounded GET RESPONSEs")
        XCTAssertEqual(channel.commands.last, [0x00, 0xC0, 0x00, 0x00, 0x10], "GET RESPONSE with the Le the card named (ISO 7816-4 5.3.3)")
    }

    func testAWrongLengthAnsweredAgainToTheResentCommandIsMalformed() throws {
        let channel = ListChannel(answers: Array(repeating: [0x6C, 0x10], count: 1_000))
        let session = CardSession(channel: channel, dialect: nil, deadline: .distant)
        XCTAssertThrowsError(try session.apdu([0x00, 0xB0, 0x95, 0x00, 0x00])) { error in
            XCTAssertEqual((error as? TransitError)?.kind, .malformedResponse)
        }
        XCTAssertEqual(channel.commands, [[0x00, 0xB0, 0x95, 0x00, 0x00], [0x00, 0xB0, 0x95, 0x00, 0x10]], "sent once, re-sent once")
    }

    func testWrongLengthIsResentWithTheCardsLe() throws {
        let channel = ListChannel(answers: [[0x6C, 0x10], [UInt8](repeating: 1, count: 16) + [0x90, 0x00]])
        let session = CardSession(channel: channel, dialect: nil, deadline: .distant)
        XCTAssertEqual(try session.apdu([0x00, 0xB0, 0x95, 0x00, 0x00]).count, 18)
        XCTAssertEqual(channel.commands.last, [0x00, 0xB0, 0x95, 0x00, 0x10])
        XCTAssertEqual(CardSession.withLe([0x00, 0xA4, 0x00, 0x00, 0x02, 0x40, 0x00], 0x20), [0x00, 0xA4, 0x00, 0x00, 0x02, 0x40, 0x00, 0x20])
        XCTAssertEqual(CardSession.withLe([0x00, 0xA4, 0x00, 0x00, 0x02, 0x40, 0x00, 0x00], 0x20), [0x00, 0xA4, 0x00, 0x00, 0x02, 0x40, 0x00, 0x20])
    }

    private let felicaATR: [UInt8] = [0x3B, 0x8F, 0x80, 0x01, 0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06, 0x11, 0x00, 0x3B, 0, 0, 0, 0, 0x42]

    func testARefusedDialectFallsBackToTheNextOnTheSameFrame() throws {
        // The reader (named like no ACS reader, so Part 3 first) refuses FF C2 with 6D00, then
        // carries the frame as a PN532 behind an ACR122U would.
        let channel = ListChannel(atr: felicaATR, answers: [[0x6D, 0x00], [0xD5, 0x41, 0x00, 0x02, 0x0D, 0x90, 0x00], [0xD5, 0x41, 0x01, 0x90, 0x00]])
        let session = CardSession(channel: channel, dialect: nil, deadline: .distant)
        var log = [String]()
        session.log = { log.append($0) }
        XCTAssertEqual(try session.felica([0x02, 0x0C]), [0x02, 0x0D])
        XCTAssertEqual(session.dialect, .pn532)
        XCTAssertEqual(session.refusedDialects, [.part3])
        XCTAssertEqual(channel.commands.map { Array($0.prefix(2)) }, [[0xFF, 0xC2], [0xFF, 0x00]])
        XCTAssertTrue(log.contains { $0.contains("part3") && $0.contains("pn532") }, "\(log)")
        // Silence afterwards is the card's, not a reason to change dialect.
        XCTAssertThrowsError(try session.felica([0x02, 0x0C])) { XCTAssertEqual(($0 as? TransitError)?.kind, .noAnswer) }
        XCTAssertEqual(channel.commands.count, 3)
    }

    func testAForcedOrConfirmedDialectIsNeverSwitched() throws {
        let forced = CardSession(channel: ListChannel(atr: felicaATR, answers: [[0x6A, 0x81]]), dialect: .part3, deadline: .distant)
        XCTAssertThrowsError(try forced.felica([0x02, 0x0C])) { XCTAssertEqual(($0 as? TransitError)?.kind, .communication) }
        // Once acs-direct carried a frame, its 63 00 is the card's silence, and a refusal an error.
        let confirmed = CardSession(channel: ListChannel(atr: felicaATR, answers: [[0x02, 0x0D, 0x90, 0x00], [0x63, 0x00], [0x6A, 0x81]]),
                                    dialect: nil, firstGuess: .acsDirect, deadline: .distant)
        XCTAssertEqual(try confirmed.felica([0x02, 0x0C]), [0x02, 0x0D])
        XCTAssertThrowsError(try confirmed.felica([0x02, 0x0C])) { XCTAssertEqual(($0 as? TransitError)?.kind, .noAnswer) }
        XCTAssertThrowsError(try confirmed.felica([0x02, 0x0C])) { XCTAssertEqual(($0 as? TransitError)?.kind, .communication) }
    }

    func testEveryDialectRefusedSaysTheReaderPassesNoFeliCa() {
        let channel = ListChannel(atr: felicaATR, answers: [[0x6A, 0x81], [0x6E, 0x00], [0x6D, 0x00]])
        let session = CardSession(channel: channel, dialect: nil, deadline: .distant)
        XCTAssertThrowsError(try session.felica([0x02, 0x0C])) {
            let e = $0 as? TransitError
            XCTAssertEqual(e?.kind, .readerUnsupported)
            XCTAssertEqual(e?.kind.exitCode, 5)
            XCTAssertTrue(e?.message.contains("test reader passes no FeliCa commands") == true, "\(String(describing: e))")
        }
        XCTAssertEqual(channel.commands.count, 3)
    }
}

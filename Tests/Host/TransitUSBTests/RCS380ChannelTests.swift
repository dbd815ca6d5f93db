import Foundation
import TestSupport
import XCTest
import CardProtocol
import TransitModel
import TransitTransport
import TransitUSB

/// The RC-S380 seen by the rest of the host: a PC/SC-like reader of the bare-frame dialect.
final class RCS380ChannelTests: XCTestCase {
    /// The USB readers' lines of the reader table, as `transit` adds them as it starts.
    override func setUp() { ReaderTable.add(USBReaderTable.profiles()) }

    typealias V = USBVectors

    /// An opened reader, a card sensed (V1, V3, V4, V5) and its channel; `more` follows the sense.
    private func channel(_ more: [ScriptedPipe.Step], frameTimeout: Double = 1.0) throws -> (RCS380Channel, ScriptedPipe) {
        let pipe = ScriptedPipe(RCS380Tests.initialisation + RCS380Tests.senseFound + more)
        let reader = RCS380(pipe: pipe)
        try reader.open()
        let target = try XCTUnwrap(try reader.sense(bitRate: .kbps212))
        let name = RCS380Channel.readerName(model: .rcs380S, bus: 1, address: 13)
        return (RCS380Channel(reader: reader, target: target, readerName: name, frameTimeout: frameTimeout), pipe)
    }

    func testTheATRIsThePCSCFeliCaStorageCardForm() {
        // pcsc-tools' smartcard_list: "3B 8F 80 01 80 4F 0C A0 00 00 03 06 11 00 3B 00 00 00 00 42",
        // RFID - FeliCa (generic); TCK 42 (PC/SC Part 3, 3.1.3.2.3).
        XCTAssertEqual(RCS380Channel.atr, V.b("3B 8F 80 01 80 4F 0C A0 00 00 03 06 11 00 3B 00 00 00 00 42"))
        guard case .felica = ATRVerdict(atr: RCS380Channel.atr) else { return XCTFail("\(ATRVerdict(atr: RCS380Channel.atr))") }
    }

    func testTheReaderNameFindsItsLine() {
        let name = RCS380Channel.readerName(model: .rcs380S, bus: 1, address: 13)
        XCTAssertEqual(name, "SONY RC-S380/S (USB 1:13)")
        XCTAssertEqual(RCS380Channel.readerName(model: .rcs380P, bus: 3, address: 2), "SONY RC-S380/P (USB 3:2)")
        let profile = ReaderProfile.matching(name)
        XCTAssertEqual(profile.name, "Sony RC-S380")
        XCTAssertEqual(profile.dialects, [.bareFrame])
        XCTAssertFalse(profile.source.isEmpty)
        XCTAssertEqual(ReaderProfile.matching("SONY FeliCa RC-S300/P (0201504) 01 00").name, "Sony RC-S300") // unchanged
    }

    func testGetDataGivesTheIDmOfThePollingWithoutUSB() throws {
        let (channel, pipe) = try channel([])
        let writes = pipe.written.count
        XCTAssertEqual(try channel.transmit([0xFF, 0xCA, 0x00, 0x00, 0x00], by: .distant), V.v5IDm + [0x90, 0x00])
        XCTAssertEqual(try channel.transmit([0xFF, 0xCA, 0x01, 0x00, 0x00], by: .distant), [0x6A, 0x81])
        XCTAssertEqual(try channel.transmit([0xFF, 0xCA, 0x00, 0x00, 0x04], by: .distant), [0x6C, 0x08])
        // What is neither GET DATA nor a frame is refused as PC/SC readers refuse it.
        XCTAssertEqual(try channel.transmit(FeliCaFraming.startSession, by: .distant), [0x6D, 0x00])
        XCTAssertEqual(try channel.transmit([0x00, 0xA4, 0x04, 0x00, 0x00], by: .distant), [0x6E, 0x00])
        XCTAssertEqual(pipe.written.count, writes)
    }

    func testV7AFrameIsOneInCommRFAnsweredWith9000() throws {
        let (channel, pipe) = try channel(ScriptedPipe.command(V.v7Read, V.v7Answer))
        XCTAssertEqual(try channel.transmit(V.v7Frame, by: .distant), V.v7AnswerFrame + [0x90, 0x00])
        XCTAssertEqual(pipe.surprises, [])
        XCTAssertTrue(pipe.finished)
    }

    func testTheDefaultFrameTimeoutIsATenthOfASecond() throws {
        // V5's PMm gives a one-block read 18 ms (byte 5 = 77: 302.1 µs × (7 + 8) × 4): the floor decides.
        let (channel, pipe) = try channel(ScriptedPipe.command(V.v7ReadTenthSecond, V.v7Answer), frameTimeout: 0.1)
        XCTAssertEqual(try channel.transmit(V.v7Frame, by: .distant), V.v7AnswerFrame + [0x90, 0x00])
        XCTAssertEqual(pipe.surprises, [])
    }

    /// The host's own card session reads through the channel as through a PC/SC reader: the
    /// ATR says FeliCa, FF CA the IDm, the bare-frame dialect carries the frame.
    func testACardSessionReadsThroughIt() throws {
        let (channel, pipe) = try channel(ScriptedPipe.command(V.v7Read, V.v7Answer))
        let session = CardSession(channel: channel, dialect: nil, deadline: .distant)
        XCTAssertEqual(try session.identify(), .felica)
        XCTAssertEqual(session.uid, V.v5IDm)
        XCTAssertEqual(session.dialect, .bareFrame)
        XCTAssertEqual(try session.felica(V.v7Frame), V.v7AnswerFrame)
        XCTAssertEqual(pipe.surprises, [])
    }

    func testCommandCountOfASuicaReadOfThreeExchanges() throws {
        let (channel, pipe) = try channel([0, 1, 2].flatMap { _ in ScriptedPipe.command(V.v7Read, V.v7Answer) })
        _ = try channel.transmit([0xFF, 0xCA, 0x00, 0x00, 0x00], by: .distant)
        for _ in 0 ..< 3 { XCTAssertEqual(try channel.transmit(V.v7Frame, by: .distant), V.v7AnswerFrame + [0x90, 0x00]) }
        // Init 3 (and the soft-reset ACK), sense 3, one InCommRF a frame, FF CA none.
        XCTAssertEqual(channel.reader.commandsSent, 3 + 3 + 3)
        XCTAssertEqual(channel.presenceChecks, 0)
        XCTAssertEqual(pipe.surprises, [])
    }

    func testASilentPollingIs6300WithoutAPresenceCheck() throws {
        let (channel, pipe) = try channel(ScriptedPipe.command(V.pollingFor8008, V.v6NoCard))
        XCTAssertEqual(try channel.transmit(V.pollingFor8008Frame, by: .distant), [0x63, 0x00])
        XCTAssertEqual(channel.presenceChecks, 0)
        XCTAssertEqual(pipe.surprises, [])
        XCTAssertTrue(pipe.finished)
    }

    /// Silent, found there by a Polling, sent again (its first answer may have been lost), silent
    /// again and still there: the card's silence is its answer (`silentTries`, 2).
    func testACardSilentTwiceThoughStillThereIs6300() throws {
        let (channel, pipe) = try channel([0, 1].flatMap { _ in ScriptedPipe.command(V.v7Read, V.v6NoCard) + ScriptedPipe.command(V.v5Polling, V.v5Found) })
        XCTAssertEqual(try channel.transmit(V.v7Frame, by: .distant), [0x63, 0x00])
        XCTAssertEqual(channel.presenceChecks, 2)
        XCTAssertEqual(channel.retries, 1)
        XCTAssertEqual(pipe.surprises, [])
        XCTAssertTrue(pipe.finished)
    }

    /// A lost answer (the card heard the read; its answer never came): the Polling finds the card
    /// there, the read goes again and is answered, as nfcpy's Type 3 layer retries a timeout.
    func testALostAnswerIsSentAgainOnceTheCardIsFoundThere() throws {
        var lines = [String]()
        let (channel, pipe) = try channel(ScriptedPipe.command(V.v7Read, V.v6NoCard) + ScriptedPipe.command(V.v5Polling, V.v5Found)
                                          + ScriptedPipe.command(V.v7Read, V.v7Answer))
        channel.log = { lines.append($0) }
        XCTAssertEqual(try channel.transmit(V.v7Frame, by: .distant), V.v7AnswerFrame + [0x90, 0x00])
        XCTAssertEqual(channel.presenceChecks, 1)
        XCTAssertEqual(channel.retries, 1, "counted in the log bundle")
        XCTAssertEqual(lines.count, 1, "\(lines)")
        XCTAssertTrue(lines.first?.contains("did not answer command 06") == true, "\(lines)")
        XCTAssertEqual(pipe.surprises, [])
        XCTAssertTrue(pipe.finished)
    }

    func testASilentCardGoneIsSessionLost() throws {
        let (channel, _) = try channel(ScriptedPipe.command(V.v7Read, V.v6NoCard) + ScriptedPipe.command(V.v5Polling, V.v6NoCard))
        XCTAssertThrowsError(try channel.transmit(V.v7Frame, by: .distant)) { XCTAssertEqual(($0 as? TransitError)?.kind, .sessionLost) }
    }

    func testV8AParityErrorIsSentAgainAndTheCardsAnswerRead() throws {
        var lines = [String]()
        let (channel, pipe) = try channel(ScriptedPipe.command(V.v7Read, V.v8ParityError) + ScriptedPipe.command(V.v7Read, V.v7Answer))
        channel.log = { lines.append($0) }
        XCTAssertEqual(try channel.transmit(V.v7Frame, by: .distant), V.v7AnswerFrame + [0x90, 0x00])
        XCTAssertEqual(channel.retries, 1)
        XCTAssertEqual(channel.presenceChecks, 0, "a damaged answer is a card there")
        XCTAssertEqual(lines.count, 1, "\(lines)")
        XCTAssertTrue(lines.first?.contains("parity error") == true, "\(lines)")
        XCTAssertEqual(pipe.surprises, [])
        XCTAssertTrue(pipe.finished)
    }

    func testCRCErrorsOnTwoAnswersInARowAndTheThirdTryIsRead() throws {
        let (channel, pipe) = try channel(ScriptedPipe.command(V.v7Read, V.crcError) + ScriptedPipe.command(V.v7Read, V.crcError)
                                          + ScriptedPipe.command(V.v7Read, V.v7Answer))
        XCTAssertEqual(try channel.transmit(V.v7Frame, by: .distant), V.v7AnswerFrame + [0x90, 0x00])
        XCTAssertEqual(channel.retries, 2)
        XCTAssertEqual(pipe.surprises, [])
        XCTAssertTrue(pipe.finished)
    }

    func testAnAnswerThatStaysDamagedIsCommunicationAfterThreeTriesNeverSessionLost() throws {
        // Nothing scripted after the third try: a fourth command, or a presence Polling, would be a surprise.
        let (channel, pipe) = try channel([0, 1, 2].flatMap { _ in ScriptedPipe.command(V.v7Read, V.crcError) })
        XCTAssertThrowsError(try channel.transmit(V.v7Frame, by: .distant)) {
            XCTAssertEqual(($0 as? TransitError)?.kind, .communication)
            XCTAssertTrue(($0 as? TransitError)?.message.contains("CRC error") == true, "\($0)")
            XCTAssertTrue(($0 as? TransitError)?.message.contains("3 times") == true, "\($0)")
        }
        XCTAssertEqual(channel.retries, 2)
        XCTAssertEqual(pipe.surprises, [])
        XCTAssertTrue(pipe.finished)
    }

    func testADamagedAnswerToThePresencePollingIsNotRemoved() throws {
        let (channel, pipe) = try channel(ScriptedPipe.command(V.v7Read, V.v6NoCard) + ScriptedPipe.command(V.v5Polling, V.crcError)
                                          + ScriptedPipe.command(V.v5Polling, V.v5Found) + ScriptedPipe.command(V.v7Read, V.v7Answer))
        XCTAssertEqual(try channel.transmit(V.v7Frame, by: .distant), V.v7AnswerFrame + [0x90, 0x00])
        XCTAssertEqual(channel.presenceChecks, 1)
        XCTAssertEqual(channel.retries, 2, "the Polling's, then the read's")
        XCTAssertEqual(pipe.surprises, [])
        XCTAssertTrue(pipe.finished)
    }

    func testAPresencePollingThatStaysDamagedIsCommunication() throws {
        let (channel, pipe) = try channel(ScriptedPipe.command(V.v7Read, V.v6NoCard)
                                          + [0, 1, 2].flatMap { _ in ScriptedPipe.command(V.v5Polling, V.crcError) })
        XCTAssertThrowsError(try channel.transmit(V.v7Frame, by: .distant)) { XCTAssertEqual(($0 as? TransitError)?.kind, .communication, "\($0)") }
        XCTAssertEqual(pipe.surprises, [])
        XCTAssertTrue(pipe.finished)
    }

    func testARadioErrorThatIsNoDamageIsNotSentAgainAndAGoneCardIsSessionLost() throws {
        let (there, pipe) = try channel(ScriptedPipe.command(V.v7Read, V.overflowError) + ScriptedPipe.command(V.v5Polling, V.v5Found))
        XCTAssertThrowsError(try there.transmit(V.v7Frame, by: .distant)) {
            XCTAssertEqual(($0 as? TransitError)?.kind, .communication)
            XCTAssertTrue(($0 as? TransitError)?.message.contains("overflow") == true, "\($0)")
        }
        XCTAssertEqual(there.retries, 0)
        XCTAssertTrue(pipe.finished)
        let (gone, _) = try channel(ScriptedPipe.command(V.v7Read, V.overflowError) + ScriptedPipe.command(V.v5Polling, V.v6NoCard))
        XCTAssertThrowsError(try gone.transmit(V.v7Frame, by: .distant)) { XCTAssertEqual(($0 as? TransitError)?.kind, .sessionLost) }
    }

    func testTheStatusBitsThatAreDamage() {
        // docs/research/port100.md §"InCommRF status": PROTOCOL 01, PARITY 02, CRC 04, COLLISION 08 are damage; not
        // RECEIVE_TIMEOUT 80, OVERFLOW 10, RF_OFF 400, nor damage beside RF_OFF.
        for bits: UInt32 in [0x01, 0x02, 0x04, 0x08, 0x06] { XCTAssertTrue(InCommRFStatus(rawValue: bits).isDamage, "\(bits)") }
        for bits: UInt32 in [0x00, 0x10, 0x80, 0x400, 0x404] { XCTAssertFalse(InCommRFStatus(rawValue: bits).isDamage, "\(bits)") }
    }

    func testTheReadsDeadlineEndsAnExchangeToASilentReader() throws {
        let (channel, pipe) = try channel([.write(V.v7Read), .read(V.ack), .write(V.ack)])
        let start = pipe.testClock.now
        let deadline = pipe.clock.deadline(in: 0.05)
        XCTAssertThrowsError(try channel.transmit(V.v7Frame, by: deadline)) {
            XCTAssertEqual(($0 as? TransitError)?.kind, .communication)
            XCTAssertTrue(($0 as? TransitError)?.message.contains("deadline") == true, "\($0)")
        }
        XCTAssertLessThan(pipe.testClock.seconds(since: start), 0.05 + 0.3)
        XCTAssertEqual(pipe.written.last, V.ack)
        // Past the deadline nothing more is sent.
        let writes = pipe.written.count
        XCTAssertThrowsError(try channel.transmit(V.v7Frame, by: deadline))
        XCTAssertEqual(pipe.written.count, writes)
    }
}

import Foundation
import TestSupport
import XCTest
import TransitModel
import TransitUSB

/// The RC-S380 driver and its command layer against a scripted pipe that answers
/// docs/research/port100.md §"Test vectors".
final class RCS380Tests: XCTestCase {
    typealias V = USBVectors

    /// V1 without GetPDDataVersion (RCS380.open says why): the soft reset, then three commands.
    static let initialisation: [ScriptedPipe.Step] = [.write(V.ack)]
        + ScriptedPipe.command(V.v1SetCommandType, V.v1SetCommandTypeOK)
        + ScriptedPipe.command(V.v1GetFirmwareVersion, V.v1FirmwareVersion)
        + ScriptedPipe.command(V.v1SwitchRFOff, V.v1SwitchRFOffOK)

    /// V3 212F, V4 defaults, V5 found.
    static let senseFound: [ScriptedPipe.Step] = ScriptedPipe.command(V.v3InSetRF212, V.v3OK)
        + ScriptedPipe.command(V.v4Defaults, V.v4OK)
        + ScriptedPipe.command(V.v5Polling, V.v5Found)

    private func opened(_ more: [ScriptedPipe.Step] = []) throws -> (RCS380, ScriptedPipe) {
        let pipe = ScriptedPipe(Self.initialisation + more)
        let reader = RCS380(pipe: pipe)
        try reader.open()
        return (reader, pipe)
    }

    private func assertKind(_ kind: TransitError.Kind, _ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) -> TransitError? {
        do {
            try body()
            XCTFail("no error", file: file, line: line)
        } catch let e as TransitError {
            XCTAssertEqual(e.kind, kind, e.message, file: file, line: line)
            return e
        } catch {
            XCTFail("\(error)", file: file, line: line)
        }
        return nil
    }

    func testV1InitialisationByteForByte() throws {
        let (reader, pipe) = try opened()
        XCTAssertEqual(pipe.written, [V.ack, V.v1SetCommandType, V.v1GetFirmwareVersion, V.v1SwitchRFOff])
        XCTAssertTrue(pipe.finished)
        XCTAssertEqual(pipe.surprises, [])
        XCTAssertEqual(reader.firmware?.description, "1.11") // "firmware 1.11" (V1's trace)
        XCTAssertEqual(reader.commandsSent, 3)
        XCTAssertEqual(reader.port.acksSent, 1)
    }

    func testACloseSwitchesTheFieldOffThenSendsAnACK() throws {
        let (reader, pipe) = try opened(ScriptedPipe.command(V.v1SwitchRFOff, V.v1SwitchRFOffOK) + [.write(V.ack)])
        try reader.close()
        XCTAssertEqual(pipe.written.suffix(2), [V.v1SwitchRFOff, V.ack])
        XCTAssertEqual(pipe.surprises, [])
        XCTAssertTrue(pipe.finished)
    }

    func testV1PDDataVersionOnDemand() throws {
        let (reader, pipe) = try opened(ScriptedPipe.command(V.v1GetPDDataVersion, V.v1PDDataVersion))
        XCTAssertEqual(try reader.pdDataVersion(), RCS380.Version(major: 0x01, minor: 0x00))
        XCTAssertEqual(pipe.surprises, [])
    }

    func testV5SenseFindsTheCard() throws {
        let (reader, pipe) = try opened(Self.senseFound)
        let target = try XCTUnwrap(try reader.sense(bitRate: .kbps212))
        XCTAssertEqual(target.idm, V.v5IDm)
        XCTAssertEqual(target.pmm, V.v5PMm)
        XCTAssertEqual(target.systemCode, V.v5SystemCode)
        XCTAssertEqual(target.bitRate, .kbps212)
        XCTAssertEqual(Array(pipe.written.suffix(3)), [V.v3InSetRF212, V.v4Defaults, V.v5Polling])
        XCTAssertEqual(pipe.surprises, [])
        XCTAssertEqual(reader.commandsSent, 3 + 3)
    }

    func testV6SenseWithNoCardAndTheSettingsSentOnce() throws {
        let (reader, pipe) = try opened(ScriptedPipe.command(V.v3InSetRF212, V.v3OK) + ScriptedPipe.command(V.v4Defaults, V.v4OK)
                                        + ScriptedPipe.command(V.v5Polling, V.v6NoCard)
                                        + ScriptedPipe.command(V.v5Polling, V.v6NoCard)
                                        + ScriptedPipe.command(V.v5Polling, V.v5Found))
        XCTAssertNil(try reader.sense(bitRate: .kbps212))
        XCTAssertNil(try reader.sense(bitRate: .kbps212))
        XCTAssertEqual(try reader.sense(bitRate: .kbps212)?.idm, V.v5IDm)
        // Polling again while the field stays on: only InCommRF.
        XCTAssertEqual(reader.commandsSent, 3 + 2 + 3)
        XCTAssertEqual(pipe.surprises, [])
        XCTAssertTrue(pipe.finished)
    }

    func testV3At424AndAfterRFOffTheSettingsAreSentAgain() throws {
        let (reader, pipe) = try opened(Self.senseFound
                                        + ScriptedPipe.command(V.v3InSetRF424, V.v3OK) + ScriptedPipe.command(V.v4Defaults, V.v4OK)
                                        + ScriptedPipe.command(V.v5Polling, V.v6NoCard)
                                        + ScriptedPipe.command(V.v1SwitchRFOff, V.v1SwitchRFOffOK)
                                        + Self.senseFound)
        XCTAssertNotNil(try reader.sense(bitRate: .kbps212))
        XCTAssertNil(try reader.sense(bitRate: .kbps424))
        try reader.rfOff()
        XCTAssertNil(reader.framing)
        XCTAssertNotNil(try reader.sense(bitRate: .kbps212))
        XCTAssertEqual(pipe.surprises, [])
        XCTAssertTrue(pipe.finished)
    }

    func testV7OneInCommRFAnExchange() throws {
        let (reader, pipe) = try opened(Self.senseFound + ScriptedPipe.command(V.v7Read, V.v7Answer))
        _ = try reader.sense(bitRate: .kbps212)
        XCTAssertEqual(try reader.exchange(V.v7Frame, timeout: 1.0), .frame(V.v7AnswerFrame))
        XCTAssertEqual(pipe.written.last, V.v7Read)
        XCTAssertEqual(pipe.surprises, [])
        XCTAssertEqual(reader.commandsSent, 3 + 3 + 1)
    }

    func testCommandCountForInitSenseAndThreeExchanges() throws {
        let (reader, pipe) = try opened(Self.senseFound + [0, 1, 2].flatMap { _ in ScriptedPipe.command(V.v7Read, V.v7Answer) })
        _ = try reader.sense(bitRate: .kbps212)
        for _ in 0 ..< 3 { _ = try reader.exchange(V.v7Frame, timeout: 1.0) }
        // 3 to open (plus the soft-reset ACK), 3 to sense, 1 an exchange; nfcpy would send 4 + 4 + 3 × 3.
        XCTAssertEqual(reader.commandsSent, 9)
        XCTAssertEqual(reader.port.acksSent, 1)
        XCTAssertEqual(pipe.written.count, 10)
        XCTAssertEqual(pipe.surprises, [])
    }

    func testV8ParityErrorIsARadioError() throws {
        let (reader, _) = try opened(Self.senseFound + ScriptedPipe.command(V.v7Read, V.v8ParityError))
        _ = try reader.sense()
        XCTAssertEqual(try reader.exchange(V.v7Frame, timeout: 1.0), .radioError(.parity))
    }

    func testV6AnExchangeTimeoutIsSilence() throws {
        let (reader, _) = try opened(Self.senseFound + ScriptedPipe.command(V.v7Read, V.v6NoCard))
        _ = try reader.sense()
        XCTAssertEqual(try reader.exchange(V.v7Frame, timeout: 1.0), .silence)
    }

    func testV8SetCommandTypeRefusedEndsTheOpen() {
        let pipe = ScriptedPipe([.write(V.ack)] + ScriptedPipe.command(V.v1SetCommandType, V.v8SetCommandTypeFailure))
        let e = assertKind(.communication) { try RCS380(pipe: pipe).open() }
        XCTAssertTrue(e?.message.contains("SetCommandType") == true && e?.message.contains("parameter error") == true, e?.message ?? "")
    }

    func testV3ParameterErrorEndsTheSense() throws {
        let (reader, _) = try opened(ScriptedPipe.command(V.v3InSetRF212, V.v3ParameterError))
        _ = assertKind(.communication) { _ = try reader.sense() }
        XCTAssertNil(reader.framing)
    }

    func testV9ErrorFrameIsACommunicationError() throws {
        let (reader, _) = try opened([.write(V.v3InSetRF212), .read(V.ack), .read(V.v9Err)])
        let e = assertKind(.communication) { _ = try reader.sense() }
        XCTAssertTrue(e?.message.contains("error frame") == true, e?.message ?? "")
    }

    func testAnAnswerOfAnotherCommandIsGarbage() throws {
        // SetCommandType answered with GetFirmwareVersion's answer.
        let pipe = ScriptedPipe([.write(V.ack)] + ScriptedPipe.command(V.v1SetCommandType, V.v1FirmwareVersion))
        _ = assertKind(.communication) { try RCS380(pipe: pipe).open() }
    }

    func testABadChecksumIsGarbage() throws {
        var broken = V.v1SetCommandTypeOK
        broken[11] ^= 0xFF
        let pipe = ScriptedPipe([.write(V.ack)] + ScriptedPipe.command(V.v1SetCommandType, broken))
        let e = assertKind(.communication) { try RCS380(pipe: pipe).open() }
        XCTAssertTrue(e?.message.contains("DCS") == true, e?.message ?? "")
    }

    func testAnAnswerWithoutItsACKIsGarbage() throws {
        let pipe = ScriptedPipe([.write(V.ack), .write(V.v1SetCommandType), .read(V.v1SetCommandTypeOK)])
        _ = assertKind(.communication) { try RCS380(pipe: pipe).open() }
    }

    func testAnAnswerInPiecesIsPutTogether() throws {
        let (reader, pipe) = try opened(ScriptedPipe.command(V.v3InSetRF212, V.v3OK) + ScriptedPipe.command(V.v4Defaults, V.v4OK)
                                        + [.write(V.v5Polling), .read(V.ack), .read(Array(V.v5Found.prefix(9))), .read(Array(V.v5Found.dropFirst(9)))])
        XCTAssertEqual(try reader.sense()?.idm, V.v5IDm)
        XCTAssertEqual(pipe.surprises, [])
    }

    func testAReaderThatStopsAnsweringEndsByItsDeadlineAndIsCancelled() {
        let pipe = ScriptedPipe([.write(V.ack), .write(V.v1SetCommandType), .write(V.ack)])
        let port = Port100(pipe: pipe, commandTimeout: 0.2)
        let start = pipe.testClock.now
        let e = assertKind(.communication) { try RCS380(port: port).open() }
        let elapsed = pipe.testClock.seconds(since: start)
        XCTAssertTrue(e?.message.contains("stopped answering") == true, e?.message ?? "")
        XCTAssertLessThan(elapsed, 0.2 + 0.01 + 0.3) // its 0.2 s, the 10 ms drain at open, slack
        XCTAssertGreaterThanOrEqual(elapsed, 0.2)
        XCTAssertEqual(pipe.written.last, V.ack) // the cancel
        XCTAssertEqual(port.acksSent, 2)
        XCTAssertEqual(pipe.surprises, [])
    }

    func testAnInCommRFWithNoAnswerEndsByItsOwnTimeoutAndMargin() throws {
        let (reader, pipe) = try opened(Self.senseFound + [.write(V.v7ReadTenthSecond), .read(V.ack), .write(V.ack)])
        _ = try reader.sense()
        let start = pipe.testClock.now
        _ = assertKind(.communication) { _ = try reader.exchange(V.v7Frame, timeout: 0.1) }
        let elapsed = pipe.testClock.seconds(since: start)
        // F2 03 is 101 ms; the USB wait adds RCS380.usbMargin.
        XCTAssertGreaterThanOrEqual(elapsed, 0.101 + RCS380.usbMargin - 0.01)
        XCTAssertLessThan(elapsed, 0.101 + RCS380.usbMargin + 0.3)
        XCTAssertEqual(pipe.written.last, V.ack)
        XCTAssertNil(reader.framing) // set up again before the next frame
        XCTAssertEqual(pipe.surprises, [])
    }

    func testACallersDeadlineCutsTheWaitShort() throws {
        let (reader, pipe) = try opened(Self.senseFound + [.write(V.v7Read), .read(V.ack), .write(V.ack)])
        _ = try reader.sense()
        let start = pipe.testClock.now
        _ = assertKind(.communication) { _ = try reader.exchange(V.v7Frame, timeout: 1.0, deadline: pipe.clock.deadline(in: 0.05)) }
        XCTAssertLessThan(pipe.testClock.seconds(since: start), 0.05 + 0.3)
    }

    func testAnUnpluggedReaderIsSessionLost() throws {
        let (reader, pipe) = try opened()
        pipe.failure = TransitError(.sessionLost, "SONY RC-S380/S (USB 1:13) was unplugged during the read")
        _ = assertKind(.sessionLost) { _ = try reader.sense() }
    }

    func testLateAnswersOfACancelledCommandAreReadAway() throws {
        // InSetRF gets no answer in time and is cancelled; its late ACK and answer arrive before
        // the next command and are drained, not taken for that command's.
        let pipe = ScriptedPipe(Self.initialisation + [.write(V.v3InSetRF212), .write(V.ack), .read(V.ack), .read(V.v3OK)]
                                + ScriptedPipe.command(V.v3InSetRF212, V.v3OK) + ScriptedPipe.command(V.v4Defaults, V.v4OK)
                                + ScriptedPipe.command(V.v5Polling, V.v5Found))
        let port = Port100(pipe: pipe, commandTimeout: 0.05)
        let reader = RCS380(port: port)
        try reader.open()
        _ = assertKind(.communication) { _ = try reader.sense() }
        XCTAssertEqual(try reader.sense()?.idm, V.v5IDm)
        XCTAssertEqual(pipe.surprises, [])
        XCTAssertTrue(pipe.finished)
    }

    func testInCommRFTimeoutsAsTheResearchGivesThem() {
        // docs/research/port100.md §"Timeouts": 1 s gives 1A 27, 0.1 s F2 03, 1 ms 14 00; V5: 10 ms is 6E 00.
        XCTAssertEqual(Port100.inCommRFTimeout(seconds: 1.0), [0x1A, 0x27])
        XCTAssertEqual(Port100.inCommRFTimeout(seconds: 0.1), [0xF2, 0x03])
        XCTAssertEqual(Port100.inCommRFTimeout(seconds: 0.001), [0x14, 0x00])
        XCTAssertEqual(Port100.inCommRFTimeout(seconds: 0.010), [0x6E, 0x00])
        XCTAssertEqual(Port100.inCommRFTimeout(seconds: 100), [0xFF, 0xFF])
        XCTAssertEqual(Port100.inCommRFTimeout(seconds: .infinity), [0xFF, 0xFF])
        XCTAssertEqual(Port100.inCommRFTimeout(seconds: 0), [0x14, 0x00])
    }
}

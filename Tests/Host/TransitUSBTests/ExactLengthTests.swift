import CardProtocol
import Foundation
import TestSupport
import TransitModel
import TransitUSB
import XCTest

/// Every Port-100 and FeliCa frame taken at its exact length (issue 36 §4): a length byte that
/// says less than the frame holds (274 bytes whose LEN is 18: 274 mod 256) is no frame.
final class ExactLengthTests: XCTestCase {
    typealias V = USBVectors

    /// A chip's answer to `command` (its code + 1) carrying `answer`, framed as docs/research/port100.md §"Frames" says.
    private func chipFrame(_ code: UInt8, _ answer: [UInt8]) -> [UInt8] {
        let data = [0xD7, code] + answer
        let low = UInt8(data.count & 0xFF), high = UInt8(data.count >> 8)
        return [0x00, 0x00, 0xFF, 0xFF, 0xFF, low, high, 0 &- (low &+ high)] + data + [0 &- data.reduce(0, &+), 0x00]
    }

    private func opened(_ more: [ScriptedPipe.Step]) throws -> (RCS380, ScriptedPipe) {
        let pipe = ScriptedPipe(RCS380Tests.initialisation + more)
        let reader = RCS380(port: Port100(pipe: pipe, commandTimeout: 0.1))
        try reader.open()
        return (reader, pipe)
    }

    func testAPollingAnswerIsTakenAtItsExactLengthOnly() {
        // LEN 12h (18): the 18 bytes a Polling without request data is answered with, then 256 more.
        let polling = [0x12, 0x01] + V.v5IDm + V.v5PMm
        XCTAssertEqual(FeliCaCommand.polledIDm(polling), V.v5IDm)
        XCTAssertEqual(FeliCaCommand.polledIDm([0x14] + polling.dropFirst() + [0x12, 0xFC]), V.v5IDm, "with the system code: 20 bytes")
        XCTAssertNil(FeliCaCommand.polledIDm(polling + [UInt8](repeating: 0xAA, count: 256)), "274 bytes whose LEN says 18")
        XCTAssertNil(FeliCaCommand.polledIDm([0x13] + polling.dropFirst() + [0x00]), "19 bytes: no Polling answer has them")
        XCTAssertNil(FeliCaCommand.polledIDm([0x14] + polling.dropFirst()), "LEN 20 on 18 bytes")
    }

    func testA274BytePollingAnswerOnTheReaderIsNoCard() throws {
        let frame = [0x12, 0x01] + V.v5IDm + V.v5PMm + [UInt8](repeating: 0xAA, count: 256)
        let (reader, _) = try opened(ScriptedPipe.command(V.v3InSetRF212, V.v3OK) + ScriptedPipe.command(V.v4Defaults, V.v4OK)
                                     + ScriptedPipe.command(V.v5Polling, chipFrame(0x05, [0, 0, 0, 0, 0x08] + frame)))
        XCTAssertNil(try reader.sense(bitRate: .kbps212), "no card")
    }

    func testACardFrameWhoseLengthByteDisagreesIsAGarbledReception() throws {
        var longer = V.v7AnswerFrame
        longer[0] = 0x1C
        let (reader, _) = try opened(RCS380Tests.senseFound + ScriptedPipe.command(V.v7Read, chipFrame(0x05, [0, 0, 0, 0, 0x08] + longer)))
        _ = try reader.sense()
        // A garbled reception, as the chip's own receive length fault: the channel then checks the card and says so.
        XCTAssertEqual(try reader.exchange(V.v7Frame, timeout: 1.0), .radioError(.receiveLength))
    }

    func testTheChipsAnswersAreTheirExactLength() {
        // GetFirmwareVersion's answer is two bytes (V1: 11 01); SetCommandType's one status byte.
        for (steps, what) in [
            ([.write(V.ack)] + ScriptedPipe.command(V.v1SetCommandType, V.v1SetCommandTypeOK)
                + ScriptedPipe.command(V.v1GetFirmwareVersion, chipFrame(0x21, [0x11, 0x01, 0x00])), "GetFirmwareVersion with 3 bytes"),
            ([.write(V.ack)] + ScriptedPipe.command(V.v1SetCommandType, chipFrame(0x2B, [0x00, 0x00])), "a status of 2 bytes"),
            ([.write(V.ack), .write(V.v1SetCommandType), .read(V.ack), .read(V.v1SetCommandTypeOK + [0x00, 0x00, 0xFF])], "3 bytes after its answer"),
        ] as [([ScriptedPipe.Step], String)] {
            let reader = RCS380(port: Port100(pipe: ScriptedPipe(steps), commandTimeout: 0.1))
            XCTAssertThrowsError(try reader.open(), what) { error in
                XCTAssertEqual((error as? TransitError)?.kind, .communication)
                XCTAssertTrue((error as? TransitError)?.message.contains(what) == true, "\(what): \(error)")
            }
        }
    }
}

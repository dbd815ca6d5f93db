import TestSupport
import XCTest
import TransitUSB

/// The Port-100 frame codec against docs/research/port100.md §"Test vectors": each test names its vector.
final class Port100FrameTests: XCTestCase {
    typealias V = USBVectors

    /// A frame's data: what LEN counts, between LCS and DCS.
    private func data(_ frame: [UInt8]) -> [UInt8] { Array(frame.dropFirst(8).dropLast(2)) }

    func testV1TheInitialisationTraceEncodesAndDecodesByteForByte() {
        // Host frames from their commands, as docs/research/port100.md §"Commands" writes them.
        XCTAssertEqual(Port100Frame.encode([0xD6, 0x2A, 0x01]), V.v1SetCommandType)
        XCTAssertEqual(Port100Frame.encode([0xD6, 0x20]), V.v1GetFirmwareVersion)
        XCTAssertEqual(Port100Frame.encode([0xD6, 0x22]), V.v1GetPDDataVersion)
        XCTAssertEqual(Port100Frame.encode([0xD6, 0x06, 0x00]), V.v1SwitchRFOff)
        // The device's answers, and the ACK before each.
        XCTAssertEqual(Port100Frame.decode(V.v1SetCommandTypeOK), .data([0xD7, 0x2B, 0x00]))
        XCTAssertEqual(Port100Frame.decode(V.v1FirmwareVersion), .data([0xD7, 0x21, 0x11, 0x01]))
        XCTAssertEqual(Port100Frame.decode(V.v1PDDataVersion), .data([0xD7, 0x23, 0x00, 0x01]))
        XCTAssertEqual(Port100Frame.decode(V.v1SwitchRFOffOK), .data([0xD7, 0x07, 0x00]))
        XCTAssertEqual(Port100Frame.decode(V.ack), .ack)
        XCTAssertEqual(Port100Frame.ack, V.ack)
    }

    func testV2GetCommandType() {
        XCTAssertEqual(Port100Frame.encode([0xD6, 0x28]), V.v2GetCommandType)
        XCTAssertEqual(Port100Frame.decode(V.v2CommandTypes), .data([0xD7, 0x29, 0, 0, 0, 0, 0, 0, 0, 0x03]))
    }

    func testV3InSetRF() {
        XCTAssertEqual(Port100Frame.encode([0xD6, 0x00, 0x01, 0x01, 0x0F, 0x01]), V.v3InSetRF212)
        XCTAssertEqual(Port100Frame.encode([0xD6, 0x00, 0x01, 0x02, 0x0F, 0x02]), V.v3InSetRF424)
        XCTAssertEqual(Port100Frame.decode(V.v3OK), .data([0xD7, 0x01, 0x00]))
        XCTAssertEqual(Port100Frame.decode(V.v3ParameterError), .data([0xD7, 0x01, 0x01]))
        XCTAssertEqual(FeliCaBitRate.kbps212.inSetRF, [0x01, 0x01, 0x0F, 0x01])
        XCTAssertEqual(FeliCaBitRate.kbps424.inSetRF, [0x01, 0x02, 0x0F, 0x02])
    }

    func testV4InSetProtocol() {
        XCTAssertEqual(InSetProtocolKey.parameters(InSetProtocolKey.felicaDefaults), V.v4DefaultPairs)
        XCTAssertEqual(Port100Frame.encode([0xD6, 0x02] + V.v4DefaultPairs), V.v4Defaults)
        XCTAssertEqual(Port100Frame.encode([0xD6, 0x02, 0x00, 0x18]), V.v4GuardTime24)
        XCTAssertEqual(Port100Frame.decode(V.v4OK), .data([0xD7, 0x03, 0x00]))
    }

    func testV5SenseFound() {
        XCTAssertEqual(Port100Frame.encode([0xD6, 0x04, 0x6E, 0x00, 0x06, 0x00, 0xFF, 0xFF, 0x01, 0x00]), V.v5Polling)
        XCTAssertEqual(Port100Frame.decode(V.v5Found), .data([0xD7, 0x05, 0x00, 0x00, 0x00, 0x00, 0x08, 0x14, 0x01] + V.v5IDm + V.v5PMm + [0x12, 0xFC]))
    }

    func testV6SenseWithNoCard() {
        XCTAssertEqual(Port100Frame.decode(V.v6NoCard), .data([0xD7, 0x05, 0x80, 0x00, 0x00, 0x00]))
        XCTAssertEqual(InCommRFStatus(answer: [0x80, 0x00, 0x00, 0x00]), .receiveTimeout)
    }

    func testV7Exchange() {
        XCTAssertEqual(Port100Frame.encode([0xD6, 0x04, 0x1A, 0x27] + V.v7Frame), V.v7Read)
        XCTAssertEqual(Port100Frame.decode(V.v7Answer), .data([0xD7, 0x05, 0, 0, 0, 0, 0x08] + V.v7AnswerFrame))
    }

    func testV8Errors() {
        XCTAssertEqual(Port100Frame.decode(V.v8ParityError), .data([0xD7, 0x05, 0x02, 0x00, 0x00, 0x00]))
        XCTAssertEqual(InCommRFStatus(answer: [0x02, 0x00, 0x00, 0x00]), .parity)
        XCTAssertEqual(InCommRFStatus(answer: [0x02, 0x00, 0x00, 0x00])?.description, "parity error")
        XCTAssertEqual(Port100Frame.decode(V.v8SetCommandTypeFailure), .data([0xD7, 0x2B, 0x01]))
        XCTAssertEqual(Port100Status(rawValue: 0x01), .parameter)
    }

    func testV9CodecCases() {
        XCTAssertEqual(Port100Frame.decode(V.v9Data12), .data(Array("12".utf8)))
        XCTAssertEqual(Port100Frame.encode(Array("12".utf8)), V.v9Data12)
        XCTAssertEqual(Port100Frame.decode(V.v9Ack), .ack)
        XCTAssertEqual(Port100Frame.decode(V.v9Err), .error)
        XCTAssertEqual(Port100Frame.decode(V.v9Nothing), .incomplete)
        XCTAssertEqual(Port100Frame.decode([]), .incomplete)
    }

    func testBrokenFramesAreInvalidNotData() {
        var lcs = V.v3OK; lcs[7] ^= 0x01
        XCTAssertEqual(Port100Frame.decode(lcs), .invalid(.lengthChecksum))
        var dcs = V.v3OK; dcs[11] ^= 0x01
        XCTAssertEqual(Port100Frame.decode(dcs), .invalid(.dataChecksum))
        var post = V.v3OK; post[12] = 0x01
        XCTAssertEqual(Port100Frame.decode(post), .invalid(.postamble))
        XCTAssertEqual(Port100Frame.decode([0x01, 0x00, 0xFF]), .invalid(.header))
        XCTAssertEqual(Port100Frame.decode([0x00, 0x00, 0xFF, 0x00, 0xFE, 0x00]), .invalid(.header))
        // The RC-S956's normal frame (V10 ResetMode answer) is not a Port-100 frame.
        XCTAssertEqual(Port100Frame.decode(USBVectors.b("00 00 FF 02 FE D5 19 12 00")), .invalid(.header))
        // A data frame cut short needs more bytes.
        XCTAssertEqual(Port100Frame.decode(Array(V.v5Found.prefix(20))), .incomplete)
    }

    func testAFrameFollowedByAnotherIsTakenAlone() {
        let first = Port100Frame.decodeFirst(V.ack + V.v3OK)
        XCTAssertEqual(first.frame, .ack)
        XCTAssertEqual(first.used, 6)
        let second = Port100Frame.decodeFirst(V.v3OK + V.ack)
        XCTAssertEqual(second.frame, .data([0xD7, 0x01, 0x00]))
        XCTAssertEqual(second.used, V.v3OK.count)
    }

    /// No input traps: every prefix and every one-byte change of every vector, and random buffers.
    func testNoBufferTraps() {
        var random = SplitMix64(seed: 380)
        for vector in V.all {
            for n in 0 ... vector.count { _ = Port100Frame.decodeFirst(Array(vector.prefix(n))) }
            for i in vector.indices {
                var changed = vector
                changed[i] = UInt8(truncatingIfNeeded: random.next())
                _ = Port100Frame.decodeFirst(changed)
                _ = Port100Frame.decodeFirst(changed + [0x00])
            }
        }
        for _ in 0 ..< 20_000 {
            var buffer = [UInt8](repeating: 0, count: random.below(40))
            for i in buffer.indices { buffer[i] = UInt8(truncatingIfNeeded: random.next()) }
            // A start the decoder goes past most often, then noise.
            if random.below(2) == 0 { buffer = V.v9Err + buffer }
            let (frame, used) = Port100Frame.decodeFirst(buffer)
            XCTAssertLessThanOrEqual(used, buffer.count)
            if case .data(let data) = frame { XCTAssertEqual(Port100Frame.encode(data), Array(buffer.prefix(used))) }
        }
    }
}

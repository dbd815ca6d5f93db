import CardProtocol
import Foundation
import TestSupport
import TransitModel
import TransitTransport
import TransitUSB
import XCTest

/// The RC-S956 (RC-S330/360/370): its PN53x frames against nfcpy's vectors, and its driver and
/// channel against a scripted pipe. The frames of the script are nfcpy's fixture payloads
/// (tests/test_clf_rcs956.py, tests/base_clf_pn53x.py at nfcpy 8a19526) framed by `pn53x` below,
/// this test's own reading of base_clf_pn53x's STD_FRAME, not by the code under test.
final class RCS956Tests: XCTestCase {
    /// The USB readers' lines of the reader table, as `transit` adds them as it starts.
    override func setUp() { ReaderTable.add(USBReaderTable.profiles()) }

    typealias V = USBVectors

    /// STD_FRAME (base_clf_pn53x): 00 00 FF LEN LCS data DCS 00, for data up to 255 bytes.
    static func pn53x(_ hex: String) -> [UInt8] {
        let data = V.b(hex)
        let len = UInt8(data.count), sum = data.reduce(UInt8(0), &+)
        return [0x00, 0x00, 0xFF, len, 0 &- len] + data + [0 &- sum, 0x00]
    }

    static func command(_ host: String, _ chip: String) -> [ScriptedPipe.Step] {
        ScriptedPipe.command(pn53x("D4 " + host), pn53x("D5 " + chip))
    }

    /// transit's opening: the soft reset, GetFirmwareVersion (nfcpy's fixture answer), RFConfiguration
    /// 05 as nfcpy sends it (`32 05 00 00 01`: two Polling tries an InListPassiveTarget) and 02
    /// (index 0B, 102.4 ms).
    static let opening: [ScriptedPipe.Step] = [.write(V.ack)]
        + command("02", "03 33 01 30 07") + command("32 05 00 00 01", "33") + command("32 02 0A 0B 0B", "33")

    static let sensfRes = "01 01 02 03 04 05 06 07 08 F1 F2 F3 F4 F5 F6 F7 F8 AA BB" // base_clf_pn53x test_sense_ttf_target_found
    /// The field on, then InListPassiveTarget at 212 kbit/s finding nfcpy's card.
    static let sense: [ScriptedPipe.Step] = command("32 01 01", "33") + command("4A 01 01 00 FF FF 01 00", "4B 01 01 14 " + sensfRes)

    func testFramesAreNfcpysVectors() {
        // base_clf_pn53x test_command_with_standard_frame, written out there byte for byte.
        XCTAssertEqual(PN53xFrame.encode(V.b("D4 00 31 32 33")), V.b("00 00 FF 05 FB D4 00 31 32 33 96 00"))
        XCTAssertEqual(PN53xFrame.decode(V.b("00 00 FF 05 FB D5 01 34 35 36 8B 00")), .data(V.b("D5 01 34 35 36")))
        // test_command_with_extended_frame: '123' and 256 zero bytes, LEN 01 05 big-endian.
        let data = V.b("D4 00 31 32 33") + [UInt8](repeating: 0, count: 256)
        let extended = V.b("00 00 FF FF FF 01 05 FA") + data + V.b("96 00")
        XCTAssertEqual(PN53xFrame.encode(data), extended)
        XCTAssertEqual(PN53xFrame.decodeFirst(extended + [0x00]).frame, .data(data))
        XCTAssertEqual(PN53xFrame.decodeFirst(extended).used, extended.count)
        // The RC-S330 trace (nfcpy issue #256): ResetMode and its answer; the ACK; the error frame.
        XCTAssertEqual(PN53xFrame.encode(V.b("D4 18 01")), V.b("00 00 FF 03 FD D4 18 01 13 00"))
        XCTAssertEqual(PN53xFrame.decode(V.b("00 00 FF 02 FE D5 19 12 00")), .data(V.b("D5 19")))
        XCTAssertEqual(PN53xFrame.decode(V.ack), .ack)
        XCTAssertEqual(PN53xFrame.decode(V.b("00 00 FF 01 FF 7F 81 00")), .error)
        // A Port-100 frame is not one: its little-endian LEN 03 00 reads here as 768 bytes to come.
        XCTAssertEqual(PN53xFrame.decode(V.b("00 00 FF FF FF 03 00 FD D7 2B 00 FE 00")), .incomplete)
        XCTAssertEqual(PN53xFrame.decode(V.b("00 00 FF 05 FC D5 01 34 35 36 8B 00")), .invalid(.lengthChecksum))
        XCTAssertEqual(PN53xFrame.decode(V.b("00 00 FF 05 FB D5 01 34 35 36 8C 00")), .invalid(.dataChecksum))
        XCTAssertEqual(PN53xFrame.decode(V.b("01 00 FF")), .invalid(.header))
    }

    func testEveryPrefixOfAFrameIsIncompleteNeverATrap() {
        for frame in [V.b("00 00 FF 05 FB D5 01 34 35 36 8B 00"), V.ack, V.b("00 00 FF FF FF 01 05 FA D5")] {
            for n in 0 ..< frame.count - 1 where !(frame == V.ack && n >= 6) {
                XCTAssertEqual(PN53xFrame.decode(Array(frame.prefix(n))), .incomplete, "\(n) bytes of \(HexFormat.string(frame))")
            }
        }
    }

    func testTheTimeoutIndexIsNfcpys() {
        // base_clf_pn53x: 1 s is `32 02 0A 0B 0F`, 10 s `… 10` (the largest); 100 µs × 2^(n−1).
        XCTAssertEqual(RCS956.timeoutIndex(for: 1.0), 0x0F)
        XCTAssertEqual(RCS956.timeoutIndex(for: 10.0), 0x10)
        XCTAssertEqual(RCS956.timeoutIndex(for: 0.1), 0x0B) // 102.4 ms, the first at least 100 ms
        XCTAssertEqual(RCS956.timeoutIndex(for: 0.0001), 0x01)
        XCTAssertEqual(RCS956.seconds(timeoutIndex: 0x0B), 0.1024, accuracy: 1e-9)
    }

    private func opened(_ more: [ScriptedPipe.Step]) throws -> (RCS956, ScriptedPipe) {
        let pipe = ScriptedPipe(Self.opening + more)
        let reader = RCS956(pipe: pipe)
        try reader.open()
        return (reader, pipe)
    }

    func testOpenIsThreeCommandsAndNamesTheFirmwareAsNfcpyDoes() throws {
        let (reader, pipe) = try opened([])
        XCTAssertEqual(reader.commandsSent, 3)
        XCTAssertEqual(reader.firmware?.description, "RCS956v1.30")
        XCTAssertEqual(pipe.surprises, [])
        XCTAssertTrue(pipe.finished)
    }

    func testAnotherChipIsNoRCS956() {
        let pipe = ScriptedPipe([.write(V.ack)] + Self.command("02", "03 32 01 06 07")) // a PN532's answer
        XCTAssertThrowsError(try RCS956(pipe: pipe).open()) { error in
            XCTAssertEqual((error as? TransitError)?.kind, .communication)
        }
    }

    func testASenseFindsNfcpysCardAndNoneIsSilence() throws {
        let (reader, pipe) = try opened(Self.sense + Self.command("4A 01 02 00 FF FF 01 00", "4B 00"))
        let target = try XCTUnwrap(RCS380.target(try reader.poll(bitRate: .kbps212), bitRate: .kbps212))
        XCTAssertEqual(target.idm, V.b("01 02 03 04 05 06 07 08"))
        XCTAssertEqual(target.pmm, V.b("F1 F2 F3 F4 F5 F6 F7 F8"))
        XCTAssertEqual(target.systemCode, 0xAABB)
        XCTAssertEqual(try reader.poll(bitRate: .kbps424), .silence, "the field stays on: no second RFConfiguration 01")
        XCTAssertEqual(pipe.surprises, [])
        XCTAssertTrue(pipe.finished)
    }

    private func channel(_ more: [ScriptedPipe.Step]) throws -> (USBFeliCaChannel, ScriptedPipe) {
        let (reader, pipe) = try opened(Self.sense + more)
        let target = try XCTUnwrap(RCS380.target(try reader.poll(bitRate: .kbps212), bitRate: .kbps212))
        return (USBFeliCaChannel(reader: reader, target: target, readerName: "SONY RC-S330/360/370 (USB 1:13)"), pipe)
    }

    /// A Read Without Encryption of nfcpy's card (one service 090F, one block).
    static let read = "10 06 01 02 03 04 05 06 07 08 01 0F 09 01 80 00"
    static let readAnswer = "1D 07 01 02 03 04 05 06 07 08 00 00 01 11 22 33 44 55 66 77 88 99 AA BB CC DD EE FF 00"
    /// The card's PMm (F1 … F8) says a one-block read may take 302.1 µs × (7 × 1 + 6 + 1) × 4³ =
    /// 0.27 s (byte 5, F6: a 6, b 6, e 3; nfcpy tt3.py): index 0D (409.6 ms), sent once.
    static let readTimeout = command("32 02 0A 0B 0D", "33")

    func testEachCardCommandIsOneInCommunicateThruTheTimeoutSetOnce() throws {
        let (channel, pipe) = try channel(Self.readTimeout + Self.command("42 " + Self.read, "43 00 " + Self.readAnswer)
                                          + Self.command("42 " + Self.read, "43 00 " + Self.readAnswer))
        let before = channel.reader.commandsSent
        for _ in 0 ..< 2 { XCTAssertEqual(try channel.transmit(V.b(Self.read), by: .distant), V.b(Self.readAnswer) + [0x90, 0x00]) }
        XCTAssertEqual(channel.reader.commandsSent - before, 3, "RFConfiguration 02 once, no register round trip")
        XCTAssertEqual(pipe.surprises, [])
        XCTAssertTrue(pipe.finished)
    }

    func testACRCErrorIsSentAgainAndTheReadGoesOn() throws {
        let (channel, pipe) = try channel(Self.readTimeout + Self.command("42 " + Self.read, "43 02") + Self.command("42 " + Self.read, "43 02")
                                          + Self.command("42 " + Self.read, "43 00 " + Self.readAnswer))
        XCTAssertEqual(try channel.transmit(V.b(Self.read), by: .distant), V.b(Self.readAnswer) + [0x90, 0x00])
        XCTAssertEqual(channel.retries, 2)
        XCTAssertEqual(pipe.surprises, [])
    }

    func testAnAnswerThatStaysDamagedIsCommunication() throws {
        let (channel, _) = try channel(Self.readTimeout + Array(repeating: Self.command("42 " + Self.read, "43 02"), count: RCS380.tries).flatMap { $0 })
        XCTAssertThrowsError(try channel.transmit(V.b(Self.read), by: .distant)) { error in
            XCTAssertEqual((error as? TransitError)?.kind, .communication)
        }
    }

    func testACardThatLeftIsSessionLost() throws {
        // Status 01 (the target did not answer), then the presence check's InListPassiveTarget finds none.
        let (channel, _) = try channel(Self.readTimeout + Self.command("42 " + Self.read, "43 01") + Self.command("4A 01 01 00 FF FF 01 00", "4B 00"))
        XCTAssertThrowsError(try channel.transmit(V.b(Self.read), by: .distant)) { error in
            XCTAssertEqual((error as? TransitError)?.kind, .sessionLost, "\(error)")
        }
    }

    static let pollAt212 = command("4A 01 01 00 FF FF 01 00", "4B 01 01 14 " + sensfRes)

    func testALostAnswerIsSentAgainOnceTheCardIsFoundThere() throws {
        // Status 01 (the target did not answer), the card listed again at its rate, the read again.
        let (channel, pipe) = try channel(Self.readTimeout + Self.command("42 " + Self.read, "43 01") + Self.pollAt212
                                          + Self.command("42 " + Self.read, "43 00 " + Self.readAnswer))
        XCTAssertEqual(try channel.transmit(V.b(Self.read), by: .distant), V.b(Self.readAnswer) + [0x90, 0x00])
        XCTAssertEqual(channel.retries, 1)
        XCTAssertEqual(channel.presenceChecks, 1)
        XCTAssertEqual(pipe.surprises, [])
        XCTAssertTrue(pipe.finished)
    }

    /// The chip ACKs an InCommunicateThru and never answers: by its timeout and the USB margin the
    /// command is cancelled with an ACK (nfcpy does so on a USB read timeout), stale answers are
    /// read away, and it is a lost answer: the card is looked for, the read sent again.
    func testAnUnansweredInCommunicateThruIsCancelledAndSentAgain() throws {
        let (channel, pipe) = try channel(Self.readTimeout + [.write(Self.pn53x("D4 42 " + Self.read)), .read(V.ack), .write(V.ack)]
                                          + Self.pollAt212 + Self.command("42 " + Self.read, "43 00 " + Self.readAnswer))
        let started = pipe.testClock.now
        XCTAssertEqual(try channel.transmit(V.b(Self.read), by: .distant), V.b(Self.readAnswer) + [0x90, 0x00])
        XCTAssertEqual(channel.retries, 1)
        // The wait: the chip's timeout (409.6 ms, index 0D) and the 0.1 s margin, the drain's 10 ms.
        XCTAssertLessThan(pipe.testClock.now.seconds(since: started), 0.55)
        XCTAssertEqual(pipe.surprises, [])
        XCTAssertTrue(pipe.finished)
    }

    func testALongerTimeoutIsSentOnceAndOnlyWhenItChanges() throws {
        let (reader, pipe) = try opened(Self.sense + Self.command("32 02 0A 0B 0F", "33")
                                        + Self.command("42 " + Self.read, "43 00 " + Self.readAnswer)
                                        + Self.command("42 " + Self.read, "43 00 " + Self.readAnswer))
        _ = try reader.poll(bitRate: .kbps212)
        for _ in 0 ..< 2 { XCTAssertEqual(try reader.exchange(V.b(Self.read), timeout: 1.0), .frame(V.b(Self.readAnswer))) }
        XCTAssertEqual(pipe.surprises, [])
        XCTAssertTrue(pipe.finished)
    }

    func testTheModelIsDrivenWithItsKernelDriver() {
        XCTAssertEqual(USBReaderModel(vendor: 0x054C, product: 0x02E1)?.kernelDriver, "pn533_usb")
        XCTAssertEqual(USBReaderModel.rcs380S.kernelDriver, "port100")
        let profile = ReaderProfile.matching("SONY RC-S330/360/370 (USB 1:13)")
        XCTAssertEqual(profile.name, "Sony RC-S330/360/370")
        XCTAssertEqual(profile.dialects, [.bareFrame])
    }
}

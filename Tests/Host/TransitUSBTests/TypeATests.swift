import Foundation
import TestSupport
import XCTest
import CardProtocol
import TransitModel
import TransitTransport
import TransitUSB

/// The RC-S380's 106 kbit/s type A sense and Type 2 READ against nfcpy's documented frames
/// (tests/test_clf_rcs380.py `test_sense_tta_*`, `test_send_cmd_recv_rsp_with_tt2_target` and
/// `…_with_crca_error`: the host's commands byte for byte), framed by docs/research/port100.md
/// §"Frames" (checksums worked out outside the code under test; docs/research/port100.md V12–V14).
/// nfcpy's mock answers leave the BCC out of SDD_RES; ours are a card's: UID CLn, then its BCC,
/// which the SEL_REQ that follows carries (ISO/IEC 14443-3 6.5.3.2), said where composed.
final class TypeATests: XCTestCase {
    /// The USB readers' lines of the reader table, as `transit` adds them as it starts.
    override func setUp() { ReaderTable.add(USBReaderTable.profiles()) }

    typealias V = USBVectors
    static func cmd(_ host: String, _ chip: String) -> [ScriptedPipe.Step] { ScriptedPipe.command(V.b(host), V.b(chip)) }

    static let protocolOK = "00 00 FF FF FF 03 00 FD D7 03 00 26 00"
    /// V12: InSetRF 106A (`00 02030f03`), the default set (V4), the sense settings (`02 01000200050100060707`), SENS_REQ (`04 360126`).
    static let senseStart: [ScriptedPipe.Step] = cmd("00 00 FF FF FF 06 00 FA D6 00 02 03 0F 03 13 00", V.v3OK.hexString)
        + ScriptedPipe.command(V.v4Defaults, V.v4OK)
        + cmd("00 00 FF FF FF 0C 00 F4 D6 02 01 00 02 00 05 01 00 06 07 07 0B 00", protocolOK)
    static let sensReq = "00 00 FF FF FF 05 00 FB D6 04 36 01 26 C9 00"
    /// `02 04010708`, `02 01000200`, `02 01010201`.
    static let standardFrames = "00 00 FF FF FF 06 00 FA D6 02 04 01 07 08 14 00"
    static let crcOff = "00 00 FF FF FF 06 00 FA D6 02 01 00 02 00 25 00"
    static let crcOn = "00 00 FF FF FF 06 00 FA D6 02 01 01 02 01 23 00"

    /// V13: a 7-byte UID, 01 02 … 07 (nfcpy's test_sense_tta_find_tt2_target_uid_7), SENS_RES 44 00;
    /// SDD_RES CL1 `88 01 02 03 88`, CL2 `04 05 06 07 00` (composed: the BCCs; nfcpy's
    /// test_sense_tta_tt2_request_uid_7 sends the same SEL_REQ, `93 70 88 01 02 03 88`), SAK 04 then 00.
    static let ultralightSense: [ScriptedPipe.Step] = senseStart
        + cmd(sensReq, "00 00 FF FF FF 09 00 F7 D7 05 00 00 00 00 08 44 00 D8 00")
        + cmd(standardFrames, protocolOK)
        + cmd(crcOff, protocolOK)
        + cmd("00 00 FF FF FF 06 00 FA D6 04 36 01 93 20 3C 00", "00 00 FF FF FF 0C 00 F4 D7 05 00 00 00 00 08 88 01 02 03 88 06 00")
        + cmd(crcOn, protocolOK)
        + cmd("00 00 FF FF FF 0B 00 F5 D6 04 36 01 93 70 88 01 02 03 88 D6 00", "00 00 FF FF FF 08 00 F8 D7 05 00 00 00 00 08 04 18 00")
        + cmd(crcOff, protocolOK)
        + cmd("00 00 FF FF FF 06 00 FA D6 04 36 01 95 20 3A 00", "00 00 FF FF FF 0C 00 F4 D7 05 00 00 00 00 08 04 05 06 07 00 06 00")
        + cmd(crcOn, protocolOK)
        + cmd("00 00 FF FF FF 0B 00 F5 D6 04 36 01 95 70 04 05 06 07 00 D4 00", "00 00 FF FF FF 08 00 F8 D7 05 00 00 00 00 08 00 1C 00")

    /// A Classic 1K (composed: easycard.json's UID 3A 5C 7E 91, BCC 89; SENS_RES 04 00, SAK 08).
    static let classicSense: [ScriptedPipe.Step] = senseStart
        + cmd(sensReq, "00 00 FF FF FF 09 00 F7 D7 05 00 00 00 00 08 04 00 18 00")
        + cmd(standardFrames, protocolOK)
        + cmd(crcOff, protocolOK)
        + cmd("00 00 FF FF FF 06 00 FA D6 04 36 01 93 20 3C 00", "00 00 FF FF FF 0C 00 F4 D7 05 00 00 00 00 08 3A 5C 7E 91 89 EE 00")
        + cmd(crcOn, protocolOK)
        + cmd("00 00 FF FF FF 0B 00 F5 D6 04 36 01 93 70 3A 5C 7E 91 89 BE 00", "00 00 FF FF FF 08 00 F8 D7 05 00 00 00 00 08 08 14 00")

    /// V14: a Type 2 command as nfcpy's test_send_cmd_recv_rsp_with_tt2_target sends it: InSetRF
    /// 106A, the default set, `02 040102000501`, then InCommRF with its 1 s (`1A 27`) and `31 32`.
    static let type2Setup: [ScriptedPipe.Step] = cmd("00 00 FF FF FF 06 00 FA D6 00 02 03 0F 03 13 00", V.v3OK.hexString)
        + ScriptedPipe.command(V.v4Defaults, V.v4OK)
        + cmd("00 00 FF FF FF 08 00 F8 D6 02 04 01 02 00 05 01 1B 00", protocolOK)

    private func opened(_ more: [ScriptedPipe.Step]) throws -> (RCS380, ScriptedPipe) {
        let pipe = ScriptedPipe(RCS380Tests.initialisation + more)
        let reader = RCS380(pipe: pipe)
        try reader.open()
        return (reader, pipe)
    }

    func testCRCAIsAnnexBsAndNfcpysExamples() {
        // ISO/IEC 14443-3 Annex B: 00 00 gives A0 1E, 12 34 gives 26 CF; nfcpy's Type 2 fixture: "34" ends CD F5.
        XCTAssertEqual(TypeA.crc([0x00, 0x00]), [0xA0, 0x1E])
        XCTAssertEqual(TypeA.crc([0x12, 0x34]), [0x26, 0xCF])
        XCTAssertEqual(TypeA.crc([0x33, 0x34]), [0xCD, 0xF5])
        XCTAssertTrue(TypeA.crcHolds([0x33, 0x34, 0xCD, 0xF5]))
        XCTAssertFalse(TypeA.crcHolds([0x33, 0x34, 0x00, 0x00]))
        XCTAssertFalse(TypeA.crcHolds([0xCD, 0xF5]))
    }

    func testV13ASevenByteUIDIsSensedAndSelectedByteForByte() throws {
        let (reader, pipe) = try opened(Self.ultralightSense)
        guard case .card(let card) = try reader.senseTypeA() else { return XCTFail("no card: \(pipe.surprises)") }
        XCTAssertEqual(card.uid, [1, 2, 3, 4, 5, 6, 7])
        XCTAssertEqual(card.sensRes, [0x44, 0x00])
        XCTAssertEqual(card.sak, 0x00)
        XCTAssertEqual(card.kind, .type2)
        XCTAssertEqual(pipe.surprises, [])
        XCTAssertTrue(pipe.finished)
        XCTAssertEqual(reader.commandsSent, 3 + 13, "the open, then nfcpy's 13 commands for a double-size UID")
    }

    func testAClassicIsSensedByItsSAK() throws {
        let (reader, pipe) = try opened(Self.classicSense)
        guard case .card(let card) = try reader.senseTypeA() else { return XCTFail("no card") }
        XCTAssertEqual(card.uid, [0x3A, 0x5C, 0x7E, 0x91])
        XCTAssertEqual(card.kind, .classic)
        XCTAssertEqual(pipe.surprises, [])
        XCTAssertEqual(reader.commandsSent, 3 + 9)
    }

    func testNoCardIsFourCommandsAsNfcpysTest() throws {
        let (reader, pipe) = try opened(Self.senseStart + ScriptedPipe.command(V.b(Self.sensReq), V.v6NoCard))
        XCTAssertEqual(try reader.senseTypeA(), .none)
        XCTAssertEqual(pipe.surprises, [])
        XCTAssertTrue(pipe.finished)
        XCTAssertEqual(reader.commandsSent, 3 + 4)
    }

    func testATypeOneTagAndAnOddSENSRESAreNoCard() throws {
        // nfcpy: SENS_RES 00 0C is a Type 1 tag (bits 1–5 of its first byte clear); one byte is no SENS_RES.
        for answer in ["00 00 FF FF FF 09 00 F7 D7 05 00 00 00 00 08 00 0C 10 00", "00 00 FF FF FF 08 00 F8 D7 05 00 00 00 00 08 00 1C 00"] {
            let (reader, pipe) = try opened(Self.senseStart + Self.cmd(Self.sensReq, answer))
            XCTAssertEqual(try reader.senseTypeA(), .none, answer)
            XCTAssertEqual(pipe.surprises, [])
            XCTAssertTrue(pipe.finished)
        }
    }

    func testADamagedSENSRESOrABadBCCIsDamagedNotACard() throws {
        let (reader, _) = try opened(Self.senseStart + ScriptedPipe.command(V.b(Self.sensReq), V.crcError))
        XCTAssertEqual(try reader.senseTypeA(), .damaged)
        // SDD_RES 88 01 02 03 with BCC 00 (it is 88): composed, DCS 8E by the §"Frames" rule.
        let badBCC = Self.senseStart
            + Self.cmd(Self.sensReq, "00 00 FF FF FF 09 00 F7 D7 05 00 00 00 00 08 44 00 D8 00")
            + Self.cmd(Self.standardFrames, Self.protocolOK) + Self.cmd(Self.crcOff, Self.protocolOK)
            + Self.cmd("00 00 FF FF FF 06 00 FA D6 04 36 01 93 20 3C 00", "00 00 FF FF FF 0C 00 F4 D7 05 00 00 00 00 08 88 01 02 03 00 8E 00")
        let (other, pipe) = try opened(badBCC)
        XCTAssertEqual(try other.senseTypeA(), .damaged)
        XCTAssertTrue(pipe.finished)
    }

    func testV14AType2CommandIsNfcpysExchangeThenOneInCommRFAFrame() throws {
        let answer = "00 00 FF FF FF 0B 00 F5 D7 05 00 00 00 00 08 33 34 CD F5 F3 00"
        let (reader, pipe) = try opened(Self.type2Setup + Self.cmd("00 00 FF FF FF 06 00 FA D6 04 1A 27 31 32 82 00", answer)
                                        + Self.cmd("00 00 FF FF FF 06 00 FA D6 04 1A 27 31 32 82 00", answer))
        XCTAssertEqual(try reader.exchangeTypeA([0x31, 0x32], timeout: 1.0), .frame([0x33, 0x34]), "CRC_A checked and removed")
        XCTAssertEqual(try reader.exchangeTypeA([0x31, 0x32], timeout: 1.0), .frame([0x33, 0x34]))
        XCTAssertEqual(pipe.surprises, [])
        XCTAssertTrue(pipe.finished)
        XCTAssertEqual(reader.commandsSent, 3 + 3 + 2, "the settings once, then one InCommRF a command")
    }

    func testV14sCRCAErrorIsARadioError() throws {
        // nfcpy's test_send_cmd_recv_rsp_with_crca_error: `33 34 00 00`.
        let (reader, _) = try opened(Self.type2Setup + Self.cmd("00 00 FF FF FF 06 00 FA D6 04 1A 27 31 32 82 00",
                                                                "00 00 FF FF FF 0B 00 F5 D7 05 00 00 00 00 08 33 34 00 00 B5 00"))
        XCTAssertEqual(try reader.exchangeTypeA([0x31, 0x32], timeout: 1.0), .radioError(.crc))
    }

    func testTheATRsArePCSCPart3sStorageCardForms() {
        // PC/SC Part 3 card names with their TCK as pcsc-tools' smartcard_list has them:
        // 00 01 Classic 1K (6A), 00 02 Classic 4K (69), 00 03 Ultralight (68), 00 26 Mini (4D).
        XCTAssertEqual(TypeA.atr(kind: .type2, sak: 0x00), V.b("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 03 00 00 00 00 68"))
        XCTAssertEqual(TypeA.atr(kind: .classic, sak: 0x08), V.b("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 01 00 00 00 00 6A"))
        XCTAssertEqual(TypeA.atr(kind: .classic, sak: 0x18), V.b("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 02 00 00 00 00 69"))
        XCTAssertEqual(TypeA.atr(kind: .classic, sak: 0x09), V.b("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 26 00 00 00 00 4D"))
        XCTAssertNil(TypeA.atr(kind: .other, sak: 0x20))
        XCTAssertEqual(ATRVerdict(atr: TypeA.atr(kind: .type2, sak: 0) ?? []), .storage(name: "MIFARE Ultralight"))
        XCTAssertEqual(ATRVerdict(atr: TypeA.atr(kind: .classic, sak: 8) ?? []), .storage(name: "MIFARE Classic 1K"))
        // AN10833's SAKs.
        XCTAssertEqual(TypeA.Kind(sak: 0x00), .type2)
        for sak: UInt8 in [0x08, 0x18, 0x09, 0x28, 0x38, 0x88] { XCTAssertEqual(TypeA.Kind(sak: sak), .classic, "\(sak)") }
        for sak: UInt8 in [0x20, 0x40, 0x60] { XCTAssertEqual(TypeA.Kind(sak: sak), .other, "\(sak)") }
    }

    // The channel.

    /// READ of page 4 with the channel's 0.1 s (`F2 03`, nfcpy's own 0.1 s vector): DCS FD.
    static let read4 = "00 00 FF FF FF 06 00 FA D6 04 F2 03 30 04 FD 00"
    /// Bytes 10…1F and their CRC_A, 22 E8 (Annex B's algorithm, worked out outside the code under test).
    static let fourPages = "00 00 FF FF FF 19 00 E7 D7 05 00 00 00 00 08 10 11 12 13 14 15 16 17 18 19 1A 1B 1C 1D 1E 1F 22 E8 9A 00"
    static let nak = "00 00 FF FF FF 08 00 F8 D7 05 00 00 00 00 08 00 1C 00"

    private func ultralightChannel(_ more: [ScriptedPipe.Step]) throws -> (RCS380TypeAChannel, ScriptedPipe) {
        let (reader, pipe) = try opened(Self.ultralightSense + more)
        guard case .card(let card) = try reader.senseTypeA() else { throw XCTSkip("no card") }
        return (RCS380TypeAChannel(reader: reader, target: card, readerName: "SONY RC-S380/S (USB 1:13)"), pipe)
    }

    func testAnUltralightReadsFourPagesAReadBinaryThroughOneInCommRF() throws {
        let (channel, pipe) = try ultralightChannel(Self.type2Setup + Self.cmd(Self.read4, Self.fourPages) + Self.cmd(Self.read4, Self.fourPages)
                                                    + Self.cmd(Self.read4, Self.nak))
        let before = channel.reader.commandsSent
        XCTAssertEqual(try channel.transmit([0xFF, 0xCA, 0x00, 0x00, 0x00], by: .distant), [1, 2, 3, 4, 5, 6, 7, 0x90, 0x00])
        XCTAssertEqual(try channel.transmit([0xFF, 0xB0, 0x00, 0x04, 0x10], by: .distant), Array(0x10 ... 0x1F) + [0x90, 0x00])
        XCTAssertEqual(try channel.transmit([0xFF, 0xB0, 0x00, 0x04, 0x04], by: .distant), [0x10, 0x11, 0x12, 0x13, 0x90, 0x00], "Le 04: one page")
        XCTAssertEqual(try channel.transmit([0xFF, 0xB0, 0x00, 0x04, 0x10], by: .distant), [0x63, 0x00], "a NAK is the card's refusal")
        XCTAssertEqual(channel.reader.commandsSent - before, 3 + 3, "the settings once, then one InCommRF a Read Binary")
        XCTAssertEqual(pipe.surprises, [])
        XCTAssertTrue(pipe.finished)
    }

    func testNothingElseReachesTheCard() throws {
        let (channel, pipe) = try ultralightChannel([])
        let writes = pipe.written.count
        // Load Keys, General Authenticate, Update Binary, a pass-through, an ISO SELECT, a FeliCa frame.
        for apdu: [UInt8] in [[0xFF, 0x82, 0x00, 0x00, 0x06, 1, 2, 3, 4, 5, 6], [0xFF, 0x86, 0x00, 0x00, 0x05, 1, 0, 4, 0x60, 0],
                              [0xFF, 0xD6, 0x00, 0x04, 0x04, 1, 2, 3, 4], [0xFF, 0x00, 0x00, 0x00, 0x02, 0x30, 0x04]] {
            XCTAssertEqual(try channel.transmit(apdu, by: .distant), [0x6A, 0x81], "\(apdu)")
        }
        XCTAssertEqual(try channel.transmit([0x00, 0xA4, 0x04, 0x00, 0x00], by: .distant), [0x6E, 0x00])
        XCTAssertEqual(try channel.transmit([0x06, 0x00, 0xFF, 0xFF, 0x01, 0x00], by: .distant), [0x6E, 0x00])
        XCTAssertEqual(try channel.transmit([0xFF, 0xB0, 0x00, 0x04, 0x20], by: .distant), [0x6C, 0x10], "at most 16 bytes")
        XCTAssertEqual(pipe.written.count, writes)
    }

    func testAClassicOnTheRCS380EndsWithTheReaderTablesSentenceNamingIt() throws {
        let (reader, pipe) = try opened(Self.classicSense)
        guard case .card(let card) = try reader.senseTypeA() else { return XCTFail("no card") }
        let channel = RCS380TypeAChannel(reader: reader, target: card, readerName: "SONY RC-S380/S (USB 1:13)")
        let writes = pipe.written.count
        let session = CardSession(channel: channel, dialect: nil, deadline: .distant)
        XCTAssertThrowsError(try session.identify()) { error in
            let e = error as? TransitError
            XCTAssertEqual(e?.kind, .readerUnsupported)
            XCTAssertTrue(e?.message.hasPrefix("the Sony RC-S380 cannot open MIFARE Classic sectors") ?? false, e?.message ?? "")
        }
        XCTAssertEqual(pipe.written.count, writes, "decided from the ATR: nothing reaches the card")
        XCTAssertEqual(try channel.transmit([0xFF, 0xB0, 0x00, 0x04, 0x10], by: .distant), [0x6A, 0x81], "no READ to a Classic")
    }

    func testAnUltralightSessionReadsPagesThroughTheStoragePath() throws {
        let (channel, pipe) = try ultralightChannel(Self.type2Setup + Self.cmd(Self.read4, Self.fourPages))
        let session = CardSession(channel: channel, dialect: nil, deadline: .distant)
        XCTAssertEqual(try session.identify(), .mifareUltralight)
        XCTAssertEqual(session.uid, [1, 2, 3, 4, 5, 6, 7])
        XCTAssertEqual(try session.storage?.pages(4, count: 4), Array(0x10 ... 0x1F))
        XCTAssertEqual(pipe.surprises, [])
    }

    func testASilentREADIsTriedThreeTimesThenTheCardIsGone() throws {
        let (channel, pipe) = try ultralightChannel(Self.type2Setup + [0, 1, 2].flatMap { _ in ScriptedPipe.command(V.b(Self.read4), V.v6NoCard) })
        XCTAssertThrowsError(try channel.transmit([0xFF, 0xB0, 0x00, 0x04, 0x10], by: .distant)) { error in
            XCTAssertEqual((error as? TransitError)?.kind, .sessionLost)
        }
        XCTAssertEqual(channel.retries, 2)
        XCTAssertTrue(pipe.finished)
    }

    /// Open, sense, one Read Binary of four pages: how it ended, in a word.
    private static func senseAndRead(_ pipe: ScriptedPipe) -> String {
        let reader = RCS380(pipe: pipe)
        do throws(TransitError) {
            try reader.open()
            let card: RCS380.TypeATarget
            switch try reader.senseTypeA() {
            case .card(let found): card = found
            case .none: return "no card"
            case .damaged: return "damaged"
            }
            let channel = RCS380TypeAChannel(reader: reader, target: card, readerName: "SONY RC-S380/S (USB 1:13)")
            let answer = try channel.transmit([0xFF, 0xB0, 0x00, 0x04, 0x10], by: pipe.testClock.deadline(in: 2))
            return answer.count == 18 ? "read" : answer == [0x63, 0x00] ? "refused" : "answer \(answer)"
        } catch {
            return error.kind.rawValue
        }
    }

    /// Every card answer of an Ultralight's sense and READ cut short, byte by byte (a well-formed
    /// Port-100 frame around fewer card bytes): each ends as no card, a damaged answer, a refusal
    /// or a documented error, never a trap (card data is untrusted radio input).
    func testCardAnswersCutShortAtEveryLengthEndCleanly() throws {
        let script = Self.ultralightSense + Self.type2Setup + Self.cmd(Self.read4, Self.fourPages)
        let answers = script.indices.filter { i in
            if case .read(let bytes) = script[i], bytes.count > 15, Array(bytes[8 ..< 10]) == [0xD7, 0x05] { return true }
            return false
        }
        var outcomes = [String: Int]()
        for i in answers {
            guard case .read(let whole) = script[i] else { continue }
            let data = Array(whole[8 ..< whole.count - 2]) // D7 05, status, the byte, the card's bytes
            for n in 0 ..< data.count - 7 {
                var cut = script
                cut[i] = .read(Port100Frame.encode(Array(data.prefix(7 + n))) ?? [])
                let outcome = Self.senseAndRead(ScriptedPipe(RCS380Tests.initialisation + cut))
                XCTAssertTrue(["no card", "damaged", "read", "refused", "communication", "sessionLost", "malformedResponse"].contains(outcome), outcome)
                outcomes[outcome, default: 0] += 1
            }
        }
        XCTAssertGreaterThan(outcomes["no card", default: 0], 0, "\(outcomes)")
        // SENS_RES 2 bytes, two SDD_RES of 5, two SAKs of 1, READ's 16 and CRC_A: 32 cuts.
        XCTAssertEqual(outcomes.values.reduce(0, +), 32, "\(outcomes)")
    }
}

private extension Array where Element == UInt8 {
    var hexString: String { map { String(format: "%02X", $0) }.joined(separator: " ") }
}

import CardProtocol
import TransitModel
/// Wraps a FeliCa frame in the reader's pseudo-APDU and tells what came back: the card's frame, the
/// card's silence, or the reader refusing the pass-through itself (then another dialect may work).
/// A reader or radio failure is thrown as `communication`; an answer that does not parse as
/// `malformedResponse`.
/// Dialect facts: ACR122U API and NXP PN532 User Manual (InDataExchange, error codes, 7.1); ACR1252U
/// reference manual (direct transmit); PC/SC 2.02 Part 3, 3.2.2.1 (Transparent Exchange: data objects
/// 95 transceive, 96 response status, 97 ICC response, C0 generic error status).
package enum FeliCaFraming {
    package enum Outcome: Equatable {
        /// The card's frame, length byte first.
        case frame([UInt8])
        /// The reader worked and the card stayed silent (as to a Polling for a system it lacks).
        case silent
        /// The reader refused the pseudo-APDU itself: this is not its dialect. The reason, for the log.
        case refused(String)
    }

    /// The pseudo-APDU; nil when the frame cannot travel in one short APDU in this dialect.
    package static func wrap(_ frame: [UInt8], _ dialect: FeliCaDialect) -> [UInt8]? {
        let data: [UInt8]
        switch dialect {
        case .pn532: data = [0xD4, 0x40, 0x01] + frame
        case .acsDirect: data = frame
        case .part3:
            guard let object = BERTLV.encode(tag: 0x95, frame) else { return nil }
            data = part3Timer + object
        case .bareFrame:
            // The frame is the APDU: its length byte stands as CLA (an APDU has at least four bytes).
            return frame.count >= 4 && frame.count <= 255 ? frame : nil
        }
        guard data.count <= 255 else { return nil }
        let header: [UInt8] = dialect == .part3 ? [0xFF, 0xC2, 0x00, 0x01] : [0xFF, 0x00, 0x00, 0x00]
        // Part 3's Transparent Exchange is a case 4 command: Le 00 asks for up to 256 bytes (Part 3, 3.2.2.1).
        return header + [UInt8(data.count)] + data + (dialect == .part3 ? [0x00] : [])
    }

    /// Part 3 timer object 5F46, 4 bytes of microseconds, least significant first: 50 ms to wait for
    /// the card's answer. Without it a reader may wait as little as ~302 µs (ACS ACM1252U-Y3 manual,
    /// 5.2.3.3), too short for FeliCa; Microsoft's NFC class driver requires readers to take it. A
    /// FeliCa card answers a 12-block read within a few milliseconds (its PMm's timing).
    package static let part3Timer: [UInt8] = [0x5F, 0x46, 0x04, 0x50, 0xC3, 0x00, 0x00]

    /// Status words with which readers refuse a pseudo-APDU they do not know (ISO 7816-4, 5.1.3):
    /// instruction or class not supported, function not supported.
    package static let refusals: Set<[UInt8]> = [[0x6D, 0x00], [0x6E, 0x00], [0x6A, 0x81]]

    package static func unwrap(_ answer: [UInt8], _ dialect: FeliCaDialect) throws -> Outcome {
        guard answer.count >= 2 else { throw malformed("reader answer of \(answer.count) bytes") }
        let sw = Array(answer.suffix(2)), body = Array(answer.dropLast(2))
        if refusals.contains(sw) { return .refused("SW \(HexFormat.string(sw))") }
        // ACS direct transmit: 63 00 is "the operation failed", which these readers answer when the card
        // stays silent (ACR1252U reference manual, direct transmit; ACR122U API v2.04, 4.1, for the bare
        // frame too).
        if dialect == .acsDirect || dialect == .bareFrame, sw == [0x63, 0x00] { return .silent }
        guard sw == [0x90, 0x00] else {
            throw TransitError(.communication, L10n.words("the reader failed the FeliCa exchange (SW %1$s)", .init(HexFormat.string(sw))))
        }
        switch dialect {
        case .pn532: return try pn532(body)
        case .acsDirect, .bareFrame: return .frame(try frame(body))
        case .part3: return try part3(body)
        }
    }

    /// `D5 41 <status> <frame>` (InDataExchange) or `D5 43 <status> <frame>` (InCommunicateThru). The
    /// status's low six bits are the error code (PN532 User Manual, 7.1; bit 6 is MI, bit 7 NAD):
    /// 00 success, 01 "the target has not answered" (silence), anything else a radio or reader error.
    private static func pn532(_ body: [UInt8]) throws -> Outcome {
        guard body.count >= 3, body[0] == 0xD5, body[1] == 0x41 || body[1] == 0x43 else {
            throw malformed("PN532 answer without D5 41 or D5 43")
        }
        switch body[2] & 0x3F {
        case 0x00 where body[2] & 0x40 != 0:
            // MI: the PN532 chained its answer (more to fetch); a FeliCa frame never needs that.
            throw TransitError(.communication, L10n.words("the reader's PN532 chained its answer (status %1$s)", .init(HexFormat.string([body[2]]))))
        case 0x00: return .frame(try frame(Array(body.dropFirst(3))))
        case 0x01: return .silent
        case let code:
            // The PN532 user manual's words for its error codes (7.1), as it says them.
            throw TransitError(.communication, L10n.words("the reader's PN532 reported error %1$s (%2$s)", .init(HexFormat.string([code])),
                                                          pn532Errors[code].map(L10n.Words.init) ?? L10n.words("see the PN532 user manual, 7.1")))
        }
    }

    /// PN532 error codes (PN532 User Manual UM0701-02, 7.1 "Error handling").
    package static let pn532Errors: [UInt8: String] = [
        0x02: "CRC error", 0x03: "parity error", 0x04: "erroneous bit count", 0x05: "framing error",
        0x06: "abnormal bit collision", 0x07: "communication buffer too small", 0x09: "RF buffer overflow",
        0x0A: "RF field not switched on in time", 0x0B: "RF protocol error", 0x0D: "temperature error",
        0x0E: "internal buffer overflow", 0x10: "invalid parameter", 0x13: "data format error",
        0x27: "command not acceptable in the current context", 0x29: "target released by its initiator",
        0x2B: "the card disappeared",
    ]

    /// Part 3 answer: the generic error status object `C0 03 <object number> SW1 SW2` (00 90 00: no
    /// error), then response objects: 96 response status, 97 the card's frame (Part 3, 3.2.2.1.8).
    private static func part3(_ body: [UInt8]) throws -> Outcome {
        let objects: [BERTLV.Object]
        do { objects = try BERTLV.decode(body) } catch { throw malformed("Part 3 answer: \(error)") }
        guard let status = objects.first(where: { $0.tag == 0xC0 })?.value, status.count == 3 else {
            throw malformed("Part 3 answer without its C0 status object")
        }
        let sw = Array(status.suffix(2))
        if sw == [0x6A, 0x81] { return .refused("Part 3 status \(HexFormat.string(status)): function not supported") }
        if sw == [0x64, 0x01] { return .silent } // "no response from the card" (Part 3, generic error status)
        guard sw == [0x90, 0x00] else {
            throw TransitError(.communication, L10n.words("the reader reported Part 3 status %1$s for the FeliCa exchange", .init(HexFormat.string(status))))
        }
        if let flags = objects.first(where: { $0.tag == 0x96 })?.value, flags.contains(where: { $0 != 0 }) {
            throw TransitError(.communication, L10n.words("the reader reported a radio error (Part 3 response status %1$s)", .init(HexFormat.string(flags))))
        }
        guard let frameBytes = objects.first(where: { $0.tag == 0x97 })?.value else {
            throw malformed("Part 3 answer without a 97 frame")
        }
        return .frame(try frame(frameBytes))
    }

    /// True for answers that, to a dialect not yet confirmed on the reader, say nothing of the card:
    /// `63 00`, ACS's "the operation failed" (ACR122U API v2.04, 4.1; what an ACS reader answers when
    /// the card ignored a frame, and a wrapper the reader does not take reaches the card as one), and
    /// a PN532 error status (PN532 User Manual 7.1: the PN532 could not carry the frame).
    package static func saysNothingOfTheCard(_ answer: [UInt8], _ dialect: FeliCaDialect) -> Bool {
        if answer.suffix(2) == [0x63, 0x00] { return true }
        return dialect == .pn532 && answer.count >= 5 && answer.suffix(2) == [0x90, 0x00] && answer[0] == 0xD5
            && (answer[1] == 0x41 || answer[1] == 0x43) && answer[2] & 0x3F != 0
    }

    /// Bytes a dialect adds around a frame: to the command APDU, and to the reader's answer. Part 3
    /// counts a two-byte BER-TLV length and the response status (96) and bit framing (92) objects
    /// a reader may add before the frame.
    package static func overhead(_ dialect: FeliCaDialect) -> (command: Int, answer: Int) {
        switch dialect {
        case .pn532: return (5 + 3, 3 + 2)
        case .acsDirect: return (5, 2)
        case .bareFrame: return (0, 2)
        case .part3: return (5 + part3Timer.count + 3 + 1, 5 + 3 + 4 + 3 + 2)
        }
    }

    /// The longest FeliCa frame (length byte included) that travels both ways in `dialect` on a
    /// reader that takes commands of at most `maxCommand` bytes (a CCID reader's messages bound
    /// both directions); a frame's length byte caps it at 255.
    package static func largestFrame(_ dialect: FeliCaDialect, maxCommand: Int) -> Int {
        let o = overhead(dialect)
        return max(0, min(255, maxCommand - o.command, maxCommand - o.answer))
    }

    /// PC/SC Part 3, 3.2.2.1.1 Manage Session (`FF C2 00 00`, Le 00): data object 81 00 starts a
    /// transparent session, 82 00 ends it; bytes as the public RC-S300 client sends them
    /// (oyajun/pcsc-sample, src/pcsc/apdu.rs).
    package static let startSession: [UInt8] = [0xFF, 0xC2, 0x00, 0x00, 0x02, 0x81, 0x00, 0x00]
    package static let endSession: [UInt8] = [0xFF, 0xC2, 0x00, 0x00, 0x02, 0x82, 0x00, 0x00]

    /// True when the reader took Manage Session: SW 90 00 and a generic error status `C0 03 00 90 00`
    /// (or none). A refusal (6A 81, 6D 00, a C0 "not supported") or anything else is false: the
    /// exchanges then go without a session.
    package static func sessionStarted(_ answer: [UInt8]) -> Bool {
        guard answer.count >= 2, answer.suffix(2) == [0x90, 0x00],
              let objects = try? BERTLV.decode(Array(answer.dropLast(2))) else { return false }
        guard let status = objects.first(where: { $0.tag == 0xC0 })?.value else { return true }
        return status.count == 3 && status.suffix(2) == [0x90, 0x00]
    }

    /// A FeliCa frame's first byte is its own length.
    private static func frame(_ f: [UInt8]) throws -> [UInt8] {
        guard let first = f.first, Int(first) == f.count else { throw malformed("FeliCa frame length byte disagrees with its length") }
        return f
    }

    /// The reader's answer did not parse: `m` says what, in the reader's terms (the same in English;
    /// introduced in another language).
    private static func malformed(_ m: String) -> TransitError {
        TransitError(.malformedResponse, L10n.Words(english: m, said: L10n.tr("the reader's answer did not parse: %1$s", m)))
    }
}

import CardProtocol

/// The byte vectors of docs/research/port100.md §"Test vectors", copied from that text (full USB
/// transfers, hex as written there). Values composed here from those vectors by the §"Frames" rule
/// (checksums worked out by hand, not by the code under test) say so.
enum USBVectors {
    static func b(_ hex: String) -> [UInt8] {
        guard let bytes = HexFormat.bytes(hex.split(separator: " ").joined()) else { preconditionFailure("bad hex in a vector: \(hex)") }
        return bytes
    }

    static let ack = b("00 00 FF 00 FF 00")

    // V1 init, TRACE (nfcpy issue #11, RC-S380/S, firmware 1.11).
    static let v1SetCommandType = b("00 00 FF FF FF 03 00 FD D6 2A 01 FF 00")
    static let v1SetCommandTypeOK = b("00 00 FF FF FF 03 00 FD D7 2B 00 FE 00")
    static let v1GetFirmwareVersion = b("00 00 FF FF FF 02 00 FE D6 20 0A 00")
    static let v1FirmwareVersion = b("00 00 FF FF FF 04 00 FC D7 21 11 01 F6 00")
    static let v1GetPDDataVersion = b("00 00 FF FF FF 02 00 FE D6 22 08 00")
    static let v1PDDataVersion = b("00 00 FF FF FF 04 00 FC D7 23 00 01 05 00")
    static let v1SwitchRFOff = b("00 00 FF FF FF 03 00 FD D6 06 00 24 00")
    static let v1SwitchRFOffOK = b("00 00 FF FF FF 03 00 FD D7 07 00 22 00")

    // V2 GetCommandType, CODE.
    static let v2GetCommandType = b("00 00 FF FF FF 02 00 FE D6 28 02 00")
    static let v2CommandTypes = b("00 00 FF FF FF 0A 00 F6 D7 29 00 00 00 00 00 00 00 03 FD 00")

    // V3 InSetRF, CODE.
    static let v3InSetRF212 = b("00 00 FF FF FF 06 00 FA D6 00 01 01 0F 01 18 00")
    static let v3InSetRF424 = b("00 00 FF FF FF 06 00 FA D6 00 01 02 0F 02 16 00")
    static let v3OK = b("00 00 FF FF FF 03 00 FD D7 01 00 28 00")
    static let v3ParameterError = b("00 00 FF FF FF 03 00 FD D7 01 01 27 00")

    // V4 InSetProtocol, CODE.
    static let v4Defaults = b("00 00 FF FF FF 28 00 D8 D6 02 00 18 01 01 02 01 03 00 04 00 05 00 06 00 07 08 08 00 09 00 0A 00 0B 00 0C 00 0E 04 0F 00 10 00 11 00 12 00 13 06 4B 00")
    static let v4DefaultPairs = b("00 18 01 01 02 01 03 00 04 00 05 00 06 00 07 08 08 00 09 00 0A 00 0B 00 0C 00 0E 04 0F 00 10 00 11 00 12 00 13 06")
    static let v4GuardTime24 = b("00 00 FF FF FF 04 00 FC D6 02 00 18 10 00")
    static let v4OK = b("00 00 FF FF FF 03 00 FD D7 03 00 26 00")

    // V5 sense_ttf, CODE (fixture test_sense_ttf_with_tt3_target_found).
    static let v5Polling = b("00 00 FF FF FF 0A 00 F6 D6 04 6E 00 06 00 FF FF 01 00 B3 00")
    static let v5Found = b("00 00 FF FF FF 1B 00 E5 D7 05 00 00 00 00 08 14 01 01 01 07 01 26 0C CA 02 0F 0D 23 04 2F 77 83 FF 12 FC 86 00")
    static let v5IDm = b("01 01 07 01 26 0C CA 02")
    static let v5PMm = b("0F 0D 23 04 2F 77 83 FF")
    static let v5SystemCode: UInt16 = 0x12FC

    // V6 sense_ttf with no card, CODE (RECEIVE_TIMEOUT).
    static let v6NoCard = b("00 00 FF FF FF 06 00 FA D7 05 80 00 00 00 A4 00")

    // V7 exchange, CODE: Read Without Encryption of Suica history (service 090F, block 0), 1 s.
    static let v7Read = b("00 00 FF FF FF 14 00 EC D6 04 1A 27 10 06 01 01 07 01 26 0C CA 02 01 0F 09 01 80 00 2D 00")
    /// V7's card frame: InCommRF's data after the 2-byte timeout.
    static let v7Frame = b("10 06 01 01 07 01 26 0C CA 02 01 0F 09 01 80 00")
    /// Composed: V7's expected answer `D7 05 00 00 00 00 <byte> <LEN 07 IDm SF1 SF2 01 <16 bytes>>`,
    /// with the byte 08 of V5, status flags 00 00 and blocks 10…1F; LEN 1D, DCS 77 by hand.
    static let v7AnswerFrame = b("1D 07 01 01 07 01 26 0C CA 02 00 00 01 10 11 12 13 14 15 16 17 18 19 1A 1B 1C 1D 1E 1F")
    static let v7Answer = b("00 00 FF FF FF 24 00 DC D7 05 00 00 00 00 08 1D 07 01 01 07 01 26 0C CA 02 00 00 01 10 11 12 13 14 15 16 17 18 19 1A 1B 1C 1D 1E 1F 77 00")
    /// Composed: V7 with §1.4's 0.1 s timeout (`F2 03`), DCS 79 by hand.
    static let v7ReadTenthSecond = b("00 00 FF FF FF 14 00 EC D6 04 F2 03 10 06 01 01 07 01 26 0C CA 02 01 0F 09 01 80 00 79 00")
    /// Composed: a Polling for system 8008, request code 00, V5's 10 ms (`6E 00`); DCS 2A by hand.
    static let pollingFor8008 = b("00 00 FF FF FF 0A 00 F6 D6 04 6E 00 06 00 80 08 00 00 2A 00")
    static let pollingFor8008Frame = b("06 00 80 08 00 00")

    // V8 errors, CODE.
    static let v8ParityError = b("00 00 FF FF FF 06 00 FA D7 05 02 00 00 00 22 00")
    static let v8SetCommandTypeFailure = b("00 00 FF FF FF 03 00 FD D7 2B 01 FD 00")
    /// Composed: V8's frame with the CRC bit (0x04, §1.3) for the parity bit; DCS 20 by hand.
    static let crcError = b("00 00 FF FF FF 06 00 FA D7 05 04 00 00 00 20 00")
    /// Composed: V8's frame with the overflow bit (0x10, §1.3), not damage; DCS 14 by hand.
    static let overflowError = b("00 00 FF FF FF 06 00 FA D7 05 10 00 00 00 14 00")

    // V9 frame-codec unit cases, CODE (nfcpy TestFrame).
    static let v9Data12 = b("00 00 FF FF FF 02 00 FE 31 32 9D 00")
    static let v9Ack = b("00 00 FF 00 FF 00")
    static let v9Err = b("00 00 FF FF FF")
    static let v9Nothing = b("00 00 FF")

    /// Every whole frame above, for the never-trap checks.
    static let all: [[UInt8]] = [
        v1SetCommandType, v1SetCommandTypeOK, v1GetFirmwareVersion, v1FirmwareVersion, v1GetPDDataVersion, v1PDDataVersion,
        v1SwitchRFOff, v1SwitchRFOffOK, v2GetCommandType, v2CommandTypes, v3InSetRF212, v3InSetRF424, v3OK, v3ParameterError,
        v4Defaults, v4GuardTime24, v4OK, v5Polling, v5Found, v6NoCard, v7Read, v7Answer, v8ParityError, v8SetCommandTypeFailure, crcError, overflowError,
        v9Data12, v9Ack, v9Err, v9Nothing,
    ]
}

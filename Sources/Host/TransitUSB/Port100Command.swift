/// The Port-100 commands this host sends, by code: the host sends `D6 <code> …`, the chip answers
/// `D7 <code + 1> …` (docs/research/port100.md §"Commands"; nfcpy rcs380.py, port100.c
/// `PORT100_CMD_*`).
/// Target-mode commands (40–48) and maintenance ones are left out: a reader of cards needs none.
package enum Port100Command: UInt8, CaseIterable, Sendable, CustomStringConvertible {
    /// Send and receive settings for a bit rate and framing (`01 01 0F 01` for FeliCa 212 kbps).
    case inSetRF = 0x00
    /// Protocol settings as (key, value) pairs (`InSetProtocolKey`).
    case inSetProtocol = 0x02
    /// One frame to the card and its answer: a timeout in 0.1 ms units (2 bytes, little-endian),
    /// then the frame; answered with a 4-byte status, one byte, then the card's frame.
    case inCommRF = 0x04
    /// The RF field: 00 off, 01 on.
    case switchRF = 0x06
    /// Answered with minor, major (`11 01` is 1.11).
    case getFirmwareVersion = 0x20
    /// Answered with minor, major of the chip's PD data.
    case getPDDataVersion = 0x22
    /// Answered with an 8-byte big-endian mask of the command types the chip takes.
    case getCommandType = 0x28
    /// The command type the host speaks: 1 on every RC-S380 nfcpy drives (trace of nfcpy issue #11).
    case setCommandType = 0x2A

    /// The code of the chip's answer.
    package var answerCode: UInt8 { rawValue &+ 1 }

    package var description: String {
        switch self {
        case .inSetRF: return "InSetRF"
        case .inSetProtocol: return "InSetProtocol"
        case .inCommRF: return "InCommRF"
        case .switchRF: return "SwitchRF"
        case .getFirmwareVersion: return "GetFirmwareVersion"
        case .getPDDataVersion: return "GetPDDataVersion"
        case .getCommandType: return "GetCommandType"
        case .setCommandType: return "SetCommandType"
        }
    }
}

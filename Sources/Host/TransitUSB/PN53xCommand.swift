/// The PN53x commands this host sends the RC-S956, by code: the host sends `D4 <code> …`, the
/// chip answers `D5 <code + 1> …` (docs/research/rcs956-facts.md §2–4; nfcpy pn53x.py and
/// rcs956.py `Chipset.CMD`).
package enum PN53xCommand: UInt8, CaseIterable, Sendable, CustomStringConvertible {
    /// Answered `IC Ver Rev Support`: `33 01 30 07` on an RC-S956 (nfcpy test_clf_rcs956.py).
    case getFirmwareVersion = 0x02
    /// `CfgItem` then its values (01 the field, 02 the timeouts, 05 the retries); answered with nothing.
    case rfConfiguration = 0x32
    /// `MaxTg BrTy InitiatorData`: answered `NbTg [Tg POL_RES]` for FeliCa.
    case inListPassiveTarget = 0x4A
    /// A frame to the card in the CIU's current mode, timed by RFConfiguration 02; answered
    /// `Status <card frame>`.
    case inCommunicateThru = 0x42

    /// The code of the chip's answer.
    package var answerCode: UInt8 { rawValue &+ 1 }

    package var description: String {
        switch self {
        case .getFirmwareVersion: return "GetFirmwareVersion"
        case .rfConfiguration: return "RFConfiguration"
        case .inListPassiveTarget: return "InListPassiveTarget"
        case .inCommunicateThru: return "InCommunicateThru"
        }
    }
}

/// The status byte an InCommunicateThru's answer begins with (its low 6 bits; bit 6 says more
/// data follows, bit 7 is NAD: docs/research/rcs956-facts.md §4; nfcpy rcs956.py `Chipset.ERR`),
/// as the fault of the chip-agnostic `InCommRFStatus` the FeliCa channel reads.
package enum PN53xStatus {
    /// Success.
    package static let ok: UInt8 = 0x00
    /// "Time out, the target has not answered": silence, also how a removed card shows.
    package static let timeout: UInt8 = 0x01

    /// The fault of status `byte` (its low 6 bits); nil for success, `receiveTimeout` for 01.
    package static func fault(_ byte: UInt8) -> InCommRFStatus? {
        // The codes and their words: nfcpy rcs956.py `Chipset.ERR`.
        switch byte & 0x3F {
        case 0x00: return nil
        case 0x01: return .receiveTimeout // "Time out, the Target has not answered"
        case 0x02: return .crc // "Checksum error during RF communication"
        case 0x03: return .parity // "Parity error during RF communication"
        case 0x04: return .collision // "Incorrect collision bit position in TargetID during SDD"
        case 0x07: return .overflow // "Overflow detected by the hardware during RF communication"
        case 0x0A: return .rfOff // "RF field not activated in time by active mode peer"
        case 0x0B, 0x13: return .protocolError // "Protocol error…"; "Format error during RF communication…"
        case 0x0D: return .temperature // "Overheated - antenna drivers deactivated"
        default: return .otherFault // a target, DEP or ISO-DEP error a FeliCa read should never meet
        }
    }
}

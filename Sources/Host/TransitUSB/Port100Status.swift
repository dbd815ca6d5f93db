import CardProtocol
/// The one status byte that answers every Port-100 command but InCommRF (docs/research/port100.md §"Commands",
/// command status; nfcpy rcs380.py, port100.c `PORT100_CMD_STATUS_*`).
package enum Port100Status: UInt8, Sendable, CustomStringConvertible {
    case success = 0, parameter = 1, pb = 2, rfca = 3, temperature = 4, pwd = 5, receive = 6, commandType = 7

    package var description: String {
        switch self {
        case .success: return "success"
        case .parameter: return "parameter error"
        case .pb: return "PB error"
        case .rfca: return "RFCA error"
        case .temperature: return "temperature error"
        case .pwd: return "PWD error"
        case .receive: return "receive error"
        case .commandType: return "command type error"
        }
    }

    /// How a status byte reads in a message: its name, or its value when no source names it.
    package static func describe(_ byte: UInt8) -> String {
        let hex = HexFormat.string([byte])
        return Port100Status(rawValue: byte).map { "\($0) (\(hex))" } ?? "status \(hex)"
    }
}

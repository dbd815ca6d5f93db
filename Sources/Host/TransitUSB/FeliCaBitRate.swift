/// The two FeliCa bit rates, and InSetRF's settings for each: send setting, send type, receive
/// setting, receive type (docs/research/port100.md §"Commands" and V3; nfcpy rcs380.py, port100.c's in_rf table).
package enum FeliCaBitRate: Int, CaseIterable, Sendable {
    case kbps212 = 212
    case kbps424 = 424

    /// InSetRF's parameters: 212F `01 01 0F 01`, 424F `01 02 0F 02`.
    package var inSetRF: [UInt8] {
        switch self {
        case .kbps212: return [0x01, 0x01, 0x0F, 0x01]
        case .kbps424: return [0x01, 0x02, 0x0F, 0x02]
        }
    }
}

/// The Sony readers transit finds on USB (vendor 054C), by product ID (docs/research/port100.md §"USB identity";
/// nfcpy device.py, port100.c `port100_table`).
package enum USBReaderModel: UInt16, CaseIterable, Sendable {
    /// RC-S380/S: "the only known difference … /S has the CE and FCC marks" (nfcpy docs/overview.rst).
    case rcs380S = 0x06C1
    case rcs380P = 0x06C3
    /// RC-S330, RC-S360 and RC-S370: one product ID, one RC-S956 chip (nfcpy docs/overview.rst).
    /// Listed, so transit can say it sees one, and not driven: see `Chipset.rcs956`.
    case rcs956 = 0x02E1

    /// Sony's USB vendor ID.
    package static let sonyVendor: UInt16 = 0x054C

    /// The chip behind the USB endpoints, which decides the framing on the wire.
    package enum Chipset: Sendable {
        /// Port-100 (`Port100Frame`, `Port100`, `RCS380`).
        case port100
        /// The place for the RC-S956 (RC-S330/360/370), not built: a PN53x-family chip whose frames
        /// are `00 00 FF LEN LCS D4 cmd … DCS 00`, answered `D5 cmd+1`, with an extended frame for
        /// 254 bytes or more whose LEN is big-endian (docs/research/port100.md §"PN53x frame", V10, V11; nfcpy
        /// rcs956.py, pn53x.py). It would need its own frame codec (never `Port100Frame`), its own
        /// initialisation (nfcpy's: ResetMode, RFConfiguration…, §2) and its FeliCa exchange
        /// (InListPassiveTarget to sense, InCommunicateThru to exchange), behind the same
        /// `USBPipe` and `ReaderChannel`.
        case rcs956
    }

    package var chipset: Chipset { self == .rcs956 ? .rcs956 : .port100 }

    /// The model as people know it, as the reader's name shows it.
    package var name: String {
        switch self {
        case .rcs380S: return "RC-S380/S"
        case .rcs380P: return "RC-S380/P"
        case .rcs956: return "RC-S330/360/370"
        }
    }

    /// The model of a Sony vendor and product ID pair; nil for anything else.
    package init?(vendor: UInt16, product: UInt16) {
        guard vendor == Self.sonyVendor else { return nil }
        self.init(rawValue: product)
    }
}

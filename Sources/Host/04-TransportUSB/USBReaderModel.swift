/// The Sony readers transit finds on USB (vendor 054C), by product ID (docs/research/port100.md §"USB identity";
/// nfcpy device.py, port100.c `port100_table`).
package enum USBReaderModel: UInt16, CaseIterable, Sendable {
    /// RC-S380/S: "the only known difference … /S has the CE and FCC marks" (nfcpy docs/overview.rst).
    case rcs380S = 0x06C1
    case rcs380P = 0x06C3
    /// RC-S330, RC-S360 and RC-S370: one product ID, one RC-S956 chip (nfcpy docs/overview.rst).
    /// Driven by `RCS956` (`RCS956Reader`), docs/research/rcs956-facts.md.
    case rcs956 = 0x02E1

    /// Sony's USB vendor ID.
    package static let sonyVendor: UInt16 = 0x054C

    /// The chip behind the USB endpoints, which decides the framing on the wire.
    package enum Chipset: Sendable {
        /// Port-100 (`Port100Frame`, `Port100`, `RCS380`).
        case port100
        /// The RC-S956 (RC-S330/360/370): a PN53x-family chip whose frames are `00 00 FF LEN LCS
        /// D4 cmd … DCS 00`, answered `D5 cmd+1`, with an extended frame whose LEN is big-endian
        /// (`PN53xFrame`, `PN53x`, `RCS956`; docs/research/rcs956-facts.md).
        case rcs956
    }

    package var chipset: Chipset { self == .rcs956 ? .rcs956 : .port100 }

    /// The kernel driver that binds the reader and that transit detaches while it reads (and no
    /// other): port100 for the RC-S380 (docs/research/port100.md §"Kernel driver"), pn533_usb for
    /// the RC-S956 (drivers/nfc/pn533/usb.c: `PASORI_PRODUCT_ID 0x02e1`, rcs956-facts.md §3).
    package var kernelDriver: String { chipset == .rcs956 ? "pn533_usb" : "port100" }

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

/// The 32-bit little-endian status that begins InCommRF's answer: one bit a fault, 0 for a frame
/// received whole (docs/research/port100.md §"InCommRF status"; nfcpy rcs380.py, port100.c
/// `PORT100_CMD_STATUS_*`, which both read 0x80 as a receive timeout).
package struct InCommRFStatus: OptionSet, Sendable, CustomStringConvertible {
    package let rawValue: UInt32
    package init(rawValue: UInt32) { self.rawValue = rawValue }

    package static let protocolError = InCommRFStatus(rawValue: 0x01)
    package static let parity = InCommRFStatus(rawValue: 0x02)
    package static let crc = InCommRFStatus(rawValue: 0x04)
    package static let collision = InCommRFStatus(rawValue: 0x08)
    package static let overflow = InCommRFStatus(rawValue: 0x10)
    package static let temperature = InCommRFStatus(rawValue: 0x40)
    /// The card sent nothing within the InCommRF timeout: silence, not a fault.
    package static let receiveTimeout = InCommRFStatus(rawValue: 0x80)
    package static let crypto1 = InCommRFStatus(rawValue: 0x100)
    package static let rfca = InCommRFStatus(rawValue: 0x200)
    package static let rfOff = InCommRFStatus(rawValue: 0x400)
    package static let transmitTimeout = InCommRFStatus(rawValue: 0x800)
    package static let receiveLength = InCommRFStatus(rawValue: 0x8000_0000)
    /// A fault no bit above names, from a chip whose status is not this one's: an RC-S956's
    /// PN53x status other than a radio fault (`PN53xStatus.fault`). Never set by an RC-S380.
    package static let otherFault = InCommRFStatus(rawValue: 0x4000_0000)

    private static let names: [(InCommRFStatus, String)] = [
        (.protocolError, "protocol error"), (.parity, "parity error"), (.crc, "CRC error"), (.collision, "collision"),
        (.overflow, "overflow"), (.temperature, "temperature error"), (.receiveTimeout, "receive timeout"),
        (.crypto1, "Crypto1 error"), (.rfca, "RFCA error"), (.rfOff, "RF off"), (.transmitTimeout, "transmit timeout"),
        (.receiveLength, "receive length error"), (.otherFault, "another fault of the chip's"),
    ]

    /// The faults of an answer that came back damaged (a card being placed or moved, two cards):
    /// the card heard the command, and the same command sent again may well be answered whole.
    package static let damage: InCommRFStatus = [.protocolError, .parity, .crc, .collision]

    /// True when every fault is damage (`damage`): the command is worth sending again, as nfcpy
    /// sends a Type 3 command up to three times (nfcpy tt3.py, its Type 3 exchange; docs/research/port100.md §"Sequences"). RF off, a
    /// timeout or an overflow are not: the same command would meet the same fault.
    package var isDamage: Bool { !isEmpty && isSubset(of: Self.damage) }

    /// The status of the answer's first four bytes, least significant first; nil when shorter.
    package init?(answer: [UInt8]) {
        guard answer.count >= 4 else { return nil }
        self.init(rawValue: answer.prefix(4).reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
    }

    /// The bits by name, and any no source names by value.
    package var description: String {
        if isEmpty { return "success" }
        var parts = Self.names.filter { contains($0.0) }.map(\.1)
        let unnamed = rawValue & ~Self.names.reduce(UInt32(0)) { $0 | $1.0.rawValue }
        if unnamed != 0 { parts.append("bits 0x" + String(unnamed, radix: 16, uppercase: true)) }
        return parts.joined(separator: ", ")
    }
}

/// The unit the RC-S956 chip (RC-S330/360/370) and its host exchange on the bulk endpoints, the
/// NXP PN53x frame (docs/research/rcs956-facts.md §2; nfcpy pn53x.py `Chipset.command` and its
/// test fixtures `STD_FRAME`, `EXT_FRAME`; the RC-S330 trace of nfcpy issue #256):
///
///     normal:    00 00 FF · LEN · LCS · data · DCS · 00               (LEN ≤ 255)
///     extended:  00 00 FF FF FF · LENm LENl (big-endian) · LCS · data · DCS · 00
///
/// LCS makes LEN's byte(s) sum to 0 modulo 256, DCS the data's. The data is `D4 <command>
/// <parameters>` from the host and `D5 <command + 1> <answer>` from the chip. The ACK
/// `00 00 FF 00 FF 00` comes before every answer as a transfer of its own; the host sends one to
/// cancel. Not the RC-S380's Port-100 frame (`Port100Frame`), whose extended LEN is little-endian:
/// never decode one with the other.
package enum PN53xFrame {
    /// What a received buffer begins with. Its `.nak` is `00 00 FF FF 00 00` (a host's; no chip
    /// is known to send it); its `.error` the error frame `00 00 FF 01 FF 7F 81 00` (data `7F`):
    /// "invalid command syntax" (nfcpy base_clf_pn53x `ERR`; libnfc's RC-S360 trace answering
    /// SetParameters 14).
    package typealias Decoded = USBFrame<Fault>

    /// Why a buffer is not a frame.
    package enum Fault: String, Equatable, Sendable {
        case header = "no 00 00 FF start"
        case lengthChecksum = "LEN and LCS do not sum to 0"
        case dataChecksum = "the data and DCS do not sum to 0"
        case postamble = "no 00 after DCS"
    }

    /// TFI: the host's data frames begin `D4`, the chip's `D5` (nfcpy pn53x.py).
    package static let hostToChip: UInt8 = 0xD4
    package static let chipToHost: UInt8 = 0xD5
    /// The error frame's one data byte (nfcpy pn53x.py: `0x7F` "Invalid command syntax").
    package static let errorData: UInt8 = 0x7F

    package static let ack: [UInt8] = [0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00]
    package static let nak: [UInt8] = [0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00]
    /// Bytes a normal frame adds to its data: start 3, LEN 1, LCS 1, DCS 1, postamble 1.
    package static let normalOverhead = 7
    /// Bytes an extended frame adds: start 5, LEN 2, LCS 1, DCS 1, postamble 1.
    package static let extendedOverhead = 10

    /// The frame carrying `data`: normal up to 255 bytes, extended beyond (nfcpy sends an
    /// extended frame for 256 bytes of data and more: base_clf_pn53x `CMD`); nil when even an
    /// extended LEN cannot say its length.
    package static func encode(_ data: [UInt8]) -> [UInt8]? {
        switch data.count {
        case 0 ... 0xFF:
            let length = UInt8(data.count)
            return [0x00, 0x00, 0xFF, length, checksum([length])] + data + [checksum(data), 0x00]
        case 0x100 ... 0xFFFF:
            let high = UInt8(data.count >> 8), low = UInt8(data.count & 0xFF)
            return [0x00, 0x00, 0xFF, 0xFF, 0xFF, high, low, checksum([high, low])] + data + [checksum(data), 0x00]
        default:
            return nil
        }
    }

    /// The frame `buffer` begins with and the bytes it takes (0 unless ack, nak, data or error).
    /// Any input gives an answer; no index is read before its count is checked.
    package static func decodeFirst(_ buffer: [UInt8]) -> (frame: Decoded, used: Int) {
        let head = Array(buffer.prefix(3))
        guard head == Array([0x00, 0x00, 0xFF].prefix(head.count)) else { return (.invalid(.header), 0) }
        guard buffer.count >= 5 else { return (.incomplete, 0) }
        let length: Int, start: Int
        switch (buffer[3], buffer[4]) {
        case (0x00, 0xFF):
            guard buffer.count >= ack.count else { return (.incomplete, 0) }
            return buffer[5] == 0x00 ? (.ack, ack.count) : (.invalid(.postamble), 0)
        case (0xFF, 0x00):
            guard buffer.count >= nak.count else { return (.incomplete, 0) }
            return buffer[5] == 0x00 ? (.nak, nak.count) : (.invalid(.postamble), 0)
        case (0xFF, 0xFF):
            guard buffer.count >= 8 else { return (.incomplete, 0) }
            guard checksum([buffer[5], buffer[6]]) == buffer[7] else { return (.invalid(.lengthChecksum), 0) }
            length = Int(buffer[5]) << 8 | Int(buffer[6])
            start = 8
        case (let len, let lcs):
            guard len &+ lcs == 0 else { return (.invalid(.lengthChecksum), 0) }
            length = Int(len)
            start = 5
        }
        let total = start + length + 2
        guard buffer.count >= total else { return (.incomplete, 0) }
        let data = Array(buffer[start ..< start + length])
        guard checksum(data) == buffer[start + length] else { return (.invalid(.dataChecksum), 0) }
        guard buffer[start + length + 1] == 0x00 else { return (.invalid(.postamble), 0) }
        return (data == [errorData] ? .error : .data(data), total)
    }

    /// The frame `buffer` begins with.
    package static func decode(_ buffer: [UInt8]) -> Decoded { decodeFirst(buffer).frame }

    /// The byte that makes `bytes` sum to 0 modulo 256.
    package static func checksum(_ bytes: [UInt8]) -> UInt8 {
        0 &- bytes.reduce(UInt8(0), &+)
    }
}

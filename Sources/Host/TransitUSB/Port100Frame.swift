/// The unit the RC-S380's Port-100 chip and its host exchange on the bulk endpoints
/// (docs/research/port100.md §"Frames"; nfcpy rcs380.py `Frame`, the kernel's port100.c
/// `port100_tx_frame_*` and `port100_checksum`; every frame of nfcpy issue #11's trace follows it):
///
///     00 00 FF FF FF · LEN (2 bytes, little-endian) · LCS · data · DCS · 00
///
/// LCS makes LEN's two bytes sum to 0 modulo 256 and DCS the data's. The data is `D6 <command>
/// <parameters>` from the host and `D7 <command + 1> <answer>` from the chip. The ACK
/// `00 00 FF 00 FF 00` goes before every answer, and from the host as a soft reset or a cancel.
/// This is not the PN53x frame of the RC-S956 (`00 00 FF LEN LCS D4 …`, its extended LEN
/// big-endian): never decode one with the other (docs/research/port100.md §"PN53x frame").
package enum Port100Frame {
    /// What a received buffer begins with (never `.nak`: Port-100 has none). Its `.error` is the
    /// start `00 00 FF FF FF` alone, nfcpy's "err" frame (rcs380.py `Frame`; no log shows the
    /// chip sending it, docs/research/port100.md §"Open questions").
    package typealias Decoded = USBFrame<Fault>

    /// Why a buffer is not a frame.
    package enum Fault: String, Equatable, Sendable {
        case header = "no 00 00 FF FF FF start"
        case lengthChecksum = "LEN and LCS do not sum to 0"
        case dataChecksum = "the data and DCS do not sum to 0"
        case postamble = "no 00 after DCS"
    }

    /// The host's data frames begin `D6`, the chip's `D7` (docs/research/port100.md §"Frames").
    package static let hostToChip: UInt8 = 0xD6
    package static let chipToHost: UInt8 = 0xD7

    /// Sent before every answer by the chip; by the host to reset or cancel (docs/research/port100.md §"Frames", V9).
    package static let ack: [UInt8] = [0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00]
    /// Preamble 00, start code 00 FF, then FF FF: the extended form, whose LEN has two bytes.
    package static let start: [UInt8] = [0x00, 0x00, 0xFF, 0xFF, 0xFF]
    /// Bytes a data frame adds to its data: start 5, LEN 2, LCS 1, DCS 1, postamble 1.
    package static let overhead = 10

    /// The frame carrying `data`; nil when LEN cannot say its length.
    package static func encode(_ data: [UInt8]) -> [UInt8]? {
        guard data.count <= 0xFFFF else { return nil }
        let low = UInt8(data.count & 0xFF), high = UInt8(data.count >> 8)
        return start + [low, high, checksum([low, high])] + data + [checksum(data), 0x00]
    }

    /// The frame `buffer` begins with (the rest is left to the caller). Any input gives an answer.
    package static func decode(_ buffer: [UInt8]) -> Decoded { decodeFirst(buffer).frame }

    /// The frame `buffer` begins with and the bytes it takes (0 unless ack, data or error).
    package static func decodeFirst(_ buffer: [UInt8]) -> (frame: Decoded, used: Int) {
        // Every frame starts 00 00 FF; until three bytes are there, a prefix of it is a beginning.
        let head = Array(buffer.prefix(3))
        guard head == Array([0x00, 0x00, 0xFF].prefix(head.count)) else { return (.invalid(.header), 0) }
        guard buffer.count >= 4 else { return (.incomplete, 0) }
        if buffer[3] == 0x00 { // ACK: 00 00 FF 00 FF 00
            let candidate = Array(buffer.prefix(ack.count))
            guard candidate == Array(ack.prefix(candidate.count)) else { return (.invalid(.header), 0) }
            return candidate.count == ack.count ? (.ack, ack.count) : (.incomplete, 0)
        }
        guard buffer[3] == 0xFF else { return (.invalid(.header), 0) }
        guard buffer.count >= 5 else { return (.incomplete, 0) }
        guard buffer[4] == 0xFF else { return (.invalid(.header), 0) }
        // The start alone is the error frame (nfcpy TestFrame, docs/research/port100.md V9): a transfer ends
        // with the frame the chip sent, so five bytes on their own are not a frame cut short.
        guard buffer.count > 5 else { return (.error, start.count) }
        guard buffer.count >= 8 else { return (.incomplete, 0) }
        guard checksum([buffer[5], buffer[6]]) == buffer[7] else { return (.invalid(.lengthChecksum), 0) }
        let length = Int(buffer[5]) | Int(buffer[6]) << 8
        let total = overhead + length
        guard buffer.count >= total else { return (.incomplete, 0) }
        let data = Array(buffer[8 ..< 8 + length])
        guard checksum(data) == buffer[8 + length] else { return (.invalid(.dataChecksum), 0) }
        guard buffer[9 + length] == 0x00 else { return (.invalid(.postamble), 0) }
        return (.data(data), total)
    }

    /// The byte that makes `bytes` sum to 0 modulo 256: −Σ mod 256 (docs/research/port100.md §"Frames").
    package static func checksum(_ bytes: [UInt8]) -> UInt8 {
        0 &- bytes.reduce(UInt8(0), &+)
    }
}

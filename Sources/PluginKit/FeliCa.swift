/// FeliCa command frames and a session that reads blocks in as few commands as the card takes.
/// Command and response codes: JIS X 6319-4 / Sony "FeliCa Card User's Manual" (as summarised by nfcpy).
public enum FeliCa {
    /// Blocks a first Read Without Encryption may name: the limit of common Suica / ICOCA chips. The
    /// FeliCa Card User's Manual leaves the limit to each product; a 255-byte frame holds 15 blocks.
    public static let firstBlocksPerRead = 12
    /// Limits tried, in order, after a card answers "illegal number of blocks": common product limits.
    static let blockCountLadder = [12, 8, 4, 1]

    /// The most blocks a first read names on a reader that carries frames of at most `largestFrame`
    /// bytes: a Read Without Encryption of n blocks is answered with 13 + 16 n bytes (length, code
    /// 07, IDm, two status flags, the block count, the blocks), and asked with 14 + 2 n for one
    /// service. At least one block, at most `firstBlocksPerRead`.
    public static func blocksPerRead(fitting largestFrame: Int?) -> Int {
        guard let largestFrame else { return firstBlocksPerRead }
        return max(1, min(firstBlocksPerRead, (largestFrame - 13) / 16, (largestFrame - 14) / 2))
    }
    /// Status flag 2 for "illegal number of blocks" (FeliCa Card User's Manual, status flag table).
    public static let illegalBlockCount: UInt8 = 0xA2

    /// Polling (command 00) for one system code, asking no request data, one time slot.
    public static func polling(systemCode: UInt16) -> [UInt8] {
        frame([0x00, UInt8(systemCode >> 8), UInt8(systemCode & 0xFF), 0x00, 0x00])
    }

    /// The IDm in a Polling answer: length, response code 01, IDm, PMm (request code 00: no request data).
    public static func polledIDm(_ answer: [UInt8]) throws -> [UInt8] {
        let r = Bytes(answer)
        guard try r.u8(0) == UInt8(truncatingIfNeeded: answer.count), answer.count >= 18 else {
            throw PluginError.malformedResponse("Polling answered \(answer.count) bytes")
        }
        guard try r.u8(1) == 0x01 else { throw PluginError.malformedResponse("Polling answered with code \(Hex.string([try r.u8(1)]))") }
        return try r.slice(2, 8).storage
    }

    /// Request Service (command 02) for node codes (sent little-endian).
    public static func requestService(idm: [UInt8], nodes: [UInt16]) -> [UInt8] {
        frame([0x02] + idm + [UInt8(nodes.count)] + nodes.flatMap(littleEndian))
    }

    /// Request System Code (command 0C).
    public static func requestSystemCode(idm: [UInt8]) -> [UInt8] {
        frame([0x0C] + idm)
    }

    /// Read Without Encryption (command 06); `blocks` pairs a service index with a block number (< 256).
    public static func readWithoutEncryption(idm: [UInt8], services: [UInt16], blocks: [(service: Int, block: Int)]) -> [UInt8] {
        let list = blocks.flatMap { [0x80 | UInt8($0.service & 0x0F), UInt8($0.block & 0xFF)] }
        return frame([0x06] + idm + [UInt8(services.count)] + services.flatMap(littleEndian) + [UInt8(blocks.count)] + list)
    }

    /// Checks a response frame: length byte, response code, IDm; returns the bytes after the IDm.
    public static func payload(of response: [UInt8], code: UInt8, idm: [UInt8]) throws -> Bytes {
        let r = Bytes(response)
        guard try r.u8(0) == UInt8(truncatingIfNeeded: response.count) else {
            throw PluginError.malformedResponse("FeliCa frame length byte disagrees with its length")
        }
        guard try r.u8(1) == code else {
            throw PluginError.malformedResponse("FeliCa response code \(Hex.string([try r.u8(1)])) where \(Hex.string([code])) was due")
        }
        guard try r.slice(2, 8).storage == idm else { throw PluginError.malformedResponse("FeliCa answer from another IDm") }
        return try r.suffix(from: 10)
    }

    static func frame(_ body: [UInt8]) -> [UInt8] { [UInt8(truncatingIfNeeded: body.count + 1)] + body }
    static func littleEndian(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
}

/// A card refused a Read Without Encryption: status flags 1 and 2.
public struct FeliCaStatus: Error, Equatable {
    public let flag1: UInt8, flag2: UInt8
}

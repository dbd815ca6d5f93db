import CardProtocol

/// FeliCa command frames and a session that reads blocks in as few commands as the card takes.
/// Command and response codes: JIS X 6319-4 / Sony "FeliCa Card User's Manual" (as summarised by nfcpy).
public enum FeliCa {
    /// Blocks a first Read Without Encryption may name (`FeliCaBlocks.firstPerRead`).
    public static let firstBlocksPerRead = FeliCaBlocks.firstPerRead

    /// The most blocks a first read names on a reader that carries frames of at most `largestFrame`
    /// bytes (answers of 13 + 16 n bytes); at least one block, at most `firstBlocksPerRead`.
    public static func blocksPerRead(fitting largestFrame: Int?) -> Int { FeliCaBlocks.perRead(fitting: largestFrame) }

    /// Status flag 2 for "illegal number of blocks" (FeliCa Card User's Manual, status flag table).
    public static let illegalBlockCount = FeliCaBlocks.illegalCount

    /// Polling (command 00) for one system code, asking no request data, one time slot.
    public static func polling(systemCode: UInt16) -> [UInt8] { FeliCaCommand.polling(systemCode: systemCode) }

    /// The IDm in a Polling answer: length, response code 01, IDm, PMm (request code 00: no request data).
    public static func polledIDm(_ answer: [UInt8]) throws -> [UInt8] {
        guard let idm = FeliCaCommand.polledIDm(answer) else {
            throw PluginError.malformedResponse("Polling answered \(answer.count) bytes, code \(Hex.string(answer.dropFirst().prefix(1)))")
        }
        return idm
    }

    /// Request Service (command 02) for node codes (sent little-endian).
    public static func requestService(idm: [UInt8], nodes: [UInt16]) -> [UInt8] { FeliCaCommand.requestService(idm: idm, nodes: nodes) }

    /// Request System Code (command 0C).
    public static func requestSystemCode(idm: [UInt8]) -> [UInt8] { FeliCaCommand.requestSystemCode(idm: idm) }

    /// Read Without Encryption (command 06); `blocks` pairs a service's place in `services` (0–15)
    /// with a block number (0–65,535: 2-byte elements below 256, 3-byte ones above).
    public static func readWithoutEncryption(idm: [UInt8], services: [UInt16], blocks: [(service: Int, block: Int)]) throws -> [UInt8] {
        let elements = try blocks.map { b -> BlockElement in
            guard let e = BlockElement(serviceIndex: b.service, block: b.block) else {
                throw PluginError.internal("block \(b.block) of service \(b.service) is outside a FeliCa block list")
            }
            return e
        }
        return FeliCaCommand.readWithoutEncryption(idm: idm, services: services, blocks: elements)
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
}

/// A card refused a Read Without Encryption: status flags 1 and 2.
public struct FeliCaStatus: Error, Equatable {
    public let flag1: UInt8, flag2: UInt8
}

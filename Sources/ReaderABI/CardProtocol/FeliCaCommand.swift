/// FeliCa command frames and the parts of answers the host and the plugins both read, written once
/// from JIS X 6319-4 and Sony's "FeliCa Card User's Manual" (as nfcpy's tt3 summarises them). A
/// frame is its length byte (itself included), the command code, then the command's fields; node
/// and service codes travel little-endian. The emulator decodes frames on its own, as an oracle.
package enum FeliCaCommand {
    /// Polling (00) for one system code, one time slot (FFFF: any system); request code 00 asks
    /// no request data, 01 the system code after the PMm.
    package static func polling(systemCode: UInt16, requestCode: UInt8 = 0) -> [UInt8] {
        frame([0x00, UInt8(systemCode >> 8), UInt8(systemCode & 0xFF), requestCode, 0x00])
    }

    /// Request Service (02): the key version of each node.
    package static func requestService(idm: [UInt8], nodes: [UInt16]) -> [UInt8] {
        frame([0x02] + idm + [UInt8(truncatingIfNeeded: nodes.count)] + nodes.flatMap(littleEndian))
    }

    /// Read Without Encryption (06) of `blocks` from `services` (at most 16: a block names its
    /// service by its place in this list).
    package static func readWithoutEncryption(idm: [UInt8], services: [UInt16], blocks: [BlockElement]) -> [UInt8] {
        frame([0x06] + idm + [UInt8(truncatingIfNeeded: services.count)] + services.flatMap(littleEndian)
              + [UInt8(truncatingIfNeeded: blocks.count)] + blocks.flatMap(\.encoded))
    }

    /// Search Service Code (0A): the node at `index` of the system (answer 0B: a 2-byte service code,
    /// or a 4-byte area code and end, or FFFF past the last).
    package static func searchServiceCode(idm: [UInt8], index: UInt16) -> [UInt8] {
        frame([0x0A] + idm + littleEndian(index))
    }

    /// Request System Code (0C).
    package static func requestSystemCode(idm: [UInt8]) -> [UInt8] { frame([0x0C] + idm) }

    /// The IDm a Polling answer (01) carries: length, code, IDm, PMm, and the system code when
    /// the Polling asked for it — 18 bytes, or 20 (FeliCa's Polling response: LEN 12h without
    /// request data, 14h with it) — its length byte its length exactly (a 274-byte answer whose
    /// length byte says 18 is none); nil for any other answer.
    package static func polledIDm(_ answer: [UInt8]) -> [UInt8]? {
        guard answer.count == 18 || answer.count == 20, Int(answer[0]) == answer.count, answer[1] == 0x01 else { return nil }
        return Array(answer[2 ..< 10])
    }

    /// The systems a Request System Code answer (0D) for `idm` lists, in card order; nil for any other answer.
    package static func systemCodes(_ answer: [UInt8], idm: [UInt8]) -> [UInt16]? {
        guard answer.count >= 11, answer[1] == 0x0D, Array(answer[2 ..< 10]) == idm else { return nil }
        let n = Int(answer[10])
        guard answer.count == 11 + 2 * n else { return nil }
        return (0 ..< n).map { UInt16(answer[11 + 2 * $0]) << 8 | UInt16(answer[12 + 2 * $0]) }
    }

    package static func frame(_ body: [UInt8]) -> [UInt8] { [UInt8(truncatingIfNeeded: body.count + 1)] + body }

    package static func littleEndian(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
}

/// One element of a Read Without Encryption block list: the service's place in the command's
/// service list and the block number. Blocks below 256 take the 2-byte form (80h | service index,
/// block); others the 3-byte form (service index, block number little-endian) — FeliCa Card
/// User's Manual, "Block List": bit 7 of the first byte set means a 2-byte element.
package struct BlockElement: Equatable {
    package let serviceIndex: Int
    package let block: Int

    /// Nil outside the format: a service index of 0–15, a block number of 0–65,535.
    package init?(serviceIndex: Int, block: Int) {
        guard (0 ... 15).contains(serviceIndex), (0 ... 0xFFFF).contains(block) else { return nil }
        self.serviceIndex = serviceIndex; self.block = block
    }

    package var encoded: [UInt8] {
        let index = UInt8(serviceIndex)
        return block < 256 ? [0x80 | index, UInt8(block)] : [index, UInt8(block & 0xFF), UInt8(block >> 8)]
    }
}

/// How many blocks one Read Without Encryption names.
package enum FeliCaBlocks {
    /// A first read's count: the limit of common Suica / ICOCA chips. The FeliCa Card User's Manual
    /// leaves the limit to each product; a 255-byte frame holds 15 blocks.
    package static let firstPerRead = 12
    /// Counts tried, in order, after a card answers "illegal number of blocks": common product limits.
    package static let ladder = [12, 8, 4, 1]
    /// Status flag 2 for "illegal number of blocks" (FeliCa Card User's Manual, status flag table).
    package static let illegalCount: UInt8 = 0xA2

    /// The most blocks a read names on a reader that carries frames of at most `largestFrame` bytes:
    /// n blocks are answered with 13 + 16 n bytes (length, code 07, IDm, two status flags, the count,
    /// the blocks) and asked with at most 14 + 3 n for one service. At least one, at most `firstPerRead`.
    package static func perRead(fitting largestFrame: Int?) -> Int {
        guard let largestFrame else { return firstPerRead }
        return max(1, min(firstPerRead, (largestFrame - 13) / 16, (largestFrame - 14) / 3))
    }

    /// The next count down the ladder after `count` was refused; nil below one.
    package static func below(_ count: Int) -> Int? { ladder.first { $0 < count } }
}

/// The IDm of a card's systems: the polled IDm (system 0's) with the system's number in the upper
/// four bits of its first byte (FeliCa Card User's Manual; East Wind EWTJ-680H manual, "IDm of
/// System 1 becomes 0001b"). Phones' Mobile FeliCa systems answer IDms of their own instead.
package enum FeliCaIDm {
    /// System 0's is the polled IDm itself. Nil for a system number past 15 or an IDm of another size.
    package static func derived(from idm: [UInt8], system index: Int) -> [UInt8]? {
        guard idm.count == 8, (0 ... 15).contains(index) else { return nil }
        guard index > 0 else { return idm }
        var derived = idm
        derived[0] = derived[0] & 0x0F | UInt8(index) << 4
        return derived
    }
}

import CardProtocol
import XCTest

/// Frames written from JIS X 6319-4 and the FeliCa Card User's Manual (command layouts as nfcpy's
/// tt3 module lists them): length byte, command code, IDm, fields; codes little-endian.
final class FeliCaCommandTests: XCTestCase {
    let idm: [UInt8] = [0x01, 0x2E, 0x4C, 0xD8, 0x9A, 0x1B, 0x23, 0x45]

    func testFramesAsTheManualLaysThemOut() {
        XCTAssertEqual(FeliCaCommand.polling(systemCode: 0xFFFF), [0x06, 0x00, 0xFF, 0xFF, 0x00, 0x00])
        XCTAssertEqual(FeliCaCommand.polling(systemCode: 0x0003), [0x06, 0x00, 0x00, 0x03, 0x00, 0x00], "the system code big-endian")
        XCTAssertEqual(FeliCaCommand.requestSystemCode(idm: idm), [0x0A, 0x0C] + idm)
        XCTAssertEqual(FeliCaCommand.requestService(idm: idm, nodes: [0x090F, 0x1808]),
                       [0x0F, 0x02] + idm + [0x02, 0x0F, 0x09, 0x08, 0x18], "node codes little-endian")
        XCTAssertEqual(FeliCaCommand.searchServiceCode(idm: idm, index: 0x0102), [0x0C, 0x0A] + idm + [0x02, 0x01])
        let block0 = BlockElement(serviceIndex: 0, block: 0)!
        XCTAssertEqual(FeliCaCommand.readWithoutEncryption(idm: idm, services: [0x090F], blocks: [block0]),
                       [0x10, 0x06] + idm + [0x01, 0x0F, 0x09, 0x01, 0x80, 0x00])
    }

    func testBlockListElementsOfTwoAndThreeBytes() {
        // Bit 7 of D0 set: a 2-byte element (block < 256); clear: D1 D2 the block number, little-endian.
        XCTAssertEqual(BlockElement(serviceIndex: 2, block: 0xFF)?.encoded, [0x82, 0xFF])
        XCTAssertEqual(BlockElement(serviceIndex: 0, block: 0x100)?.encoded, [0x00, 0x00, 0x01])
        XCTAssertEqual(BlockElement(serviceIndex: 15, block: 0xFFFF)?.encoded, [0x0F, 0xFF, 0xFF])
        XCTAssertNil(BlockElement(serviceIndex: 16, block: 0), "the service list holds 16 at most")
        XCTAssertNil(BlockElement(serviceIndex: 0, block: 0x10000))
        XCTAssertNil(BlockElement(serviceIndex: -1, block: 0))
    }

    func testAnswersParsedOnlyInTheirOwnForm() {
        let pmm: [UInt8] = [0x10, 0x0B, 0x4B, 0x42, 0x84, 0x85, 0xD0, 0xFF]
        XCTAssertEqual(FeliCaCommand.polledIDm([0x12, 0x01] + idm + pmm), idm)
        XCTAssertNil(FeliCaCommand.polledIDm([0x12, 0x03] + idm + pmm), "another response code")
        XCTAssertNil(FeliCaCommand.polledIDm([0x13, 0x01] + idm + pmm), "a length byte that disagrees")
        XCTAssertNil(FeliCaCommand.polledIDm([0x0A, 0x01] + idm), "no PMm")
        XCTAssertEqual(FeliCaCommand.systemCodes([0x0F, 0x0D] + idm + [0x02, 0x00, 0x03, 0xFE, 0x00], idm: idm), [0x0003, 0xFE00])
        XCTAssertNil(FeliCaCommand.systemCodes([0x0F, 0x0D] + idm + [0x03, 0x00, 0x03, 0xFE, 0x00], idm: idm), "a count past the answer")
        XCTAssertNil(FeliCaCommand.systemCodes([0x0D, 0x0D] + idm + [0x01, 0x00, 0x03], idm: [UInt8](repeating: 0, count: 8)))
    }

    func testTheDerivedIDmOfEachSystem() {
        // EWTJ-680H manual: the IDm of system 1 has 0001b in the upper four bits of its first byte.
        XCTAssertEqual(FeliCaIDm.derived(from: idm, system: 0), idm)
        XCTAssertEqual(FeliCaIDm.derived(from: idm, system: 1)?.first, 0x11)
        XCTAssertEqual(FeliCaIDm.derived(from: [0xF1] + idm.dropFirst(), system: 2)?.first, 0x21)
        XCTAssertEqual(FeliCaIDm.derived(from: idm, system: 15)?.first, 0xF1)
        XCTAssertNil(FeliCaIDm.derived(from: idm, system: 16))
        XCTAssertNil(FeliCaIDm.derived(from: Array(idm.prefix(7)), system: 1))
    }

    func testBlocksPerReadFitTheReadersFrames() {
        XCTAssertEqual(FeliCaBlocks.perRead(fitting: nil), 12)
        XCTAssertEqual(FeliCaBlocks.perRead(fitting: 255), 12, "15 would fit: the chips' limit is 12")
        XCTAssertEqual(FeliCaBlocks.perRead(fitting: 13 + 16 * 3), 3)
        XCTAssertEqual(FeliCaBlocks.perRead(fitting: 13 + 16 * 3 - 1), 2)
        XCTAssertEqual(FeliCaBlocks.perRead(fitting: 8), 1)
        XCTAssertEqual(FeliCaBlocks.below(12), 8)
        XCTAssertEqual(FeliCaBlocks.below(5), 4)
        XCTAssertNil(FeliCaBlocks.below(1))
    }
}

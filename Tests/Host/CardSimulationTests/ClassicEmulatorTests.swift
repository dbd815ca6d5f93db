import XCTest
@testable import CardSimulation

/// The MIFARE Classic card itself: which key opens which sector, what a read answers, what an
/// image must hold. Expected bytes come from the made-up card in `StorageCardImages`.
final class ClassicEmulatorTests: XCTestCase {
    typealias I = StorageCardImages
    private func card(_ image: CardImage = I.classic1K()) throws -> ClassicEmulator {
        try ClassicEmulator(XCTUnwrap(image.mifareClassic))
    }

    func testKeyAOrKeyBOpensTheWholeSectorOneSectorAtATime() throws {
        var c = try card()
        XCTAssertTrue(c.authenticate(block: 5, keyType: .a, key: I.bytes("FFFFFFFFFFFF")))
        XCTAssertEqual(c.openSector, 1)
        // Block 6 is in sector 1 (blocks 4–7): sixteen 06 bytes.
        XCTAssertEqual(c.read(block: 6), [UInt8](repeating: 0x06, count: 16))
        // Key B of sector 0, through its block 1: sector 0 opens and sector 1 closes.
        XCTAssertTrue(c.authenticate(block: 1, keyType: .b, key: I.bytes(I.sector0KeyB)))
        XCTAssertEqual(c.openSector, 0)
        XCTAssertNil(c.read(block: 6), "sector 1 closed when sector 0 opened")
        XCTAssertEqual(c.read(block: 2), [UInt8](repeating: 0x02, count: 16))
        XCTAssertEqual(c.authentications, 2)
        XCTAssertEqual(c.reads, 3)
    }

    func testAWrongKeyOrTheOtherKeyTypeOpensNothingAndClosesTheOpenSector() throws {
        var c = try card()
        XCTAssertTrue(c.authenticate(block: 4, keyType: .a, key: I.bytes("FFFFFFFFFFFF")))
        // Sector 0's key A given as key B, then a key one bit off: both fail.
        XCTAssertFalse(c.authenticate(block: 0, keyType: .b, key: I.bytes(I.sector0KeyA)))
        XCTAssertNil(c.openSector)
        XCTAssertNil(c.read(block: 4), "the failed authentication left no sector open")
        XCTAssertFalse(c.authenticate(block: 0, keyType: .a, key: I.bytes("A1B2C3D4E5F7")))
        XCTAssertEqual(c.failedAuthentications, 2)
        XCTAssertFalse(c.authenticate(block: 64, keyType: .a, key: I.bytes("FFFFFFFFFFFF")), "block 64 is past a 1K card")
    }

    func testALockedSectorOpensWithNoKey() throws {
        var c = try card()
        // Sector 2's trailer is all "??": not even the factory key, nor a key of zeros, opens it.
        for key in ["FFFFFFFFFFFF", "000000000000"] {
            XCTAssertFalse(c.authenticate(block: 8, keyType: .a, key: I.bytes(key)))
            XCTAssertFalse(c.authenticate(block: 11, keyType: .b, key: I.bytes(key)))
        }
    }

    func testATrailerReadsKeyAAsZerosAndKeyBAsStored() throws {
        var c = try card()
        XCTAssertTrue(c.authenticate(block: 7, keyType: .b, key: I.bytes(I.sector1KeyB)))
        // Block 7: key A hidden (six 00), access bits FF 07 80, byte 69, key B C0 FF EE 12 34 56.
        XCTAssertEqual(c.read(block: 7), I.bytes("000000000000 FF078069 C0FFEE123456"))
        // Sector 4's key B is unread: its trailer cannot be answered whole.
        XCTAssertTrue(c.authenticate(block: 16, keyType: .a, key: I.bytes("FFFFFFFFFFFF")))
        XCTAssertNil(c.read(block: 19))
        XCTAssertEqual(c.read(block: 16), [UInt8](repeating: 0x10, count: 16))
    }

    func testABlockWithAnUnreadByteFailsAndItsNeighboursRead() throws {
        var c = try card()
        XCTAssertTrue(c.authenticate(block: 20, keyType: .a, key: I.bytes("FFFFFFFFFFFF")))
        XCTAssertNil(c.read(block: 21))
        XCTAssertEqual(c.read(block: 22), [UInt8](repeating: 0x16, count: 16))
        XCTAssertNil(c.read(block: 20, count: 2), "a read over block 21")
    }

    func testA4KCardHasSixteenBlockSectorsAfterSector31() throws {
        var c = try card(I.classic4K())
        XCTAssertEqual(c.sectorCount, 40)
        XCTAssertEqual(c.blockCount, 256)
        // 32 sectors × 4 blocks = 128: block 128 starts sector 32, which ends with trailer 143.
        XCTAssertEqual(c.sector(ofBlock: 127), 31)
        XCTAssertEqual(c.sector(ofBlock: 128), 32)
        XCTAssertEqual(c.sector(ofBlock: 143), 32)
        XCTAssertEqual(c.sector(ofBlock: 144), 33)
        XCTAssertEqual(c.sector(ofBlock: 255), 39)
        XCTAssertTrue(c.isTrailer(143))
        XCTAssertFalse(c.isTrailer(131))
        XCTAssertTrue(c.authenticate(block: 130, keyType: .a, key: I.bytes("FFFFFFFFFFFF")))
        XCTAssertEqual(c.read(block: 142), [UInt8](repeating: 142, count: 16))
        XCTAssertEqual(c.read(block: 128, count: 15)?.count, 240, "the 15 data blocks of sector 32")
        XCTAssertNil(c.read(block: 144), "block 144 is sector 33's")
    }

    func testEachLayoutNeedsItsBlockCount() throws {
        // Mini 5 × 4 = 20 blocks; 1K 16 × 4 = 64; 2K 32 × 4 = 128; 4K 32 × 4 + 8 × 16 = 256.
        for (type, count, sectors) in [("Mini", 20, 5), ("1K", 64, 16), ("2K", 128, 32)] {
            let c = try card(I.classic(type: type, blocks: count))
            XCTAssertEqual(c.sectorCount, sectors, type)
            XCTAssertThrowsError(try card(I.classic(type: type, blocks: count + 4)), type)
            XCTAssertThrowsError(try card(I.classic(type: type, blocks: count - 4)), type)
        }
        XCTAssertThrowsError(try card(I.classic(type: "8K", blocks: 512)))
    }

    func testAnImageOfBadBlocksOrUIDIsRefusedWithAReason() throws {
        var image = I.classic1K()
        image.mifareClassic?.blocks[3] = "00112233"
        XCTAssertThrowsError(try card(image)) { XCTAssertTrue("\($0)".contains("block 3"), "\($0)") }
        image = I.classic1K()
        image.mifareClassic?.blocks[9] = String(repeating: "?G", count: 16)
        XCTAssertThrowsError(try card(image)) { XCTAssertTrue("\($0)".contains("block 9"), "\($0)") }
        image = I.classic1K()
        image.mifareClassic?.uid = "A1B2C3D4E5"
        XCTAssertThrowsError(try card(image)) { XCTAssertTrue("\($0)".contains("4 or 7 bytes"), "\($0)") }
    }
}

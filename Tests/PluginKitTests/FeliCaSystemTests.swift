import PluginKit
import XCTest

/// A card that answers FeliCa frames from a script, counting commands.
final class ScriptedFeliCaCard: CardLink {
    let uid: [UInt8] = [0x01, 0x14, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF]
    var systemCodes: [UInt16]? = [0x0003]
    var maxBlocks = 15
    var frames = [[UInt8]]()

    func felica(_ frame: [UInt8]) throws -> [UInt8] {
        frames.append(frame)
        let body: [UInt8]
        switch frame[1] {
        case 0x06:
            let services = Int(frame[10])
            let count = Int(frame[11 + 2 * services])
            if count > maxBlocks { body = [0x07] + uid + [0xFF, 0xA2] } // illegal number of blocks
            else {
                let list = Array(frame[(12 + 2 * services)...])
                let data = stride(from: 0, to: list.count, by: 2).flatMap { i in [UInt8](repeating: list[i + 1], count: 16) }
                body = [0x07] + uid + [0x00, 0x00, UInt8(count)] + data
            }
        case 0x02:
            body = [0x03] + uid + [frame[10]] + [0x00, 0x00, 0xFF, 0xFF]
        default:
            throw PluginError.communication("no answer")
        }
        return [UInt8(body.count + 1)] + body
    }

    func apdu(_ command: [UInt8]) throws -> [UInt8] { throw PluginError.internal("not ISO") }
    func option(_ key: String) -> String? { nil }
    func log(_ message: String) {}
}

final class FeliCaSystemTests: XCTestCase {
    func testReadsTwentyOneBlocksInTwoCommandsWhenTheCardTakesFifteen() throws {
        let card = ScriptedFeliCaCard()
        let system = try FeliCaSystem.open(card, systemCode: 0x0003)
        let blocks = try system.read([(0x008B, [0]), (0x090F, Array(0 ..< 20))])
        XCTAssertEqual(card.frames.count, 2)
        XCTAssertEqual(blocks[0x008B]?.count, 1)
        XCTAssertEqual(blocks[0x090F]?.count, 20)
        // Block numbers come back in the order asked, across the two commands.
        XCTAssertEqual(try blocks[0x090F]?.map { try $0.u8(0) }, (0 ..< 20).map(UInt8.init))
    }

    func testFallsBackToFewerBlocksOnIllegalBlockCount() throws {
        let card = ScriptedFeliCaCard()
        card.maxBlocks = 8
        let system = try FeliCaSystem.open(card, systemCode: 0x0003)
        let blocks = try system.read([(0x090F, Array(0 ..< 20))])
        XCTAssertEqual(blocks[0x090F]?.count, 20)
        // 15 refused, 12 refused, then 8 + 8 + 4.
        XCTAssertEqual(card.frames.count, 5)
        XCTAssertEqual(system.blocksPerRead, 8)
    }

    func testRequestServiceTellsMissingServicesApart() throws {
        let card = ScriptedFeliCaCard()
        let system = try FeliCaSystem.open(card, systemCode: 0x0003)
        XCTAssertEqual(try system.requestService([0x090F, 0x1317]), [0x0000, nil])
    }

    func testAbsentSystemIsNotThisCardWithoutAnyTraffic() {
        let card = ScriptedFeliCaCard()
        card.systemCodes = [0x8008]
        XCTAssertThrowsError(try FeliCaSystem.open(card, systemCode: 0x0003)) { XCTAssertEqual($0 as? PluginError, .notThisCard) }
        XCTAssertTrue(card.frames.isEmpty)
    }
}

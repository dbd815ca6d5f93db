import PluginKit
import XCTest

/// A one-system card that answers FeliCa frames from a script, recording the frames sent.
/// A frame to any IDm but `answeringIDm` meets silence (`noAnswer`), as a real card's would.
final class ScriptedFeliCaCard: CardLink {
    let uid: [UInt8] = [0x01, 0x14, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF]
    var systemCodes: [UInt16]? = [0x0003]
    /// The IDm the card answers to and with, and returns to Polling; the polled IDm when nil.
    var answeringIDm: [UInt8]?
    /// The most blocks a read may name; more answers status FF A2.
    var maxBlocks = 15
    /// Thrown to a Polling instead of answering it.
    var pollingFailure: PluginError?
    /// What the host says of the reader's frames (max_felica_frame); nil: it says nothing.
    var largestFeliCaFrame: Int?
    var frames = [[UInt8]]()

    func felica(_ frame: [UInt8]) throws -> [UInt8] {
        frames.append(frame)
        let idm = answeringIDm ?? uid
        if frame[1] == 0x00 {
            if let pollingFailure { throw pollingFailure }
            return reply([0x01] + idm + [0x10, 0x0B, 0x4B, 0x42, 0x84, 0x85, 0xD0, 0xFF])
        }
        guard Array(frame[2 ..< 10]) == idm else { throw PluginError.noAnswer("silent to another IDm") }
        switch frame[1] {
        case 0x06:
            let services = Int(frame[10])
            let count = Int(frame[11 + 2 * services])
            if count > maxBlocks { return reply([0x07] + idm + [0xFF, 0xA2]) } // illegal number of blocks
            let list = Array(frame[(12 + 2 * services)...])
            // Each block holds its block number, so tests can check the order.
            let data = stride(from: 0, to: list.count, by: 2).flatMap { i in [UInt8](repeating: list[i + 1], count: 16) }
            return reply([0x07] + idm + [0x00, 0x00, UInt8(count)] + data)
        case 0x02: // the first node exists, the others do not
            let n = Int(frame[10])
            return reply([0x03] + idm + [UInt8(n), 0x00, 0x00] + Array(repeating: 0xFF, count: 2 * (n - 1)))
        default:
            throw PluginError.noAnswer("no answer")
        }
    }

    /// The block count of each Read Without Encryption sent, in order.
    var readBlockCounts: [Int] {
        frames.filter { $0[1] == 0x06 }.map { Int($0[11 + 2 * Int($0[10])]) }
    }

    func apdu(_ command: [UInt8]) throws -> [UInt8] { throw PluginError.internal("not ISO") }
    func option(_ key: String) -> String? { nil }
    func log(_ message: String) {}

    private func reply(_ body: [UInt8]) -> [UInt8] { [UInt8(body.count + 1)] + body }
}

final class FeliCaSystemTests: XCTestCase {
    /// Japan IC: the balance block and the 20 history blocks.
    let japanIC: [(service: UInt16, blocks: [Int])] = [(0x008B, [0]), (0x090F, Array(0 ..< 20))]

    func testTwentyOneBlocksGoInTwoEvenCommandsOnTwelveAndFifteenBlockCards() throws {
        for limit in [12, 15] {
            let card = ScriptedFeliCaCard()
            card.maxBlocks = limit
            let system = try FeliCaSystem.open(card, systemCode: 0x0003)
            let blocks = try system.read(japanIC)
            XCTAssertEqual(card.readBlockCounts, [11, 10], "card of \(limit)")
            XCTAssertEqual(blocks[0x008B]?.count, 1)
            // Block numbers come back in the order asked, across the two commands.
            XCTAssertEqual(try blocks[0x090F]?.map { try $0.u8(0) }, (0 ..< 20).map(UInt8.init))
            XCTAssertEqual(system.blocksPerRead, 12)
        }
    }

    func testEightBlockCardRefusesElevenThenReadsSevenAtATime() throws {
        let card = ScriptedFeliCaCard()
        card.maxBlocks = 8
        let system = try FeliCaSystem.open(card, systemCode: 0x0003)
        let blocks = try system.read(japanIC)
        XCTAssertEqual(card.readBlockCounts, [11, 7, 7, 7], "11 refused (A2), then 21 blocks over three commands")
        XCTAssertEqual(try blocks[0x090F]?.map { try $0.u8(0) }, (0 ..< 20).map(UInt8.init))
        XCTAssertEqual(system.blocksPerRead, 8)
    }

    func testFourBlockCardStepsDownTheLadderAndSplitsEvenly() throws {
        let card = ScriptedFeliCaCard()
        card.maxBlocks = 4
        let system = try FeliCaSystem.open(card, systemCode: 0x0003)
        let blocks = try system.read(japanIC)
        // 11 and 7 refused, then 21 blocks over the fewest commands of 4.
        XCTAssertEqual(card.readBlockCounts, [11, 7, 4, 4, 4, 3, 3, 3])
        XCTAssertEqual(try blocks[0x090F]?.map { try $0.u8(0) }, (0 ..< 20).map(UInt8.init))
        XCTAssertEqual(system.blocksPerRead, 4)
        // The learnt limit holds for the next read of the same system.
        _ = try system.read([(0x090F, Array(0 ..< 5))])
        XCTAssertEqual(card.readBlockCounts.suffix(2), [3, 2])
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

    // MARK: the system's IDm

    /// A phone's FE00 (system 1) answers this IDm, not the derived 11 14 AA …
    let phoneIDm: [UInt8] = [0x03, 0xFE, 0x11, 0x22, 0x33, 0x44, 0x55, 0xAA]

    func testSilentDerivedIDmIsReplacedByTheIDmPollingReturns() throws {
        let card = ScriptedFeliCaCard()
        card.systemCodes = [0x8C97, 0xFE00]
        card.answeringIDm = phoneIDm
        let purse = try FeliCaPurse(card, systemCode: 0xFE00, balanceService: 0x1317, others: [])
        let derived: [UInt8] = [0x11, 0x14, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF]
        // Request Service to the derived IDm (silence), one Polling for FE00, Request Service again,
        // then the read goes straight to the polled IDm.
        XCTAssertEqual(card.frames.map { $0[1] }, [0x02, 0x00, 0x02, 0x06])
        XCTAssertEqual(Array(card.frames[0][2 ..< 10]), derived)
        XCTAssertEqual(card.frames[1], [0x06, 0x00, 0xFE, 0x00, 0x00, 0x00], "Polling FE00, request code 00, one slot")
        XCTAssertEqual(Array(card.frames[2][2 ..< 10]), phoneIDm)
        XCTAssertEqual(Array(card.frames[3][2 ..< 10]), phoneIDm)
        XCTAssertEqual(card.frames[0][10...], card.frames[2][10...], "the same command, re-sent")
        XCTAssertEqual(try purse.balanceBlock.u8(0), 0, "block 0 read")
        XCTAssertEqual(purse.idm, "03FE1122334455AA", "the IDm actually used")
    }

    func testSilenceFromTheReadItselfAlsoPollsOnce() throws {
        let card = ScriptedFeliCaCard()
        card.systemCodes = [0x8C97, 0xFE00]
        card.answeringIDm = phoneIDm
        let system = try FeliCaSystem.open(card, systemCode: 0xFE00)
        let blocks = try system.read([(0x170F, Array(0 ..< 6))])
        XCTAssertEqual(card.frames.map { $0[1] }, [0x06, 0x00, 0x06])
        XCTAssertEqual(card.readBlockCounts, [6, 6])
        XCTAssertEqual(try blocks[0x170F]?.map { try $0.u8(0) }, [0, 1, 2, 3, 4, 5])
        XCTAssertEqual(system.idm, phoneIDm)
    }

    func testDerivedIDmThatAnswersCostsNoPolling() throws {
        let card = ScriptedFeliCaCard()
        card.systemCodes = [0x8C97, 0xFE00]
        card.answeringIDm = [0x11, 0x14, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF] // system 1 in the upper nibble
        let purse = try FeliCaPurse(card, systemCode: 0xFE00, balanceService: 0x1317, others: [])
        XCTAssertEqual(card.frames.map { $0[1] }, [0x02, 0x06], "Request Service and one read, no Polling")
        XCTAssertEqual(purse.idm, "1114AABBCCDDEEFF")
    }

    func testSystemSilentToItsDerivedIDmAndToPollingIsNoAnswer() {
        let card = ScriptedFeliCaCard()
        card.systemCodes = [0x8C97, 0xFE00]
        card.answeringIDm = phoneIDm
        card.pollingFailure = .noAnswer("silent")
        XCTAssertThrowsError(try FeliCaSystem.open(card, systemCode: 0xFE00).requestService([0x1317])) { error in
            guard case .noAnswer? = error as? PluginError else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(card.frames.map { $0[1] }, [0x02, 0x00], "one Polling, no more")
    }

    func testSilenceToPollingWhenTheSystemsAreUnknownIsNotThisCard() {
        let card = ScriptedFeliCaCard()
        card.systemCodes = nil
        card.pollingFailure = .noAnswer("silent")
        XCTAssertThrowsError(try FeliCaSystem.open(card, systemCode: 0x8008)) { XCTAssertEqual($0 as? PluginError, .notThisCard) }
    }

    func testReaderFailureDuringPollingIsNeverNotThisCard() {
        let card = ScriptedFeliCaCard()
        card.systemCodes = nil
        card.pollingFailure = .communication("reader failed")
        XCTAssertThrowsError(try FeliCaSystem.open(card, systemCode: 0x8008)) {
            XCTAssertEqual($0 as? PluginError, .communication("reader failed"))
        }
    }

    func testPolledSystemUsesTheIDmPollingReturned() throws {
        let card = ScriptedFeliCaCard()
        card.systemCodes = nil
        card.answeringIDm = phoneIDm
        let system = try FeliCaSystem.open(card, systemCode: 0xFE00)
        _ = try system.read([(0x1317, [0])])
        XCTAssertEqual(card.frames.map { $0[1] }, [0x00, 0x06])
        XCTAssertEqual(system.idm, phoneIDm)
    }

    func testBlocksPast255TakeThreeByteElements() throws {
        // FeliCa Card User's Manual, Block List: D0 bit 7 clear, D1 D2 the block number little-endian.
        let idm: [UInt8] = [0x01, 0x2E, 0x4C, 0xD8, 0x9A, 0x1B, 0x23, 0x45]
        let frame = try FeliCa.readWithoutEncryption(idm: idm, services: [0x090F], blocks: [(0, 255), (0, 300)])
        XCTAssertEqual(Array(frame.suffix(6)), [0x02, 0x80, 0xFF, 0x00, 0x2C, 0x01])
        XCTAssertEqual(Int(frame[0]), frame.count)
        XCTAssertThrowsError(try FeliCa.readWithoutEncryption(idm: idm, services: [0x090F], blocks: [(16, 0)]))
    }

    func testAReaderOfSmallFramesGetsNoMoreBlocksThanFitItsAnswer() throws {
        // A read of n blocks is answered with 13 + 16 n bytes (FeliCa Card User's Manual).
        XCTAssertEqual(FeliCa.blocksPerRead(fitting: nil), 12)
        XCTAssertEqual(FeliCa.blocksPerRead(fitting: 255), 12)
        XCTAssertEqual(FeliCa.blocksPerRead(fitting: 61), 3)
        XCTAssertEqual(FeliCa.blocksPerRead(fitting: 37), 1)
        XCTAssertEqual(FeliCa.blocksPerRead(fitting: 4), 1)
        let card = ScriptedFeliCaCard()
        card.largestFeliCaFrame = 61
        let system = try FeliCaSystem.open(card, systemCode: 0x0003)
        _ = try system.read([(service: 0x090F, blocks: Array(0 ..< 7))])
        let counts = card.frames.filter { $0[1] == 0x06 }.map { Int($0[13]) }
        XCTAssertEqual(counts, [3, 2, 2], "seven blocks in the fewest reads of at most three")
        XCTAssertTrue(card.frames.allSatisfy { $0.count <= 61 })
    }
}

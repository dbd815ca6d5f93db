import CardProtocol
import TestSupport
import XCTest
@testable import CardSimulation

/// The emulator's Calypso behaviour against vectors written from the facts: Keyple's multi-record
/// answer format (record number, length, data), CLA 94 cards, the empty answer to Le 00, 6A82 for
/// an optional file the card lacks.
final class CalypsoEmulationTests: XCTestCase {
    static let select = "00A4040008315449432E49434100" // SELECT 1TIC.ICA, CLA 00
    static let r1 = String(repeating: "11", count: 29), r2 = String(repeating: "22", count: 29), r3 = String(repeating: "33", count: 29)

    func card(onlyClass: String? = nil, multiple: Bool? = nil, empty: Bool? = nil) throws -> VirtualReader {
        try VirtualReader(image: CardImage(iso7816: .init(
            uid: "01020304", applications: [.init(select: Self.select, answer: "6F00" + "9000", records: ["08": [Self.r1, Self.r2, Self.r3]])],
            onlyClass: onlyClass, multipleRecordReads: multiple, emptyAnswerToLeZero: empty)))
    }

    func hex(_ s: String) -> [UInt8] { HexFormat.bytes(s) ?? [] }

    func testReadRecordP2FiveReadsEveryRecordFromP1AsNumberLengthData() throws {
        let reader = try card()
        XCTAssertEqual(reader.transmit(hex(Self.select)).suffix(2), [0x90, 0x00])
        // SFI 08 · 8 + 5 = 0x45. From record 1: 01 1D <r1> 02 1D <r2> 03 1D <r3> 90 00.
        XCTAssertEqual(reader.transmit(hex("00B2014500")), hex("011D" + Self.r1 + "021D" + Self.r2 + "031D" + Self.r3 + "9000"))
        // From record 2: 02 1D <r2> 03 1D <r3>.
        XCTAssertEqual(reader.transmit(hex("00B2024500")), hex("021D" + Self.r2 + "031D" + Self.r3 + "9000"))
        // Le 3E (62) holds two records of 2 + 29 bytes.
        XCTAssertEqual(reader.transmit(hex("00B201453E")), hex("011D" + Self.r1 + "021D" + Self.r2 + "9000"))
        // One record (P2 = 0x44) as before; past the last 6A83; an SFI the card lacks 6A82.
        XCTAssertEqual(reader.transmit(hex("00B2034400")), hex(Self.r3 + "9000"))
        XCTAssertEqual(reader.transmit(hex("00B2044500")), hex("6A83"))
        XCTAssertEqual(reader.transmit(hex("00B201E500")), hex("6A82"), "SFI 1C (special events) absent")
    }

    func testACardOfClass94OnlyAnswers6E00ToClass00() throws {
        let reader = try card(onlyClass: "94")
        XCTAssertEqual(reader.transmit(hex(Self.select)), hex("6E00"))
        XCTAssertEqual(reader.transmit(hex("94A4040008315449432E49434100")), hex("6F009000"))
        XCTAssertEqual(reader.transmit(hex("00B2014400")), hex("6E00"))
        XCTAssertEqual(reader.transmit(hex("94B2014400")), hex(Self.r1 + "9000"))
    }

    func testEmptyAnswerToLeZeroAndOneRecordOnlyCards() throws {
        let quirky = try card(empty: true)
        _ = quirky.transmit(hex(Self.select))
        XCTAssertEqual(quirky.transmit(hex("00B2014400")), hex("9000"))
        XCTAssertEqual(quirky.transmit(hex("00B2014500")), hex("9000"))
        XCTAssertEqual(quirky.transmit(hex("00B201441D")), hex(Self.r1 + "9000"), "Le 1D: the record")
        let single = try card(multiple: false)
        _ = single.transmit(hex(Self.select))
        XCTAssertEqual(single.transmit(hex("00B2014500")), hex("6A86"))
        XCTAssertEqual(single.transmit(hex("00B2014400")), hex(Self.r1 + "9000"))
    }

    func testAnImageWithABadClassIsRefused() {
        XCTAssertThrowsError(try card(onlyClass: "9400"))
    }
}

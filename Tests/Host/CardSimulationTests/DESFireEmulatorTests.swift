import CardProtocol
import CardSimulation
import XCTest

/// The DESFire card image answered as the facts say a card answers (HSL's API document exchanges,
/// the DESFire status list), not as our plugins expect.
final class DESFireEmulatorTests: XCTestCase {
    static func card() throws -> VirtualReader {
        let files: [CardImage.DESFireFileImage] = [
            .init(id: "08", type: "standard", access: "10E1", data: "0123456789ABCDEF001122"),
            .init(id: "0E", type: "standard", access: "30E2", data: String(repeating: "AB", count: 130)),
            .init(id: "05", type: "standard", access: "1111", data: "00"),
            .init(id: "04", type: "cyclic-record", access: "32E4", recordSize: 2, maxRecords: 8, records: ["0003", "0002", "0001"]),
            .init(id: "02", type: "value", access: "32E4", value: -200),
        ]
        let image = CardImage(iso7816: .init(uid: "04112233445566", applications: [],
                                             desfire: .init(applications: [.init(aid: "1120EF", files: files)])))
        return try VirtualReader(image: image)
    }

    func send(_ r: VirtualReader, _ hex: String) -> String { HexFormat.string(r.transmit(HexFormat.bytes(hex, ignoringSpaces: true) ?? [])) }

    func testTheHSLDocumentsSelectAndApplicationInfoRead() throws {
        let r = try Self.card()
        XCTAssertEqual(send(r, "90 5A 00 00 03 11 20 EF 00"), "9100")
        XCTAssertEqual(send(r, "90 BD 00 00 07 08 00 00 00 0B 00 00 00"), "0123456789ABCDEF0011229100")
        XCTAssertEqual(send(r, "90 5A 00 00 03 31 45 53 00"), "91A0", "application not found")
    }

    func testLongAnswersChainInFramesOf59Bytes() throws {
        let r = try Self.card()
        _ = send(r, "905A0000031120EF00")
        let first = send(r, "90BD0000070E00000000000000")
        XCTAssertEqual(first.count, 59 * 2 + 4)
        XCTAssertTrue(first.hasSuffix("91AF"))
        XCTAssertTrue(send(r, "90AF000000").hasSuffix("91AF"))
        XCTAssertEqual(send(r, "90AF000000"), String(repeating: "AB", count: 12) + "9100")
        XCTAssertEqual(send(r, "90AF000000"), "911C", "nothing left to chain")
    }

    func testLockedFilesRecordsValuesAndSettings() throws {
        let r = try Self.card()
        _ = send(r, "905A0000031120EF00")
        XCTAssertEqual(send(r, "90BD0000070500000000000000"), "91AE", "read key 1: authentication needed")
        XCTAssertEqual(send(r, "90BD0000070900000000000000"), "91F0")
        XCTAssertEqual(send(r, "90BB0000070400000000000000"), "0003000200019100", "all records, newest first")
        XCTAssertEqual(send(r, "90BB0000070401000001000000"), "00029100")
        XCTAssertEqual(send(r, "906C0000010200"), "38FFFFFF9100")
        XCTAssertEqual(send(r, "90F50000010400"), "040032E40200000800000300009100")
        XCTAssertEqual(send(r, "903D00000F0800000008000000AABBCCDDEEFF0011"), "911C", "Write Data is not answered")
        XCTAssertEqual(send(r, "00A4040007A000000004101000"), "6A82", "ISO commands go to the ISO side")
    }
}

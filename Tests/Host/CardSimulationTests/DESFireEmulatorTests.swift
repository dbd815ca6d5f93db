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
            .init(id: "03", type: "cyclic-record", access: "32E4", recordSize: 48, maxRecords: 5, records: []),
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
        // The image lists 0003 (newest), 0002, 0001; Read Records answers in the order written, oldest
        // first (NXP's DESFire EV1 datasheet, Read Records; issue 43).
        XCTAssertEqual(send(r, "90BB0000070400000000000000"), "0001000200039100", "all records, oldest first")
        XCTAssertEqual(send(r, "90BB0000070401000001000000"), "00029100")
        XCTAssertEqual(send(r, "906C0000010200"), "38FFFFFF9100")
        XCTAssertEqual(send(r, "90F50000010400"), "040032E40200000800000300009100")
        XCTAssertEqual(send(r, "903D00000F0800000008000000AABBCCDDEEFF0011"), "911C", "Write Data is not answered")
        XCTAssertEqual(send(r, "00A4040007A000000004101000"), "6A82", "ISO commands go to the ISO side")
    }

    /// The statuses a real DESFire answers where a reader of open files must cope (NXP's DESFire EV1
    /// datasheet's status list: 7E length error, BE boundary error, AE authentication error; issue 43).
    func testRefusalsAsTheDatasheetGivesThem() throws {
        let r = try Self.card()
        XCTAssertEqual(send(r, "90 5A 00 00 03 11 20 EF 00"), "9100")
        XCTAssertEqual(send(r, "90 BD 00 00 07 04 00 00 00 00 00 00 00"), "917E", "Read Data of a record file")
        XCTAssertEqual(send(r, "90 BB 00 00 07 03 00 00 00 00 00 00 00"), "91BE", "Read Records of a record file holding none")
        XCTAssertEqual(send(r, "90 F5 00 00 01 03 00"), "040032E4300000050000000000" + "9100", "its settings: 48-byte records, 5 at most, 0 held")
        XCTAssertEqual(send(r, "90 BB 00 00 07 04 03 00 00 00 00 00 00"), "91BE", "no record 3 back of 3")
        XCTAssertEqual(send(r, "90 BB 00 00 07 04 01 00 00 03 00 00 00"), "91BE", "3 records from the second newest of 3")
        XCTAssertEqual(send(r, "90 BD 00 00 07 05 00 00 00 00 00 00 00"), "91AE", "a file whose read needs key 1")
        XCTAssertEqual(send(r, "90 BB 00 00 07 04 00 00 00 02 00 00 00"), "000200039100", "the two newest, oldest first")
    }
}

import CardProtocol
import XCTest

/// ISO/IEC 8825-1 encodings as ISO 7816-4 (5.2.2) profiles them.
final class BERTLVTests: XCTestCase {
    func testTagsAndLengthsOfEachForm() throws {
        // 5F46 (two-byte tag: low five bits of 5F all set), then 97 with the 81 length form.
        let objects = try BERTLV.decode([0x5F, 0x46, 0x02, 0xAA, 0xBB, 0x97, 0x81, 0x80] + [UInt8](repeating: 7, count: 128))
        XCTAssertEqual(objects.map(\.tag), [0x5F46, 0x97])
        XCTAssertEqual(objects.last?.value.count, 128)
        XCTAssertEqual(BERTLV.encode(tag: 0x95, [UInt8](repeating: 0, count: 300))?.prefix(4), [0x95, 0x82, 0x01, 0x2C])
        XCTAssertEqual(BERTLV.encode(tag: 0x5F46, [1]), [0x5F, 0x46, 0x01, 0x01])
    }

    func testPart3RefusesWhatItDoesNotUseAndFCIsAllowThreeLengthBytes() throws {
        let long: [UInt8] = [0x84, 0x83, 0x00, 0x00, 0x01, 0x41]
        XCTAssertThrowsError(try BERTLV.decode(long), "Part 3: 81 and 82 only")
        XCTAssertEqual(try BERTLV.find(0x84, in: long), [0x41])
        for bad: [UInt8] in [[0x97], [0x97, 0x80], [0x97, 0x02, 0x01], [0x9F], [0x9F, 0x81, 0x81, 0x81, 0x01, 0x00], [0x97, 0x84, 0, 0, 0, 1, 0]] {
            XCTAssertThrowsError(try BERTLV.decode(bad, lengthBytes: 3), "\(bad)")
        }
    }

    func testFindLooksInsideConstructedObjectsAndStopsAtTheFirst() throws {
        // 6F (FCI, constructed) holding 84 (DF name) and A5 (constructed) holding 9F0C.
        let fci: [UInt8] = [0x6F, 0x0B, 0x84, 0x02, 0xA0, 0x00, 0xA5, 0x05, 0x9F, 0x0C, 0x02, 0x12, 0x34]
        XCTAssertEqual(try BERTLV.find(0x9F0C, in: fci), [0x12, 0x34])
        XCTAssertEqual(try BERTLV.find(0x84, in: fci), [0xA0, 0x00])
        XCTAssertNil(try BERTLV.find(0x88, in: fci))
        XCTAssertEqual(try BERTLV.find(0x84, in: [0x84, 0x01, 0x05, 0xFF]), [0x05], "bytes after the object found are not parsed")
        XCTAssertEqual(try BERTLV.find(0x84, in: [0x04, 0x01, 0x84, 0x84, 0x01, 0x05]), [0x05], "a primitive value is not looked into")
    }
}

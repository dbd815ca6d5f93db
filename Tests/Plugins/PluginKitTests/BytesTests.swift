import PluginKit
import XCTest

final class BytesTests: XCTestCase {
    func testReadsBigAndLittleEndianWithinBounds() throws {
        let b = Bytes([0x01, 0x02, 0x03, 0x04])
        XCTAssertEqual(try b.be(0, 2), 0x0102)
        XCTAssertEqual(try b.le(2, 2), 0x0403)
        XCTAssertEqual(try b.slice(1, 2).hex, "0203")
    }

    func testShortAnswersThrowMalformedResponseInsteadOfTrapping() {
        let b = Bytes([0x01, 0x02])
        for access in [{ _ = try b.u8(2) }, { _ = try b.be(1, 2) }, { _ = try b.slice(-1, 1) }, { _ = try b.slice(0, 3) },
                       { _ = try b.suffix(from: 3) }, { _ = try b.le(Int.max, 2) }] {
            XCTAssertThrowsError(try access()) { error in
                guard case PluginError.malformedResponse = error else { return XCTFail("got \(error)") }
            }
        }
    }

    func testSignedValuesUseTwosComplement() throws {
        XCTAssertEqual(try Bytes([0xFF, 0xFF, 0x80]).signedBE(0, 3), -128)
        XCTAssertEqual(try Bytes([0x00, 0x03, 0x81]).signedBE(0, 3), 897)
        XCTAssertEqual(try Bytes([0x80, 0x00, 0x00]).signedBE(0, 3), -8_388_608)
    }
}

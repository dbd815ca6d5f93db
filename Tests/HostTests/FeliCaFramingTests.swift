import CardSimulation
import XCTest
@testable import Host

final class FeliCaFramingTests: XCTestCase {
    let frame: [UInt8] = [0x0A, 0x0C, 1, 2, 3, 4, 5, 6, 7, 8]

    func testWrapsInEachDialect() {
        XCTAssertEqual(FeliCaFraming.wrap(frame, .pn532), [0xFF, 0x00, 0x00, 0x00, 13, 0xD4, 0x40, 0x01] + frame)
        XCTAssertEqual(FeliCaFraming.wrap(frame, .acsDirect), [0xFF, 0x00, 0x00, 0x00, 10] + frame)
        XCTAssertEqual(FeliCaFraming.wrap(frame, .part3), [0xFF, 0xC2, 0x00, 0x01, 12, 0x95, 10] + frame)
    }

    func testUnwrapsAnswersAndSilence() throws {
        let reply: [UInt8] = [0x03, 0x0D, 0x00]
        XCTAssertEqual(try FeliCaFraming.unwrap([0xD5, 0x41, 0x00] + reply + [0x90, 0x00], .pn532), reply)
        XCTAssertNil(try FeliCaFraming.unwrap([0xD5, 0x41, 0x01, 0x90, 0x00], .pn532))
        XCTAssertEqual(try FeliCaFraming.unwrap(reply + [0x90, 0x00], .acsDirect), reply)
        XCTAssertNil(try FeliCaFraming.unwrap([0x63, 0x00], .acsDirect))
        XCTAssertEqual(try FeliCaFraming.unwrap([0xC0, 0x03, 0x00, 0x90, 0x00, 0x97, 0x03] + reply + [0x90, 0x00], .part3), reply)
        XCTAssertNil(try FeliCaFraming.unwrap([0xC0, 0x03, 0x01, 0x64, 0x01, 0x90, 0x00], .part3))
    }

    func testRefusalIsCommunicationAndGarbageIsMalformed() {
        XCTAssertThrowsError(try FeliCaFraming.unwrap([0x6A, 0x81], .part3)) { XCTAssertEqual(($0 as? TransitError)?.kind, .communication) }
        for (answer, dialect) in [([0x90, 0x00], FeliCaDialect.pn532), ([0x05, 0x01, 0x90, 0x00], .acsDirect),
                                  ([0x97, 0x09, 0x01, 0x90, 0x00], .part3), ([0x00], .pn532)] as [([UInt8], FeliCaDialect)] {
            XCTAssertThrowsError(try FeliCaFraming.unwrap(answer, dialect)) {
                XCTAssertEqual(($0 as? TransitError)?.kind, .malformedResponse, "\(answer)")
            }
        }
    }

    func testDialectFollowsTheReaderName() {
        XCTAssertEqual(FeliCaFraming.dialect(forReader: "ACS ACR122U PICC Interface 00 00"), .pn532)
        XCTAssertEqual(FeliCaFraming.dialect(forReader: "ACS ACR1252 Dual Reader [ACR1252 Dual Reader PICC] 00 00"), .acsDirect)
        XCTAssertEqual(FeliCaFraming.dialect(forReader: "Identiv uTrust 3700 F CL Reader 00 00"), .part3)
    }
}

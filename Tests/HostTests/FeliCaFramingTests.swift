import TestSupport
import XCTest
@testable import Host

/// The host's dialects against the hand-written vectors of `DialectVectors`.
final class FeliCaFramingTests: XCTestCase {
    func testWrapsEveryFrameAsTheVectorsSay() throws {
        for v in DialectVectors.commands {
            let dialect = try XCTUnwrap(FeliCaDialect(rawValue: v.dialect))
            XCTAssertEqual(FeliCaFraming.wrap(v.frame, dialect), v.apdu, "\(v.dialect), frame of \(v.frame.count) bytes")
        }
    }

    func testUnwrapsEveryAnswerAsTheVectorsSay() throws {
        for v in DialectVectors.answers {
            let dialect = try XCTUnwrap(FeliCaDialect(rawValue: v.dialect))
            let got: DialectVectors.Meaning
            do {
                switch try FeliCaFraming.unwrap(v.bytes, dialect) {
                case .frame(let f): got = .frame(f)
                case .silent: got = .silent
                case .refused: got = .refused
                }
            } catch let e as TransitError {
                XCTAssert([.communication, .malformedResponse].contains(e.kind), "\(e)")
                got = e.kind == .communication ? .failure : .malformed
            }
            XCTAssertEqual(got, v.meaning, "\(v.dialect) answer \(HexFormat.string(v.bytes.prefix(12)))…")
        }
    }

    func testDialectFollowsTheReaderName() {
        XCTAssertEqual(FeliCaDialect.guess(forReader: "ACS ACR122U PICC Interface 00 00"), .pn532)
        XCTAssertEqual(FeliCaDialect.guess(forReader: "ACS ACR1252 Dual Reader [ACR1252 Dual Reader PICC] 00 00"), .acsDirect)
        XCTAssertEqual(FeliCaDialect.guess(forReader: "Identiv uTrust 3700 F CL Reader 00 00"), .part3)
    }

    func testBERTLVReadsMultiByteTagsAndEveryLengthForm() throws {
        let objects = try BERTLV.decode([0x5F, 0x46, 0x04, 1, 2, 3, 4, 0x97, 0x81, 0x80] + [UInt8](repeating: 7, count: 128)
                                        + [0x96, 0x82, 0x00, 0x02, 0x00, 0x00])
        XCTAssertEqual(objects.map(\.tag), [0x5F46, 0x97, 0x96])
        XCTAssertEqual(objects.map(\.value.count), [4, 128, 2])
        XCTAssertEqual(BERTLV.encode(tag: 0x95, [UInt8](repeating: 0, count: 300))?.prefix(4), [0x95, 0x82, 0x01, 0x2C])
        for bad: [UInt8] in [[0x97], [0x97, 0x81], [0x97, 0x83, 0, 0, 1], [0x5F], [0x97, 0x80]] {
            XCTAssertThrowsError(try BERTLV.decode(bad), "\(bad)")
        }
    }
}

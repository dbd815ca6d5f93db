import TestSupport
import XCTest
import CardProtocol
import TransitModel
import TransitFiles
import TransitTransport
import TransitStations
import TransitArchive
import TransitOutput

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

    func testTheACR122UReadExampleInBothItsForms() throws {
        // ACR122U API v2.04 7.3: the same Read Without Encryption inside D4 40 01 and bare.
        XCTAssertEqual(FeliCaFraming.wrap(ReaderVectors.acr122uReadFrame, .pn532), ReaderVectors.acr122uReadPN532)
        XCTAssertEqual(FeliCaFraming.wrap(ReaderVectors.acr122uReadFrame, .bareFrame), ReaderVectors.acr122uReadFrame)
        XCTAssertEqual(try FeliCaFraming.unwrap(ReaderVectors.acr122uAnswerPN532, .pn532), .frame(ReaderVectors.acr122uAnswerFrame))
        XCTAssertEqual(try FeliCaFraming.unwrap(ReaderVectors.acr122uAnswerBare, .bareFrame), .frame(ReaderVectors.acr122uAnswerFrame))
        // The ACR1252U log: the direct transmit of a read, and the card's answer with status flags 01 A6.
        let frame = Array(ReaderVectors.acr1252Read.dropFirst(5))
        XCTAssertEqual(FeliCaFraming.wrap(frame, .acsDirect), ReaderVectors.acr1252Read)
        XCTAssertEqual(try FeliCaFraming.unwrap(ReaderVectors.acr1252Answer, .acsDirect), .frame(Array(ReaderVectors.acr1252Answer.dropLast(2))))
    }

    func testManageSessionIsThePart3Command() {
        XCTAssertEqual(FeliCaFraming.startSession, ReaderVectors.startSession)
        XCTAssertEqual(FeliCaFraming.endSession, ReaderVectors.endSession)
        XCTAssertTrue(FeliCaFraming.sessionStarted(ReaderVectors.sessionTaken))
        for refusal: [UInt8] in [[0x6A, 0x81], [0x6D, 0x00], [0xC0, 0x03, 0x01, 0x6A, 0x81, 0x90, 0x00], [0x90]] {
            XCTAssertFalse(FeliCaFraming.sessionStarted(refusal), HexFormat.string(refusal))
        }
    }

    func testTheLargestFrameFitsTheReadersCommandsBothWays() {
        // A 54-byte command (the TWN4's 64-byte CCID messages): Part 3 adds 16 bytes to a command
        // (5 header, 7 timer, 95 81 LL, Le) and at most 17 to an answer.
        XCTAssertEqual(FeliCaFraming.largestFrame(.part3, maxCommand: 54), 37)
        XCTAssertEqual(FeliCaFraming.largestFrame(.acsDirect, maxCommand: 54), 49)
        XCTAssertEqual(FeliCaFraming.largestFrame(.pn532, maxCommand: 261), 253)
        XCTAssertEqual(FeliCaFraming.largestFrame(.part3, maxCommand: 1024), 255)
        XCTAssertEqual(FeliCaFraming.largestFrame(.part3, maxCommand: 4), 0)
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

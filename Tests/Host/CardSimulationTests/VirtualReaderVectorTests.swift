import TestSupport
import XCTest
@testable import CardSimulation

/// The simulator's reader against the same hand-written vectors as the host's transport.
final class VirtualReaderVectorTests: XCTestCase {
    func testReadsEveryCommandTheVectorsSpell() throws {
        for v in DialectVectors.commands {
            guard let apdu = v.apdu else { continue }
            let parsed = VirtualReader.felicaFrame(in: apdu)
            XCTAssertEqual(parsed?.0.rawValue, v.dialect, "\(v.dialect), frame of \(v.frame.count) bytes")
            XCTAssertEqual(parsed?.1, v.frame, "\(v.dialect), frame of \(v.frame.count) bytes")
        }
    }

    func testAnswersAsAConformingReaderDoes() throws {
        for v in DialectVectors.answers where v.canonical {
            let dialect = try XCTUnwrap(SimulatedDialect(rawValue: v.dialect))
            switch v.meaning {
            case .frame(let f): XCTAssertEqual(VirtualReader.passThroughAnswer(f, dialect), v.bytes, "\(v.dialect), frame of \(f.count) bytes")
            case .silent: XCTAssertEqual(VirtualReader.passThroughAnswer(nil, dialect), v.bytes, "\(v.dialect) silence")
            default: continue
            }
        }
    }

    func testRefusesOtherDialectsWhenLimitedToOne() throws {
        let image = CardImage(felica: .init(idm: "0114AABBCCDDEEFF", systems: [.init(code: "0003", services: [:])]))
        let reader = try VirtualReader(image: image, dialect: .pn532)
        let polling = DialectVectors.commands.first { $0.dialect == "part3" && $0.frame.count == 1 }?.apdu ?? []
        let refusal = DialectVectors.answers.first { $0.dialect == "part3" && $0.meaning == .refused && $0.canonical }
        XCTAssertEqual(reader.transmit(polling), refusal?.bytes)
    }
}

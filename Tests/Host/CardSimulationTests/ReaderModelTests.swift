import CardProtocol
import TestSupport
import XCTest
@testable import CardSimulation

/// The simulator's reader models against the readers' manuals and lists (ReaderVectors), not
/// against the host.
final class ReaderModelTests: XCTestCase {
    /// A card whose service 0109 holds the ACR122U manual's block `00 AA 55 …` (API v2.04, 7.3).
    private let manualCard = CardImage(felica: .init(idm: HexFormat.string(ReaderVectors.idm), systems: [
        .init(code: "0003", services: ["0109": ["00AA55AA55AA55AA55AA55AA55AA55AA"]]),
    ]))

    private func vector(_ source: String) -> [UInt8] { ReaderVectors.atrs.first { $0.source.contains(source) }?.atr ?? [] }

    func testEachModelBuildsTheATRItsManualPrints() throws {
        XCTAssertEqual(try VirtualReader(image: manualCard, model: .acr122u).atr, vector("FeliCa 212K"))
        XCTAssertEqual(try VirtualReader(image: manualCard, model: .acr122u424).atr, vector("FeliCa 424K"))
        XCTAssertEqual(try VirtualReader(image: manualCard, model: .acr1252u).atr, vector("ACM1252U"))
        XCTAssertEqual(try VirtualReader(image: manualCard, model: .utrust3700f).atr, ReaderVectors.scmFeliCaATR)
        // ACS puts a type B card's whole ATQB in the historical bytes (smartcard_list: EZ-Link).
        let ezlink = CardImage(iso7816: .init(uid: "01020304", historicalBytes: "5068DDA5B11C000011778185", applications: []))
        XCTAssertEqual(try VirtualReader(image: ezlink, model: .acr122u).atr, vector("EZ-Link, ACS"))
    }

    func testTheACR122UAnswersItsManualsReadInBothForms() throws {
        let reader = try VirtualReader(image: manualCard, model: .acr122u)
        XCTAssertEqual(reader.transmit(ReaderVectors.acr122uReadPN532), ReaderVectors.acr122uAnswerPN532)
        XCTAssertEqual(reader.transmit(ReaderVectors.acr122uReadFrame), ReaderVectors.acr122uAnswerBare)
        XCTAssertEqual(reader.transmit([0xFF, 0xCA, 0x00, 0x00, 0x00]), ReaderVectors.idm + [0x90, 0x00])
    }

    func testTheIdentivTakesPart3AndNeverAFeliCaFrameInFF00() throws {
        let reader = try VirtualReader(image: manualCard, model: .utrust3700f)
        XCTAssertEqual(reader.transmit(ReaderVectors.acr122uReadPN532), [0x6A, 0x81])
        let part3 = [0xFF, 0xC2, 0x00, 0x01, UInt8(7 + 2 + ReaderVectors.acr122uReadFrame.count), 0x5F, 0x46, 0x04, 0x50, 0xC3, 0x00, 0x00,
                     0x95, UInt8(ReaderVectors.acr122uReadFrame.count)] + ReaderVectors.acr122uReadFrame + [0x00]
        XCTAssertEqual(reader.transmit(part3), [0xC0, 0x03, 0x00, 0x90, 0x00, 0x97, 0x1D] + ReaderVectors.acr122uAnswerFrame + [0x90, 0x00])
    }

    func testTheRCS300ExchangesOnlyInsideASession() throws {
        let reader = try VirtualReader(image: manualCard, model: .rcs300)
        let part3 = [0xFF, 0xC2, 0x00, 0x01, UInt8(2 + ReaderVectors.acr122uReadFrame.count), 0x95, UInt8(ReaderVectors.acr122uReadFrame.count)]
            + ReaderVectors.acr122uReadFrame + [0x00]
        XCTAssertEqual(reader.transmit(part3), [0x69, 0x85])
        XCTAssertEqual(reader.transmit(ReaderVectors.startSession), ReaderVectors.sessionTaken)
        XCTAssertEqual(reader.transmit(part3).suffix(2), [0x90, 0x00])
        XCTAssertEqual(reader.transmit(ReaderVectors.endSession), ReaderVectors.sessionTaken)
        XCTAssertEqual(reader.transmit(part3), [0x69, 0x85])
    }

    func testTheOMNIKEYGivesTheIDmAndNoPassThrough() throws {
        let reader = try VirtualReader(image: manualCard, model: .omnikey5022)
        XCTAssertEqual(reader.transmit([0xFF, 0xCA, 0x00, 0x00, 0x00]), ReaderVectors.idm + [0x90, 0x00])
        XCTAssertEqual(reader.transmit(ReaderVectors.acr122uReadPN532), [0x6A, 0x81])
        XCTAssertEqual(reader.transmit(ReaderVectors.startSession), [0x6A, 0x81])
    }

    func testAPhoneHoldsNoFeliCaAndHandsFFCAToTheCard() throws {
        XCTAssertThrowsError(try VirtualReader(image: manualCard, model: .phone))
        let iso = CardImage(iso7816: .init(uid: "01020304", applications: []))
        XCTAssertEqual(try VirtualReader(image: iso, model: .phone).transmit([0xFF, 0xCA, 0x00, 0x00, 0x00]), [0x6D, 0x00])
    }

    func testTheTWN4RefusesWhatDoesNotFitItsMessages() throws {
        let twelve = CardImage(felica: .init(idm: HexFormat.string(ReaderVectors.idm), systems: [
            .init(code: "0003", services: ["0109": Array(repeating: "00AA55AA55AA55AA55AA55AA55AA55AA", count: 12)]),
        ]))
        let reader = try VirtualReader(image: twelve, model: .twn4)
        func read(_ n: Int) -> [UInt8] {
            let frame = [UInt8(14 + 2 * n), 0x06] + ReaderVectors.idm + [0x01, 0x09, 0x01, UInt8(n)] + (0 ..< n).flatMap { [0x80, UInt8($0)] }
            return [0xFF, 0xC2, 0x00, 0x01, UInt8(9 + frame.count), 0x5F, 0x46, 0x04, 0x50, 0xC3, 0x00, 0x00, 0x95, UInt8(frame.count)] + frame + [0x00]
        }
        XCTAssertEqual(reader.transmit(read(12)), [0x67, 0x00])
        XCTAssertEqual(reader.transmit(read(1)).suffix(2), [0x90, 0x00])
    }
}

import TestSupport
import XCTest
import CardProtocol
import TransitModel
import TransitFiles
import TransitTransport
import TransitStations
import TransitArchive
import TransitOutput

/// Card technology from the ATRs readers really build, against the vectors of manuals and lists.
final class ATRVerdictTests: XCTestCase {
    func testEveryATRFormReadsAsItsSourceSays() {
        for v in ReaderVectors.atrs {
            let got: ReaderVectors.Kind
            switch ATRVerdict(atr: v.atr) {
            case .felica: got = .felica
            case .iso14443: got = .iso
            case .storage(let name): got = .storage(name)
            case .unknown: got = .unknown
            }
            XCTAssertEqual(got, v.kind, "\(HexFormat.string(v.atr)) (\(v.source))")
        }
    }

    func testTheSCMFormCarriesTheIDm() {
        XCTAssertEqual(ATRVerdict(atr: ReaderVectors.scmFeliCaATR), .felica(how: "SCM/Identiv form, 04 43 FD", idm: ReaderVectors.idm))
    }

    func testShortOrOddATRsAreUnknownNeverATrap() {
        for atr: [UInt8] in [[], [0x3B], [0x3B, 0x8F], [0x3B, 0x8F, 0x80, 0x01, 0x80, 0x4F], [0x3B, 0x8C, 0x80, 0x01, 0x04, 0x43]] {
            XCTAssertEqual(ATRVerdict(atr: atr), .unknown, HexFormat.string(atr))
        }
    }
}

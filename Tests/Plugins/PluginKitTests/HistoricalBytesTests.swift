@testable import PluginKit
import ReaderABI
import XCTest

/// The "no application data" rule against the public vectors of docs/research/pcsc.md
/// §"Historical bytes": NXP AN10833's DESFire ATS and real cards' ATRs from pcsc-tools'
/// smartcard_list.txt (1.6.2), each as PC/SC Part 3 builds it.
final class HistoricalBytesTests: XCTestCase {
    /// The historical bytes of a contactless card's PC/SC ATR, `3B 8n 80 01 <n bytes> TCK`,
    /// checked whole: its length is what T0 says and its TCK makes T0 … TCK XOR to 0.
    func historical(_ hex: String, file: StaticString = #filePath, line: UInt = #line) -> [UInt8] {
        let atr = hex.split(separator: " ").compactMap { UInt8($0, radix: 16) }
        guard atr.count >= 5, atr[0] == 0x3B, atr[1] & 0xF0 == 0x80, atr[2] == 0x80, atr[3] == 0x01,
              atr.count == 5 + Int(atr[1] & 0x0F), atr.dropFirst().reduce(0, ^) == 0 else {
            XCTFail("not a PC/SC contactless ATR: \(hex)", file: file, line: line)
            return []
        }
        return Array(atr[4 ..< atr.count - 1])
    }

    func testDESFiresATSHasTheOneHistoricalByte80() {
        // AN10833 (and ACS's ACM1281U-C7 manual, "ISO 14443 Part 4 ATR format"): DESFire EV1's ATS
        // 06 75 77 81 02 80: TL 6, T0 75 (TA, TB, TC follow), TA 77, TB 81, TC 02, then 80.
        let ats: [UInt8] = [0x06, 0x75, 0x77, 0x81, 0x02, 0x80]
        XCTAssertEqual(HistoricalBytes.ofATS(ats), [0x80])
        XCTAssertTrue(HistoricalBytes.showNoApplicationData(HistoricalBytes.ofATS(ats)))
        // The same ATS as a Proxmark3 log shows it, with its CRC: TL bounds the historical bytes.
        XCTAssertEqual(HistoricalBytes.ofATS(ats + [0x02, 0xF0]), [0x80])
        // The ATR a PC/SC reader builds from it (the manual's example; the DESFire / Opal line of the list).
        XCTAssertEqual(historical("3B 81 80 01 80 80"), [0x80])
        XCTAssertTrue(HistoricalBytes.showNoApplicationData(historical("3B 81 80 01 80 80")))
    }

    func testAnATSShorterThanItSaysHasNoHistoricalBytesToTell() {
        XCTAssertNil(HistoricalBytes.ofATS([]))
        XCTAssertNil(HistoricalBytes.ofATS([0x06, 0x75, 0x77]), "TL says 6, 3 bytes came")
        XCTAssertNil(HistoricalBytes.ofATS([0x03, 0x75, 0x77]), "T0 announces three interface bytes, TL leaves room for one")
        XCTAssertEqual(HistoricalBytes.ofATS([0x01]), [], "TL alone")
        XCTAssertEqual(HistoricalBytes.ofATS([0x02, 0x05]), [], "T0 announces no interface byte and TL ends there")
        XCTAssertFalse(HistoricalBytes.showNoApplicationData(nil))
        XCTAssertFalse(HistoricalBytes.showNoApplicationData([]), "no historical bytes at all tells nothing")
    }

    /// Every real ATR of the families that use the rule shows application data: none is `80` alone.
    func testRealCardsOfTheFamiliesThatSkipShowApplicationData() {
        let real = [
            // CEPAS, type B (the ATQB's application data, protocol info, MBLI); the last in ACS's form.
            "3B 88 80 01 1C 2D 94 11 F7 71 85 00 BE", "3B 88 80 01 1C 91 26 11 F7 71 85 00 B0",
            "3B 88 80 01 1C F0 E1 11 F7 71 85 00 16", "3B 8C 80 01 50 D5 40 4F 23 1C 00 00 11 77 81 85 DA",
            // KS X 6924: Seoul Citypass+ T-Money (type B), Cashbee, Snapper Sprat.
            "3B 88 80 01 04 02 00 20 00 71 C1 40 DF", "3B 86 80 01 03 02 02 11 00 00 15", "3B 84 80 01 01 11 20 03 36",
            // China city cards: four Beijing cards, Shanghai's, Guangzhou's metro card.
            "3B 82 80 01 42 4A 0B", "3B 82 80 01 47 92 D6", "3B 82 80 01 48 58 13", "3B 82 80 01 86 88 0D",
            "3B 8B 80 01 20 85 00 8B 03 0F E0 9A A0 E0 40 52", "3B 8F 80 01 86 84 43 54 44 4E 40 9F 3E C4 0D 68 28 04 00 7D",
        ]
        for atr in real {
            XCTAssertFalse(HistoricalBytes.showNoApplicationData(historical(atr)), atr)
        }
    }

    /// DESFire cards whose issuer set other historical bytes: the rule only ever rules cards out.
    func testADESFireCardMayShowOtherBytes() {
        for atr in ["3B 8A 80 01 53 45 20 44 45 53 46 69 72 65 57", "3B 83 80 01 81 02 80 01"] {
            XCTAssertFalse(HistoricalBytes.showNoApplicationData(historical(atr)), atr)
        }
    }

    /// HostCardLink reads the release 2 fields only from a table that carries them (TRANSIT_HOST_HAS).
    func testTheHostsFieldsAreReadOnlyWhereItsTableCarriesThem() throws {
        let atr: [UInt8] = [0x3B, 0x81, 0x80, 0x01, 0x80, 0x80], ats: [UInt8] = [0x06, 0x75, 0x77, 0x81, 0x02, 0x80]
        /// A copy of `bytes` the table can point at for the whole test.
        func held(_ bytes: [UInt8]) -> UnsafeMutablePointer<UInt8> {
            let p = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
            p.initialize(from: bytes, count: bytes.count)
            return p
        }
        let atrBytes = held(atr), historicalBytes = held([0x80]), atsBytes = held(ats)
        let table = UnsafeMutablePointer<transit_host_api>.allocate(capacity: 1)
        defer { [atrBytes, historicalBytes, atsBytes].forEach { $0.deallocate() }; table.deallocate() }
        table.initialize(to: transit_host_api())
        table.pointee.atr = UnsafePointer(atrBytes)
        table.pointee.atr_length = atr.count
        table.pointee.historical_bytes = UnsafePointer(historicalBytes)
        table.pointee.historical_bytes_length = 1
        table.pointee.struct_size = UInt32(MemoryLayout<transit_host_api>.size)
        let link = HostCardLink(UnsafePointer(table))
        XCTAssertEqual(link.historicalBytes, [0x80])
        XCTAssertEqual(link.atr, atr)
        XCTAssertThrowsError(try link.skipWhenNoApplicationData("cepas")) { XCTAssertEqual($0 as? PluginError, .notThisCard) }

        // A host of the first release: its table ends before `atr`, and what lies beyond is not read.
        table.pointee.struct_size = UInt32(try XCTUnwrap(MemoryLayout<transit_host_api>.offset(of: \.atr)))
        XCTAssertNil(link.historicalBytes)
        XCTAssertNil(link.atr)
        XCTAssertNoThrow(try link.skipWhenNoApplicationData("cepas"), "nothing known: the plugin probes")

        // A host that gives the ATS and no historical bytes: they are the ATS's.
        table.pointee.struct_size = UInt32(MemoryLayout<transit_host_api>.size)
        table.pointee.historical_bytes = nil
        table.pointee.historical_bytes_length = 0
        table.pointee.ats = UnsafePointer(atsBytes)
        table.pointee.ats_length = ats.count
        XCTAssertEqual(link.historicalBytes, [0x80])
    }
}

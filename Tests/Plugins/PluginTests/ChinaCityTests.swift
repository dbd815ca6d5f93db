import CardSimulation
import TestSupport
import TransitModel
import XCTest

/// China's city cards through the china-city library (expected values from scripts/make_china_samples.py,
/// laid out from NFSee's and Metrodroid's published layouts).
final class ChinaCityTests: XCTestCase {
    /// Commands that change a PBOC purse (INITIALIZE FOR LOAD 80 50, 80 52, 80 54, 80 58).
    static let cardChanging: Set<UInt8> = [0x50, 0x52, 0x54, 0x58]

    /// Reads a sample with china-city alone, recording every command, and checks what every read must hold.
    func read(_ sample: String, budget: Int = 16, file: StaticString = #filePath, line: UInt = #line) throws -> (CardReading, [[UInt8]]) {
        var commands = [[UInt8]]()
        let outcome = try PluginRead.read(CardImages.sample(sample), plugins: [.chinaCity]) { _, command, answer in
            commands.append(command); return answer
        }
        let r = try XCTUnwrap(outcome.reading, "\(String(describing: outcome.error))", file: file, line: line)
        XCTAssertEqual(r.family, "china-city", file: file, line: line)
        XCTAssertFalse(commands.contains { $0.count >= 2 && $0[0] == 0x80 && Self.cardChanging.contains($0[1]) }, "a card-changing command", file: file, line: line)
        // The host's FF CA is answered by the reader and not counted.
        XCTAssertLessThanOrEqual(commands.count - 1, budget, "counted APDUs", file: file, line: line)
        XCTAssertEqual(r.transactions.count, 10, file: file, line: line)
        return (r, commands)
    }

    /// The log every sample holds: record 4 a load of 100.00, the others purchases of 2.00 + 0.10 i.
    func checkLog(_ r: CardReading, newestDay: Int, scale: UInt64 = 1, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(r.transactions[0].type, .purchase, file: file, line: line)
        XCTAssertEqual(r.transactions[0].amount, 200 * scale, file: file, line: line)
        XCTAssertEqual(r.transactions[0].date?.description, "2026-11-\(newestDay)T07:45:00+08:00", "China Standard Time", file: file, line: line)
        XCTAssertEqual(r.transactions[3].type, .topup, file: file, line: line)
        XCTAssertEqual(r.transactions[3].amount, 10000 * scale, file: file, line: line)
        XCTAssertEqual(r.transactions[9].amount, 290 * scale, file: file, line: line)
    }

    func testBeijingIsReadFromTheMFFileBeforeTheDFSelect() throws {
        let (r, commands) = try read("beijing.json")
        XCTAssertEqual(r.cardName, "Beijing Yikatong")
        XCTAssertEqual(r.serialNumber, "1000751512345678")
        XCTAssertEqual(r.balance, 3200)
        XCTAssertEqual(r.currency, "CNY")
        XCTAssertEqual(r.validFrom?.description, "2020-04-10")
        XCTAssertEqual(r.validUntil?.description, "2030-04-10")
        checkLog(r, newestDay: 28)
        let first: [[UInt8]] = [[0x00, 0xB0, 0x84, 0x00, 0x20], [0x00, 0xA4, 0x00, 0x00, 0x02, 0x10, 0x01]]
        XCTAssertEqual(Array(commands.dropFirst().prefix(2)), first)
        XCTAssertEqual(commands.count - 1, 14, "MF read, DF select, balance, ten records, the MF selected again")
        XCTAssertEqual(commands.last, [0x00, 0xA4, 0x00, 0x00, 0x02, 0x3F, 0x00], "the read leaves the MF current, as it found it")
    }

    func testABeijingCardLeftOnTheReaderReadsAgain() throws {
        // A second read of the card still in the field: the first left DF 1001 current until it
        // selected the MF again (ISO/IEC 7816-4, 5.3.1), and the MF file SFI 04 must still answer.
        let outcome = try PluginRead.read(CardImages.sample("beijing.json"), plugins: [.chinaCity], readsBefore: 1)
        let r = try XCTUnwrap(outcome.reading, "\(String(describing: outcome.error))")
        XCTAssertEqual(r.cardName, "Beijing Yikatong")
        XCTAssertEqual(r.serialNumber, "1000751512345678")
        XCTAssertEqual(r.balance, 3200)
    }

    func testABeijingReadThatFailsMidwayStillLeavesTheMFCurrent() throws {
        // The first read's second log record is refused (6F00: no precise diagnosis), after DF 1001
        // was selected; the MF is selected again all the same, so the next read finds the card.
        // Exchanges of the first read: 0 FF CA, 1 MF file, 2 DF 1001, 3 balance, 4… the log.
        let outcome = try PluginRead.read(CardImages.sample("beijing.json"), plugins: [.chinaCity],
                                          fault: { index, _, answer in index == 5 ? [0x6F, 0x00] : answer }, readsBefore: 1)
        let r = try XCTUnwrap(outcome.reading, "\(String(describing: outcome.error))")
        XCTAssertEqual(r.serialNumber, "1000751512345678")
        XCTAssertEqual(r.balance, 3200)
    }

    func testShenzhenTongSerialIsLittleEndianWithItsCheckDigit() throws {
        let (r, commands) = try read("shenzhen.json")
        XCTAssertEqual(r.cardName, "Shenzhen Tong")
        // 295176543: digit sum 42, check digit 8.
        XCTAssertEqual(r.serialNumber, "295176543(8)")
        XCTAssertEqual(r.balance, 4560, "top bit not part of the amount")
        XCTAssertEqual(r.validUntil?.description, "2029-06-01")
        checkLog(r, newestDay: 27)
        XCTAssertEqual(commands.count - 1, 1 + 1 + 1 + 1 + 10)
    }

    func testShanghaiIsCityUnionCode2000WithABigEndianSerial() throws {
        let (r, _) = try read("shanghai.json")
        XCTAssertEqual(r.cardName, "Shanghai Public Transportation Card")
        XCTAssertEqual(r.serialNumber, "2105123456")
        XCTAssertEqual(r.metadata["cityCode"], "2000")
        XCTAssertEqual(r.balance, 1850)
        XCTAssertEqual(r.validFrom?.description, "2018-03-01")
        checkLog(r, newestDay: 26)
    }

    func testOtherCityUnionCardsAreNamedCityUnionWithTheirCodeAndALittleEndianSerial() throws {
        var image = try CardImages.sample("shanghai.json")
        // City code 3100 (Tianjin in NFSee's table), the same serial bytes read little-endian.
        image.editApplication(select: "00A4040009A0000000038698070100") {
            $0.binaries?["15"] = "0000" + "3100" + String(repeating: "00", count: 12) + "7D79F380" + "2018030120380301" + "0000"
        }
        let r = try XCTUnwrap(PluginRead.read(image, plugins: [.chinaCity]).reading)
        XCTAssertEqual(r.cardName, "City Union")
        XCTAssertEqual(r.metadata["cityCode"], "3100")
        XCTAssertEqual(r.serialNumber, String(0x80F3_797D))
    }

    func testWuhanTong() throws {
        // Fifth in the probe order: four probes, then 13 (see the report's budget note).
        let (r, _) = try read("wuhan.json", budget: 17)
        XCTAssertEqual(r.cardName, "Wuhan Tong")
        XCTAssertEqual(r.serialNumber, "3101234567890123")
        XCTAssertEqual(r.balance, 725)
        XCTAssertEqual(r.validUntil?.description, "2031-09-09")
        checkLog(r, newestDay: 25)
    }

    func testLingnanPassReadsItsPurseUnderPAYTICL() throws {
        let (r, commands) = try read("lingnan.json")
        XCTAssertEqual(r.cardName, "Lingnan Pass")
        XCTAssertEqual(r.serialNumber, "5101234567")
        XCTAssertEqual(r.balance, 6600)
        XCTAssertNil(r.validUntil)
        checkLog(r, newestDay: 24)
        let selectPurse: [UInt8] = [0x00, 0xA4, 0x04, 0x00, 0x08] + Array("PAY.TICL".utf8) + [0x00]
        XCTAssertTrue(commands.contains(selectPurse))
    }

    func testMacauPassHasItsOwnBalanceRuleInPataca() throws {
        // Last in the probe order (the fewest users): five probes, then 13.
        let (r, _) = try read("macau.json", budget: 18)
        XCTAssertEqual(r.cardName, "Macau Pass")
        XCTAssertEqual(r.serialNumber, "1234567890")
        XCTAssertEqual(r.currency, "MOP")
        XCTAssertEqual(r.balance, 8550, "raw 955 × 10 − 1000")
        XCTAssertEqual(r.validFrom?.description, "2022-01-01")
        checkLog(r, newestDay: 23, scale: 10)
    }

    func testEveryCityCardIsFoundInTheDefaultOrder() throws {
        for sample in ["beijing.json", "shenzhen.json", "shanghai.json", "wuhan.json", "lingnan.json", "macau.json"] {
            let outcome = try PluginRead.read(CardImages.sample(sample), plugins: PluginRead.Plugin.defaultOrder)
            XCTAssertEqual(outcome.reading?.family, "china-city", "\(sample): \(String(describing: outcome.error))")
        }
    }

    func testACardAnsweringTheTUnionAIDIsReadAsTUnionEvenWithACityAID() throws {
        var image = try CardImages.sample("tunion.json")
        let shenzhen = try CardImages.sample("shenzhen.json")
        image.iso7816?.applications += shenzhen.iso7816?.applications ?? []
        let outcome = try PluginRead.read(image, plugins: PluginRead.Plugin.defaultOrder)
        XCTAssertEqual(outcome.reading?.family, "tunion")
        XCTAssertEqual(outcome.reading?.serialNumber, "03104512345678901234")
    }

    func testOtherISOCardsAreNotThisCard() throws {
        let outcome = try PluginRead.read(CardImages.sample("unknown-iso.json"), plugins: [.chinaCity])
        XCTAssertEqual(outcome.error?.kind, .tagNotSupported)
    }
}

import CardSimulation
import TestSupport
import XCTest

/// Opal through the desfire library (expected values laid out in scripts/make_desfire_samples.py).
final class OpalTests: XCTestCase {
    func testOpalFile7GivesTheSerialWithItsCheckDigitBalanceAndLastTapInSydneyTime() throws {
        let read = try DESFireReading.read(CardImages.sample("opal.json"))
        let r = read.reading
        XCTAssertEqual(r.family, "opal")
        XCTAssertEqual(r.cardName, "Opal")
        XCTAssertEqual(r.serialNumber, "3085 2200 7654 3219", "3085 2200, then serial 7654321 and check digit 9")
        XCTAssertEqual(r.balance, 1234)
        XCTAssertEqual(r.currency, "AUD")
        XCTAssertEqual(r.metadata["weeklyJourneys"], "3")
        XCTAssertEqual(r.transactions.count, 1)
        XCTAssertEqual(r.transactions[0].date?.description, "2026-11-20T08:15:00+11:00", "summer time (AEDT) in November")
        XCTAssertEqual(r.transactions[0].type, .trip)
        XCTAssertEqual(r.transactions[0].metadata["mode"], "rail")
        // Get Application IDs, select, read file 7.
        XCTAssertEqual(read.counted, 3)
        XCTAssertLessThanOrEqual(read.counted, 4)
    }

    func testANegativeBalanceIsSigned() throws {
        var image = try CardImages.sample("opal.json")
        // Balance bits 54–74 of the reversed file set to −250 (21-bit two's complement 0x1FFF06):
        // rewritten from the sample's own fields by editing the reversed big-endian value.
        var file = try XCTUnwrap(HexText.decode(image.iso7816?.desfire?.applications[0].files[0].data ?? ""))
        var value = file.reversed().reduce([UInt8]()) { $0 + [$1] }
        var n = value.reduce(0 as UInt128) { $0 << 8 | UInt128($1) }
        let mask: UInt128 = ((1 << 21) - 1) << (128 - 54 - 21)
        n = n & ~mask | (UInt128(0x1F_FF06) << (128 - 54 - 21))
        value = (0 ..< 16).map { UInt8(truncatingIfNeeded: n >> (8 * (15 - $0))) }
        file = value.reversed()
        image.iso7816?.desfire?.applications[0].files[0].data = file.map { String(format: "%02X", $0) }.joined()
        XCTAssertEqual(try DESFireReading.read(image).reading.balance, -250)
    }

    func testOtherISOCardsAreNotThisCardAfterOneCommand() throws {
        var commands = 0
        let outcome = try PluginRead.read(CardImages.sample("tunion.json"), plugins: [.desfire]) { _, c, a in commands += 1; return a }
        XCTAssertEqual(outcome.error?.kind, .tagNotSupported)
        XCTAssertEqual(commands - 1, 1, "one Get Application IDs, answered with an ISO status word")
    }

    func testADESFireCardWithoutATransitApplicationIsNotThisCard() throws {
        var image = try CardImages.sample("opal.json")
        image.iso7816?.desfire?.applications[0].aid = "112233"
        XCTAssertEqual(try PluginRead.read(image, plugins: [.desfire]).error?.kind, .tagNotSupported)
    }

    func testTheDefaultOrderFindsOpal() throws {
        let outcome = try PluginRead.read(CardImages.sample("opal.json"), plugins: PluginRead.Plugin.defaultOrder)
        XCTAssertEqual(outcome.reading?.family, "opal", "\(String(describing: outcome.error))")
    }
}

/// Hex of image fields, for edits.
enum HexText {
    static func decode(_ s: String) -> [UInt8]? {
        var out = [UInt8](), chars = Array(s.utf8)
        guard chars.count % 2 == 0 else { return nil }
        while !chars.isEmpty {
            guard let b = UInt8(String(decoding: chars.prefix(2), as: UTF8.self), radix: 16) else { return nil }
            out.append(b); chars.removeFirst(2)
        }
        return out
    }
}

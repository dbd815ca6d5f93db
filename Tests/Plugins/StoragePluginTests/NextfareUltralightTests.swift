import CardSimulation
import TestSupport
import XCTest

/// Compass and Ventra tickets through the nextfare-ul library (expected values worked by hand in
/// scripts/make_ultralight_samples.py, from Metrodroid's nextfareul / yvr_compass / ventra layouts).
final class NextfareUltralightTests: XCTestCase {
    func read(_ image: CardImage) throws -> PluginRead.Outcome { try PluginRead.read(image, plugins: [.nextfareUltralight]) }

    func testCompassTicketGivesItsNumberBalanceExpiryAndTapsInVancouverTime() throws {
        let outcome = try read(CardImages.sample("compass.json"))
        let r = try XCTUnwrap(outcome.reading, "\(String(describing: outcome.error))")
        XCTAssertEqual(r.family, "compass")
        XCTAssertEqual(r.cardName, "Compass Ticket")
        // UID bytes 1–6 = 0x123456789ABC = 20 015 998 343 868; + 10^15, Luhn digit 1, 20 digits.
        XCTAssertEqual(r.serialNumber, "0001 0200 1599 8343 8681")
        // The newer record (sequence 6, pages 12–15) holds 3.00 CAD and expiry −1 day back from 2026-11-20.
        XCTAssertEqual(r.balance, 300)
        XCTAssertEqual(r.currency, "CAD")
        XCTAssertEqual(r.validUntil?.description, "2026-11-21")
        XCTAssertEqual(r.metadata["product"], "One Zone", "product 02")
        XCTAssertEqual(r.metadata["ticketType"], "regular", "type 04")
        XCTAssertEqual(r.metadata["machineCode"], "1234", "page 7 bytes 34 12, little-endian")
        XCTAssertEqual(r.transactions.count, 2)
        let tapOn = r.transactions[0]
        XCTAssertEqual(tapOn.type, .trip)
        XCTAssertEqual(tapOn.date?.description, "2026-11-20T08:17:00-08:00", "497 minutes after midnight, PST in late November")
        XCTAssertEqual(tapOn.entryStation, "1234")
        XCTAssertNil(tapOn.exitStation)
        XCTAssertEqual(tapOn.metadata["tap"], "on", "record type 2")
        XCTAssertEqual(tapOn.metadata["mode"], "train", "route 9")
        XCTAssertEqual(tapOn.balance, 300)
        let sale = r.transactions[1]
        XCTAssertEqual(sale.type, .purchase, "route 0: a ticket machine")
        XCTAssertEqual(sale.date?.description, "2026-11-20T08:05:00-08:00")
        XCTAssertEqual(sale.balance, 400)
        XCTAssertNil(sale.entryStation, "location 0")
    }

    func testVentraTicketOrdersWrappedSequenceNumbersAndMakesOneJourneyOfATapOnAndItsTapOff() throws {
        let outcome = try read(CardImages.sample("ventra.json"))
        let r = try XCTUnwrap(outcome.reading, "\(String(describing: outcome.error))")
        XCTAssertEqual(r.family, "ventra")
        XCTAssertEqual(r.cardName, "Ventra Ticket")
        XCTAssertEqual(r.serialNumber, "0001 0000 0000 0000 0421", "UID bytes 1–6 = 42; 10^15 + 42, Luhn digit 1")
        // Sequence 0 (pages 8–11) is newer than 127 (pages 12–15): (0 − 127) mod 128 = 1.
        XCTAssertEqual(r.balance, 200)
        XCTAssertEqual(r.currency, "USD")
        XCTAssertEqual(r.validUntil?.description, "2026-04-09", "expiry byte E2 = −30 days back from 2026-03-10")
        XCTAssertEqual(r.metadata["ticketType"], "concession", "type 08")
        XCTAssertEqual(r.metadata["product"], "05", "no Ventra product names are known")
        // Tap on (type 2, sequence 127) then tap off (type 6, sequence 0), same route 14: one journey.
        XCTAssertEqual(r.transactions.count, 1)
        let journey = r.transactions[0]
        XCTAssertEqual(journey.type, .trip)
        XCTAssertEqual(journey.date?.description, "2026-03-10T07:10:00-05:00", "430 minutes; CDT: summer time began 2026-03-08")
        XCTAssertEqual(journey.entryStation, "567")
        XCTAssertEqual(journey.exitStation, "89")
        XCTAssertEqual(journey.metadata["tapOff"], "2026-03-10T07:45:00-05:00")
        XCTAssertEqual(journey.balance, 200)
    }

    func testVentraDatesBeforeTheSecondSundayOfMarchAreCentralStandardTime() throws {
        var image = try CardImages.sample("ventra.json")
        image.mifareUltralight?.pages[4] = "0A080067" // base date 0x3467: (26 << 9) | (3 << 5) | 7 = 2026-03-07
        let r = try XCTUnwrap(try read(image).reading)
        XCTAssertEqual(r.transactions.first?.date?.description, "2026-03-07T07:10:00-06:00")
        XCTAssertEqual(r.validUntil?.description, "2026-04-06", "2026-03-07 + 30 days")
    }

    func testPage5Byte2Bit7TellsCompassFromVentra() throws {
        var image = try CardImages.sample("compass.json")
        image.mifareUltralight?.pages[5] = "35010200" // product 02 with bit 7 clear
        let r = try XCTUnwrap(try read(image).reading)
        XCTAssertEqual(r.family, "ventra")
        XCTAssertEqual(r.currency, "USD")
        XCTAssertEqual(r.metadata["product"], "02")
    }

    func testOtherUltralightTicketsAreNotThisCard() throws {
        XCTAssertEqual(try read(CardImages.sample("hsl-ul.json")).error?.kind, .tagNotSupported)
        var image = try CardImages.sample("compass.json")
        image.mifareUltralight?.pages[4] = "0A0C0074" // header 0A 0C 00: neither 0A 04 00 nor 0A 08 00
        XCTAssertEqual(try read(image).error?.kind, .tagNotSupported)
        image = try CardImages.sample("compass.json")
        image.mifareUltralight?.pages[6] = "00000100" // page 6 bytes 0–2 must be zero
        XCTAssertEqual(try read(image).error?.kind, .tagNotSupported)
    }

    func testATicketWithoutRecordsHasNoTripsAndNoExpiry() throws {
        var image = try CardImages.sample("compass.json")
        for page in 8 ..< 16 { image.mifareUltralight?.pages[page] = "00000000" }
        let r = try XCTUnwrap(try read(image).reading)
        XCTAssertEqual(r.transactions.count, 0)
        XCTAssertEqual(r.balance, 0, "Metrodroid's reading: no record, no value")
        XCTAssertNil(r.validUntil)
    }

    func testACardThatEndsBeforeItsRecordsIsAnErrorNotATrap() throws {
        var image = try CardImages.sample("compass.json")
        let firstEight = Array(try XCTUnwrap(image.mifareUltralight?.pages).prefix(8))
        image.mifareUltralight?.pages = firstEight
        let outcome = try read(image)
        XCTAssertNil(outcome.reading)
        XCTAssertNotNil(outcome.error)
    }

    func testATicketCostsThreePageReadsAndAnotherTicketOne() throws {
        var commands = [String]()
        _ = try PluginRead.read(CardImages.sample("compass.json"), plugins: [.nextfareUltralight]) { _, c, a in
            commands.append(c.map { String(format: "%02X", $0) }.joined()); return a
        }
        // The host's UID request, then Read Binary of 16 bytes (four pages) at pages 4, 8 and 12.
        XCTAssertEqual(commands, ["FFCA000000", "FFB0000410", "FFB0000810", "FFB0000C10"])
        commands = []
        _ = try PluginRead.read(CardImages.sample("hsl-ul.json"), plugins: [.nextfareUltralight]) { _, c, a in
            commands.append(c.map { String(format: "%02X", $0) }.joined()); return a
        }
        XCTAssertEqual(commands, ["FFCA000000", "FFB0000410"], "pages 4–7 tell it is not a Nextfare ticket")
    }

    func testTheDefaultOrderFindsEachUltralightTicket() throws {
        for (sample, family) in [("compass.json", "compass"), ("ventra.json", "ventra"), ("hsl-ul.json", "hsl")] {
            let outcome = try PluginRead.read(CardImages.sample(sample), plugins: PluginRead.Plugin.defaultOrder)
            XCTAssertEqual(outcome.reading?.family, family, "\(sample): \(String(describing: outcome.error))")
        }
    }
}


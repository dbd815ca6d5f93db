import CardSimulation
import TestSupport
import XCTest

/// HSL Ultralight tickets through the hsl-ul library (expected values worked by hand in
/// scripts/make_ultralight_samples.py, from Metrodroid's HSLUltralightTransitData / HSLArvo layouts).
final class HSLUltralightTests: XCTestCase {
    func read(_ image: CardImage) throws -> PluginRead.Outcome { try PluginRead.read(image, plugins: [.hslUltralight]) }

    func testHSLTicketGivesItsNumberETicketAndLastValidationInHelsinkiTime() throws {
        let outcome = try read(CardImages.sample("hsl-ul.json"))
        let r = try XCTUnwrap(outcome.reading, "\(String(describing: outcome.error))")
        XCTAssertEqual(r.family, "hsl")
        XCTAssertEqual(r.cardName, "HSL Ultralight")
        // Bytes 1–5 "9246210012", (A1B2C3 XOR D4E5F6) AND 7FFFFF = 7690037, page 5 bits 16–19 = 4.
        XCTAssertEqual(r.serialNumber, "924621 0012 7690 0374")
        XCTAssertNil(r.balance, "a ticket, not a purse")
        XCTAssertEqual(r.currency, "EUR")
        XCTAssertEqual(r.metadata["applicationVersion"], "2")
        XCTAssertEqual(r.passes.count, 1)
        let ticket = try XCTUnwrap(r.passes.first)
        XCTAssertEqual(ticket.name, "eTicket for zones AB", "area type 2, from 0 (A) to 1 (B)")
        XCTAssertEqual(ticket.tariff, "17")
        XCTAssertEqual(ticket.zones, "AB")
        XCTAssertEqual(ticket.validFrom?.description, "2026-11-20T14:32:00+02:00", "EET in November")
        XCTAssertEqual(ticket.validUntil?.description, "2026-11-20T15:52:00+02:00")
        XCTAssertEqual(ticket.metadata["price"], "2.95")
        XCTAssertEqual(ticket.metadata["period"], "80 min")
        XCTAssertEqual(ticket.metadata["language"], "Finnish")
        XCTAssertEqual(ticket.metadata["profile"], "adult")
        XCTAssertEqual(ticket.metadata["saleDate"], "2026-11-20")
        XCTAssertEqual(ticket.metadata["saleHour"], "14")
        XCTAssertEqual(r.transactions.count, 1)
        let validation = r.transactions[0]
        XCTAssertEqual(validation.type, .trip)
        XCTAssertEqual(validation.date?.description, "2026-11-20T14:32:00+02:00")
        XCTAssertEqual(validation.metadata["mode"], "metro", "location 1300")
        XCTAssertEqual(validation.metadata["route"], "300")
        XCTAssertEqual(validation.metadata["vehicle"], "1234")
        XCTAssertEqual(validation.metadata["area"], "zone B", "area type 2, value 1: the zone is bits 0–2")
    }

    func testCity1IsATampereTicket() throws {
        var image = try CardImages.sample("hsl-ul.json")
        let page5 = try XCTUnwrap(image.mifareUltralight?.pages[5])
        image.mifareUltralight?.pages[5] = "01" + page5.dropFirst(2) // city byte 00 → 01
        let r = try XCTUnwrap(try read(image).reading)
        XCTAssertEqual(r.cardName, "Tampere Ultralight")
        XCTAssertEqual(r.serialNumber, "924621 0112 7690 0374", "the city byte is part of the number")
        XCTAssertEqual(r.passes.first?.zones, "AB", "area type 2 reads alike in Tampere")
    }

    func testAnEmptyETicketGivesNoPassAndNoTrip() throws {
        var image = try CardImages.sample("hsl-ul.json")
        image.mifareUltralight?.pages[5] = "00124500"
        for page in 6 ..< 16 { image.mifareUltralight?.pages[page] = "00000000" }
        let r = try XCTUnwrap(try read(image).reading)
        XCTAssertEqual(r.serialNumber, "924621 0012 7690 0374")
        XCTAssertEqual(r.passes.count, 0)
        XCTAssertEqual(r.transactions.count, 0)
    }

    func testOtherUltralightTicketsAreNotThisCard() throws {
        XCTAssertEqual(try read(CardImages.sample("compass.json")).error?.kind, .tagNotSupported)
        var image = try CardImages.sample("hsl-ul.json")
        image.mifareUltralight?.pages[4] = "33924621" // version 3: neither 1 nor 2
        XCTAssertEqual(try read(image).error?.kind, .tagNotSupported)
        image = try CardImages.sample("hsl-ul.json")
        image.mifareUltralight?.pages[4] = "23924622"
        XCTAssertEqual(try read(image).error?.kind, .tagNotSupported)
    }

    func testATicketCostsThreePageReadsAndAnotherTicketOne() throws {
        var commands = [String]()
        _ = try PluginRead.read(CardImages.sample("hsl-ul.json"), plugins: [.hslUltralight]) { _, c, a in
            commands.append(c.map { String(format: "%02X", $0) }.joined()); return a
        }
        // The host's UID request, then Read Binary of 16 bytes (four pages) at pages 4, 8 and 12.
        XCTAssertEqual(commands, ["FFCA000000", "FFB0000410", "FFB0000810", "FFB0000C10"])
        commands = []
        _ = try PluginRead.read(CardImages.sample("ventra.json"), plugins: [.hslUltralight]) { _, c, a in
            commands.append(c.map { String(format: "%02X", $0) }.joined()); return a
        }
        XCTAssertEqual(commands, ["FFCA000000", "FFB0000410"], "page 4 tells it is not an HSL ticket")
    }
}


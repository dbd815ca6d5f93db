import CardSimulation
import TestSupport
import XCTest

/// Clipper through the desfire library (expected values laid out in scripts/make_desfire_samples.py).
final class ClipperTests: XCTestCase {
    func testClipperSerialBalanceRefillsAndTripsInLosAngelesTime() throws {
        let read = try DESFireReading.read(CardImages.sample("clipper.json"))
        let r = read.reading
        XCTAssertEqual(r.family, "clipper")
        XCTAssertEqual(r.serialNumber, "1234567890")
        XCTAssertEqual(r.balance, 2550)
        XCTAssertEqual(r.currency, "USD")
        XCTAssertEqual(r.validUntil?.description, "2030-12-31")
        XCTAssertEqual(r.transactions.count, 4)
        // Newest first: the BART trip of 2026-11-20 16:30 UTC, 08:30 PST.
        XCTAssertEqual(r.transactions[0].type, .trip)
        XCTAssertEqual(r.transactions[0].amount, 245)
        XCTAssertEqual(r.transactions[0].date?.description, "2026-11-20T08:30:00-08:00")
        // The refills either side of the end of summer time, 2026-11-01 09:00 UTC.
        XCTAssertEqual(r.transactions[1].type, .topup)
        XCTAssertEqual(r.transactions[1].amount, 500)
        XCTAssertEqual(r.transactions[1].date?.description, "2026-11-01T01:30:00-08:00")
        XCTAssertEqual(r.transactions[2].amount, 2000)
        XCTAssertEqual(r.transactions[2].date?.description, "2026-11-01T01:30:00-07:00")
        XCTAssertEqual(r.transactions[3].date?.description, "2026-07-04T12:00:00-07:00")
        XCTAssertEqual(r.transactions[3].amount, 275)
        // Get Application IDs, select, files 8, 2, 1 (one frame each); file 4, a record file: its
        // settings, Read Records (64 bytes: 2 frames of 59); 0E (512 bytes: 9 frames).
        XCTAssertEqual(read.counted, 1 + 1 + 3 + (1 + 2) + 9)
        XCTAssertLessThanOrEqual(read.counted, 18)
    }

    func testALockedRefillFileIsAbsentNotAnError() throws {
        var image = try CardImages.sample("clipper.json")
        image.iso7816?.desfire?.applications[0].files[2].access = "3131" // read key 3: 91 AE
        let r = try DESFireReading.read(image).reading
        XCTAssertEqual(r.balance, 2550)
        XCTAssertEqual(r.transactions.filter { $0.type == .topup }.count, 0)
        XCTAssertEqual(r.transactions.count, 2)
    }

    func testARefillFileKeptAsAStandardFileIsReadAsRecordsToo() throws {
        // Clipper's older layout (Metrodroid ClipperTest builds file 4 as plain data): 32-byte
        // records back to back in a standard file, read with Read Data alone.
        var image = try CardImages.sample("clipper.json")
        let refills = try XCTUnwrap(image.iso7816?.desfire?.applications[0].files[2].records)
        image.iso7816?.desfire?.applications[0].files[2] = .init(id: "04", type: "standard", access: "30E2", data: refills.joined())
        let r = try DESFireReading.read(image).reading
        XCTAssertEqual(r.transactions.filter { $0.type == .topup }.map(\.amount), [500, 2000], "newest first by time")
    }

    func testATripFileKeptAsARecordFileIsReadByItsSettingsAfterReadDataIsRefused() throws {
        // Read Data of a record file answers 91 7E (issue 43); the plugin then reads it as its
        // settings say. The two trips are the sample's (BART 2.45 on 2026-11-20, Muni 2.75 on 07-04).
        var image = try CardImages.sample("clipper.json")
        let data = try XCTUnwrap(image.iso7816?.desfire?.applications[0].files[4].data)
        let trips = stride(from: 0, to: 128, by: 64).map { String(data.dropFirst($0).prefix(64)) }
        image.iso7816?.desfire?.applications[0].files[4] = .init(id: "0E", type: "cyclic-record", access: "32E4", recordSize: 32,
                                                                 maxRecords: 16, records: trips)
        let read = try DESFireReading.read(image)
        XCTAssertEqual(read.reading.transactions.filter { $0.type == .trip }.map(\.amount), [245, 275])
        XCTAssertEqual(read.reading.transactions.first?.date?.description, "2026-11-20T08:30:00-08:00")
        XCTAssertTrue(read.commands.contains([0x90, 0xF5, 0x00, 0x00, 0x01, 0x0E, 0x00]), "the settings of file 0E asked")
    }

    func testAShortExpiryFileIsNoExpiryAndAShortPurseIsMalformed() throws {
        // A standard file shorter than the layout: malformedResponse only when a needed field is missing.
        var image = try CardImages.sample("clipper.json")
        image.iso7816?.desfire?.applications[0].files[0].data = "0000"
        let r = try DESFireReading.read(image).reading
        XCTAssertNil(r.validUntil)
        XCTAssertEqual(r.balance, 2550)
        image.iso7816?.desfire?.applications[0].files[1].data = String(repeating: "00", count: 19)
        let outcome = try PluginRead.read(image, plugins: [.desfire])
        XCTAssertNil(outcome.reading)
        XCTAssertEqual(outcome.error?.kind, .malformedResponse)
    }
}

import CardSimulation
import TestSupport
import XCTest

/// Cards laid out from a published dump's format (scripts/make_calypso_samples.py and
/// make_desfire_samples.py write them into Tests/Fixtures/crosscheck from the layouts, never copying
/// a peer's asset), read through the plugins, and checked against what a peer documents it shows for
/// such a card (issue 43, item 3). Each expected value cites the peer's test or issue it comes from.
final class CrossCheckTests: XCTestCase {
    func image(_ name: String) throws -> CardImage {
        try CardImage.load(BuildProducts.packageRoot.appendingPathComponent("Tests/Fixtures/crosscheck/\(name)").path)
    }

    func testMOBIBPrintsTheNumberMetrodroidPrintsForABlankCard() throws {
        let r = try XCTUnwrap(PluginRead.read(image("mobib-blank-metrodroid.json"), plugins: [.calypso]).reading)
        XCTAssertEqual(r.cardName, "MOBIB")
        // Metrodroid src/commonTest/assets/parsed/mobib_blank.json: "serialNumber":"639653 / 005644645999 / 9",
        // "Expiry date" 2038-02-04.
        XCTAssertEqual(r.serialNumber, "639653 / 005644645999 / 9")
        XCTAssertEqual(r.validUntil?.description, "2038-02-04")
        XCTAssertEqual(r.metadata["network"], "056001", "Metrodroid: Network ID 56001")
    }

    func testNavigoShowsItsMonthlyPassAndTheCarnetsTripsLeft() throws {
        let r = try XCTUnwrap(PluginRead.read(image("navigo-848.json"), plugins: [.calypso]).reading)
        XCTAssertEqual(r.cardName, "Navigo")
        XCTAssertEqual(r.passes.count, 2, "the contract list's count: 2")
        let monthly = r.passes[0], carnet = r.passes[1]
        XCTAssertEqual(monthly.validFrom?.description, "2026-03-01")
        XCTAssertEqual(monthly.validUntil?.description, "2026-03-31")
        XCTAssertEqual(monthly.zones, "1-5")
        XCTAssertNil(monthly.remainingTrips)
        XCTAssertEqual(carnet.validFrom?.description, "2026-02-14")
        // Metrodroid issue #848 (a Navigo Easy carnet of 10): the counter read 2359476, the holder
        // expected "remaining 9 on 10"; fixed in Metrodroid by reading the bits above 18.
        XCTAssertEqual(carnet.remainingTrips, 9)
        XCTAssertEqual(r.transactions.first?.date?.description, "2026-03-02T08:15:00+01:00")
    }

    func testClipperWithItsRefillsInARecordFileReadsAsMetrodroidShowsIt() throws {
        let r = try DESFireReading.read(image("clipper-metrodroid.json")).reading
        // Metrodroid ClipperTest.testDemoCard: serial 572691763, balance USD 305.83, trips[0] the BART
        // trip (fare 6.30, 1521320320000 ms), trips[1] the refill (5000, 1520009600000 ms, machine 78123456).
        XCTAssertEqual(r.serialNumber, "572691763")
        XCTAssertEqual(r.balance, 30583)
        XCTAssertNil(r.validUntil, "no expiry file in the peer's card")
        XCTAssertEqual(r.transactions.map(\.type), [.trip, .topup])
        XCTAssertEqual(r.transactions[0].amount, 630)
        XCTAssertEqual(r.transactions[0].date?.description, "2018-03-17T13:58:40-07:00", "1521320320 s = 20:58:40 UTC, PDT")
        XCTAssertEqual(r.transactions[0].entryStation, "0008", "Powell Street's code")
        XCTAssertEqual(r.transactions[0].exitStation, "0027", "Dublin / Pleasanton's code")
        XCTAssertEqual(r.transactions[1].amount, 5000)
        XCTAssertEqual(r.transactions[1].date?.description, "2018-03-02T08:53:20-08:00", "1520009600 s = 16:53:20 UTC, PST")
        XCTAssertEqual(r.transactions[1].metadata["machine"], "78123456")
    }

    func testORCAWithAnEmptyTopUpFileReadsAsMetrodroidShowsIt() throws {
        let r = try DESFireReading.read(image("orca-metrodroid.json")).reading
        // Metrodroid OrcaTest.testDemoCard: serial 12030625, balance USD 234.32, five trips newest
        // first at 1514843334 + 256, +0, -256, -512, -768 s with fares 534, 289, 179, 178, 177; the
        // first two buses 30246 and 30262.
        XCTAssertEqual(r.serialNumber, "12030625")
        XCTAssertEqual(r.balance, 23432)
        XCTAssertEqual(r.transactions.map(\.amount), [534, 289, 179, 178, 177])
        XCTAssertEqual(r.transactions.map(\.type), [.trip, .trip, .trip, .trip, .trip], "the empty top-up file holds none")
        // 1514843590 s = 2018-01-01T21:53:10Z, 13:53:10 PST.
        XCTAssertEqual(r.transactions[0].date?.description, "2018-01-01T13:53:10-08:00")
        XCTAssertEqual(r.transactions[4].date?.description, "2018-01-01T13:36:06-08:00", "768 s earlier")
        XCTAssertEqual(r.transactions[0].entryStation, "30246")
        XCTAssertEqual(r.transactions[1].entryStation, "30262")
    }

    func testHSLShowsTheLastLoadBesideItsTripNewestFirstAsMetrodroidDoes() throws {
        let r = try DESFireReading.read(image("hsl-metrodroid.json")).reading
        // Metrodroid src/commonTest/assets/parsed/hslv2.json: serial "924620 0011 2345 6789", balance
        // EUR 0.40; trips: the value ticket (fare 460, 1559854260000 ms) then the "Balance refill"
        // (500, 1559853060000 ms); the period pass for zones BC, days 18056–18086 (2019-06-09..07-09).
        XCTAssertEqual(r.serialNumber, "924620 0011 2345 6789")
        XCTAssertEqual(r.balance, 40)
        XCTAssertEqual(r.transactions.map(\.type), [.trip, .topup])
        XCTAssertEqual(r.transactions[0].amount, 460)
        XCTAssertEqual(r.transactions[0].date?.description, "2019-06-06T23:51:00+03:00", "1559854260 s in EEST")
        XCTAssertEqual(r.transactions[0].balance, 40)
        XCTAssertEqual(r.transactions[1].amount, 500)
        XCTAssertEqual(r.transactions[1].date?.description, "2019-06-06T23:31:00+03:00", "1559853060 s in EEST")
        XCTAssertEqual(r.passes.first?.zones, "BC")
        XCTAssertEqual(r.passes.first?.validFrom?.description, "2019-06-09")
        XCTAssertEqual(r.passes.first?.validUntil?.description, "2019-07-09")
    }
}

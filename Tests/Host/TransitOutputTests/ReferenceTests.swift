import Foundation
import TestSupport
import XCTest
import CardProtocol
import TransitModel
import TransitFiles
import TransitStations
import TransitArchive
import TransitOutput

final class ReferenceTests: XCTestCase {
    func trip(_ date: String, _ amount: UInt64) -> CardReading.TransactionRecord {
        .init(type: .trip, amount: amount, date: TestSupport.date(date), entryStation: nil, exitStation: nil, metadata: [:], rawType: nil, rawPayload: nil)
    }

    func reading(_ t: [CardReading.TransactionRecord]) -> CardReading {
        CardReading(family: "x", cardName: nil, serialNumber: "1", balance: 100, currency: "JPY", validFrom: nil, validUntil: nil,
                    metadata: [:], transactions: t)
    }

    func testEachJourneyNeedsATransactionOfItsOwnAndDatesMatchWhole() {
        let twice = Reference(balance: 100, currency: nil, journeys: [.init(date: "2026-01-02", amount: 160), .init(date: "2026-01-02", amount: 160)])
        XCTAssertEqual(twice.mismatches(reading([trip("2026-01-02", 160)])).count, 1, "one trip cannot stand for two journeys")
        XCTAssertEqual(twice.mismatches(reading([trip("2026-01-02", 160), trip("2026-01-02", 160)])), [])
        let partial = Reference(balance: 100, currency: nil, journeys: [.init(date: "2026-01", amount: 160), .init(date: "2026-01-02")])
        XCTAssertEqual(partial.mismatches(reading([trip("2026-01-02", 160), trip("2026-01-02", 100)])).count, 1,
                       "a partial date matches nothing")
    }

    func testFewerThanTwoJourneysIsNeverFullyVerified() {
        let one = Reference(balance: 100, currency: nil, journeys: [.init(date: "2026-01-02")])
        XCTAssertEqual(one.mismatches(reading([trip("2026-01-02", 160)])),
                       ["the reference lists 1 journey; full verification needs 2"])
    }

    func refusal(_ json: String) -> String? {
        do { _ = try Reference.parse(Data(json.utf8)); return nil } catch let p as ReferenceProblem { return p.text } catch { return "\(error)" }
    }

    func testUnknownKeysAreRefusedAtTheTopAndInEachJourney() {
        XCTAssertEqual(refusal(#"{"balance": 1, "journeys": [{"date": "2026-01-02", "amont": 160}]}"#),
                       "unknown key \"amont\" in journey 1 (known: amount, busLine, busStop, date, entryStation, exitStation, time, type)")
        XCTAssertEqual(refusal(#"{"balance": 1, "currancy": "JPY", "journeys": []}"#),
                       "unknown key \"currancy\" in the reference (known: balance, currency, journeys)")
        let everyKey = #"{"balance": 1, "currency": "JPY", "journeys": [{"date": "2024-02-29", "time": "23:59", "amount": 1, "type": "trip", "entryStation": "A", "exitStation": "B", "busLine": "C", "busStop": "D"}]}"#
        XCTAssertNil(refusal(everyKey))
    }

    func testDatesAndTimesMustBeRealAndWhole() {
        for time in ["1", "12", "12:1", "1:05", "24:00", "12:60", "12:5a", "12:190", " 2:19", "12-19"] {
            XCTAssertEqual(refusal(#"{"balance": 1, "journeys": [{"date": "2026-01-02", "time": "\#(time)"}]}"#),
                           "journey 1: time \"\(time)\" is not a real HH:MM time")
        }
        for date in ["2026-02-30", "2026-13-01", "2026-1-02", "2026-01", "2025-02-29", "0000-01-01", "2026/01/02", "２０２6-01-02"] {
            XCTAssertEqual(refusal(#"{"balance": 1, "journeys": [{"date": "\#(date)"}]}"#),
                           "journey 1: date \"\(date)\" is not a real YYYY-MM-DD date")
        }
    }

    func testTimeIsComparedWithTheTransactionsWholeHourAndMinute() {
        let t = trip("2011-06-14T12:19:00+09:00", 100)
        XCTAssertTrue(Reference.Journey(date: "2011-06-14", time: "12:19").matches(t))
        XCTAssertFalse(Reference.Journey(date: "2011-06-14", time: "12:1").matches(t), "a prefix is not the time")
        XCTAssertFalse(Reference.Journey(date: "2011-06-14", time: "1").matches(t))
        XCTAssertFalse(Reference.Journey(date: "2011-06-14", time: "12:19").matches(trip("2011-06-14", 100)), "no time on the card")
    }

    /// Through `transit verify`: each of these was "fully verified" (exit 0) before.
    func testVerifyRefusesAMisspeltKeyOrAPartialTimeAsConfigNamingTheFile() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let journeys = #"{"date": "2026-11-05", "amount": 160}, {"date": "2026-11-04", "time": "13:45", "amount": 120}"#
        for (name, text, says) in [
            ("amont", #"{"balance": 2010, "journeys": [\#(journeys), {"date": "2026-11-03", "amont": 999}]}"#, #"unknown key "amont" in journey 3"#),
            ("time", #"{"balance": 2010, "journeys": [\#(journeys.replacingOccurrences(of: "13:45", with: "1"))]}"#, #"journey 2: time "1" is not a real HH:MM time"#),
        ] {
            let ref = dir.appendingPathComponent("\(name).json").path
            try text.write(toFile: ref, atomically: true, encoding: .utf8)
            let run = try CommandRun.transit(["verify", "--reference", ref, "--card", BuildProducts.sample("suica.json"), "--json"])
            XCTAssertEqual(run.status, 2, name + run.stdout)
            let error = run.json?["error"] as? [String: Any]
            XCTAssertEqual(error?["kind"] as? String, "config", name)
            XCTAssertTrue((error?["message"] as? String)?.hasPrefix("\(ref): \(says)") == true, "\(error ?? [:])")
        }
    }
}

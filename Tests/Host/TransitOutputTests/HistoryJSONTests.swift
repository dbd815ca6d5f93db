import Foundation
import TestSupport
import TransitArchive
import TransitModel
import TransitOutput
import XCTest

/// `history --json` is written in pieces as the records are read (issue 47): the pieces, put
/// together, are one JSON document an independent parser (python3's json) reads back whole, with
/// every card and record, and each piece is whole UTF-8 (no character cut at a piece's end).
final class HistoryJSONTests: XCTestCase {
    func testAListingWrittenInPiecesReadsBackWhole() throws {
        // Japanese names and a C1 control (escaped as \u0085 after the pieces are cut) in every
        // record, enough records for several 64 kB pieces.
        let name = "新宿\u{85}西口"
        func card(_ id: Int64) -> Archive.Card {
            Archive.Card(id: id, family: "japan-ic", serial: "011\(id)", idm: "", name: nil, currency: "JPY", lastBalance: nil,
                         lastRead: nil, records: 700, reads: 1, readsApart: 0)
        }
        let histories = (1 ... 2).map { (id: Int64) in
            HistoryOutput.CardHistory(card: card(id), records: (0 ..< 700).map { i in
                var t = CardReading.TransactionRecord(type: .trip, amount: UInt64(i), date: nil, entryStation: "E33B", exitStation: "E621",
                                                      balance: Int64(10_000 - i))
                t.entryStationName = name
                t.metadata = ["sequence": String(i)]
                return Archive.TimelineRecord(transaction: t, json: "")
            }, apart: id == 2 ? [(readAt: "2026-11-05T08:00:00+09:00", reason: "a contradiction")] : [])
        }
        var pieces = [[UInt8]]()
        var listing = HistoryOutput.JSONListing { pieces.append($0) }
        for h in histories {
            listing.card(h.card, apart: h.apart)
            for r in h.records { listing.record(r.transaction) }
        }
        listing.finish()
        XCTAssertGreaterThan(pieces.count, 2)
        for piece in pieces { XCTAssertNotNil(String(validatingUTF8: piece.map { CChar(bitPattern: $0) } + [0]), "a piece cut a character") }
        let whole = pieces.flatMap { $0 }
        let text = String(decoding: whole, as: UTF8.self)
        XCTAssertFalse(text.unicodeScalars.contains("\u{85}"), "the C1 control must be escaped")
        XCTAssertTrue(text.contains(#"新宿\u0085西口"#), "escaped as the encoder escapes it")
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("history.json")
        try Data(whole).write(to: file)
        let script = """
            import json,sys
            cards = json.load(open(sys.argv[1], encoding='utf-8'))
            print(json.dumps([[c['serialNumber'], len(c['transactions']), c['transactions'][699]['entryStationName'],
                               c['transactions'][699]['amount'], c['transactions'][699]['metadata']['sequence'], len(c['readsApart'])] for c in cards]))
            """
        let run = try CommandRun.run("/usr/bin/python3", ["-c", script, file.path])
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[Any]], run.stderr)
        XCTAssertEqual(rows.count, 2)
        XCTAssertEqual(rows.map { $0[0] as? String }, ["0111", "0112"])
        XCTAssertEqual(rows.map { $0[1] as? Int }, [700, 700])
        XCTAssertEqual(rows.map { $0[2] as? String }, [name, name])
        XCTAssertEqual(rows.map { $0[3] as? Int }, [699, 699])
        XCTAssertEqual(rows.map { $0[4] as? String }, ["699", "699"])
        XCTAssertEqual(rows.map { $0[5] as? Int }, [0, 1])
        // The whole listing (export --format json's) is the same bytes.
        XCTAssertEqual(HistoryOutput.historyJSONBytes(histories), whole)
    }
}

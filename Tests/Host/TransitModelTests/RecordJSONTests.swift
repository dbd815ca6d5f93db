import Foundation
import TransitModel
import XCTest

/// The hand-written record JSON against Foundation's JSONEncoder (sorted keys, slashes as they
/// are), the oracle: byte for byte, over records of every field, absent or present, and strings of
/// quotes, backslashes, slashes, every C0 control, DEL, C1, format controls and other scripts.
final class RecordJSONTests: XCTestCase {
    func testEveryRecordIsWrittenAsTheEncoderWritesIt() throws {
        var seed: UInt64 = 20_261_201
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        let pieces = ["a", "Z", "0", "9", "\"", "\\", "/", "\u{0}", "\u{1}", "\u{8}", "\u{9}", "\u{A}", "\u{B}", "\u{C}", "\u{D}", "\u{1B}",
                      "\u{1F}", "\u{7F}", "\u{85}", "\u{9B}", "\u{202E}", "\u{2028}", "é", "駅", "😀", " ", "_", "-", "E33B"]
        func text() -> String { (0 ..< next(6)).map { _ in pieces[next(pieces.count)] }.joined() }
        func maybe(_ s: @autoclosure () -> String) -> String? { next(3) == 0 ? nil : s() }
        let dates = ["2026-11-04", "2026-11-04T13:45:00+09:00", "1995-01-01T00:20:00+08:00"]
        let encoder = JSONOutput.makeEncoder()
        for i in 0 ..< 3_000 {
            var r = CardReading.TransactionRecord(type: TransactionKind.allCases[next(TransactionKind.allCases.count)],
                                                  amount: next(3) == 0 ? nil : UInt64(next(1_000_000)),
                                                  date: next(4) == 0 ? nil : CardDate(dates[next(dates.count)]),
                                                  entryStation: maybe(text()), exitStation: maybe(text()),
                                                  metadata: Dictionary((0 ..< next(5)).map { _ in (text(), text()) }, uniquingKeysWith: { a, _ in a }),
                                                  rawType: maybe(text()), rawPayload: maybe(text()),
                                                  balance: next(3) == 0 ? nil : Int64(next(2_000_000)) - 1_000_000)
            r.entryStationName = maybe(text())
            r.exitStationName = maybe(text())
            r.entryStationNameEnglish = maybe(text()) // not in JSON
            var mine = [UInt8]()
            RecordJSON.append(r, to: &mine)
            let theirs = try encoder.encode(r)
            XCTAssertEqual(String(decoding: mine, as: UTF8.self), String(decoding: theirs, as: UTF8.self), "record \(i)")
            if String(decoding: mine, as: UTF8.self) != String(decoding: theirs, as: UTF8.self) { break }
        }
    }
}

import Foundation

/// A transaction of a read as the archive stores it: its identity for merging, the columns the
/// listings use, and its JSON as the reading has it. Keys the reading may carry beyond
/// `CardReading.TransactionRecord` — `balance` (the balance after the record) and
/// `entryStationName` / `exitStationName` (from a station table) — are taken from the JSON.
struct IncomingRecord {
    var merge: TimelineMerge.Record
    var type: String
    var amount: Int64?
    var balance: Int64?
    var date: String?
    var entry: String?, entryName: String?, exit: String?, exitName: String?
    var json: String

    /// The values of type … record, in the order the store's statements name them.
    var columns: [SQLiteDatabase.Value] {
        [.text(type), .init(amount), .init(balance), .init(date), .init(entry), .init(entryName), .init(exit), .init(exitName), .text(json)]
    }

    /// The reading's transactions (newest first, as the reading has them); `json` is the reading's JSON.
    static func all(_ reading: CardReading, json: String) -> [IncomingRecord] {
        let parsed = ((try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any])?["transactions"] as? [[String: Any]] ?? []
        return reading.transactions.enumerated().map { i, t in
            let object = i < parsed.count ? parsed[i] : [:]
            let text = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
                .map { String(decoding: $0, as: UTF8.self) } ?? "{}"
            let identity = t.rawPayload.map { "\(t.rawType ?? "")/\($0)" } ?? text
            return IncomingRecord(
                merge: .init(identity: identity, sequence: t.metadata["sequence"].flatMap { Int64($0) }, date: t.date),
                type: t.type, amount: t.amount.map { Int64(clamping: $0) }, balance: (object["balance"] as? NSNumber)?.int64Value,
                date: t.date, entry: t.entryStation, entryName: object["entryStationName"] as? String,
                exit: t.exitStation, exitName: object["exitStationName"] as? String, json: text)
        }
    }
}

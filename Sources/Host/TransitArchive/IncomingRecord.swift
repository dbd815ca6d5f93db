import CardProtocol
import Foundation
import TransitModel

/// A transaction of a read as the archive stores it: its identity for merging, the columns the
/// listings use, and its JSON as `scan --json` prints it.
package struct IncomingRecord {
    package var merge: TimelineMerge.Record
    package var type: TransactionKind
    package var amount: Int64?
    package var balance: Int64?
    package var date: CardDate?
    package var entry: String?, entryName: String?, exit: String?, exitName: String?
    package var entryNameEnglish: String?, exitNameEnglish: String?
    package var json: String

    /// The values of type … record, entry_name_en, exit_name_en, in the order the store's
    /// statements name them.
    package var columns: [SQLiteDatabase.Value] {
        [.text(type.rawValue), .init(amount), .init(balance), .init(date?.description), .init(entry), .init(entryName), .init(exit), .init(exitName),
         .text(json), .init(entryNameEnglish), .init(exitNameEnglish)]
    }

    /// The reading's transactions (newest first, as the reading has them).
    package static func all(_ reading: CardReading) -> [IncomingRecord] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return reading.transactions.map { t in
            let text = (try? encoder.encode(t)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
            let identity = t.rawPayload.map { "\(t.rawType ?? "")/\($0)" } ?? text
            return IncomingRecord(
                merge: .init(identity: identity, sequence: t.metadata[MetadataKey.sequence].flatMap { Int64($0) }, date: t.date),
                type: t.type, amount: t.amount.map { Int64(clamping: $0) }, balance: t.balance, date: t.date,
                entry: t.entryStation, entryName: t.entryStationName, exit: t.exitStation, exitName: t.exitStationName,
                entryNameEnglish: t.entryStationNameEnglish, exitNameEnglish: t.exitStationNameEnglish, json: text)
        }
    }
}

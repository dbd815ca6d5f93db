import CardProtocol
import TransitModel

/// `transit report --format sfcard`: the CSV that Sony's SFCard Viewer saves, which Japanese
/// expense services and household-book converters import. The layout, from the public converters
/// that read it (zaim-csv-converter's fixtures and reader, facts only): Shift_JIS (code page 932),
/// CRLF; a first line `カードID=<IDm>` padded to ten fields; then the header
/// `利用年月日,定期,鉄道会社名,入場駅/事業者名,定期,鉄道会社名,出場駅/降車場所,利用額(円),残額(円),メモ`;
/// then the records newest first: `YYYY/MM/DD`, the operator and station of entry and exit (from
/// a station table, the code where it has none), the amount used (a top-up negative), the
/// balance after it, and the memo (物販, ｵｰﾄﾁｬｰｼﾞ, ﾊﾞｽ/路面等, ﾁｬｰｼﾞ). Yen cards only.
package enum SFCardCSV {
    package static let header = "利用年月日,定期,鉄道会社名,入場駅/事業者名,定期,鉄道会社名,出場駅/降車場所,利用額(円),残額(円),メモ"

    /// SFCard Viewer's memo words, in the half-width katakana it writes them in.
    package enum Memo: String {
        case none = ""
        case purchase = "物販"
        case autoCharge = "ｵｰﾄﾁｬｰｼﾞ"
        case busOrTram = "ﾊﾞｽ/路面等"
        /// A top-up at a machine. Not in the converters' fixtures: the word the ticket machines'
        /// printouts use (unverified against SFCard Viewer itself).
        case charge = "ﾁｬｰｼﾞ"
    }

    /// The CSV's bytes and how many characters Shift_JIS could not carry (each written `?`).
    package static func render(_ report: CardReport) -> (bytes: [UInt8], replaced: Int) {
        var encoder = ShiftJIS()
        var lines = ["カードID=" + cell(report.card.idm.isEmpty ? report.card.serial : report.card.idm) + String(repeating: ",", count: 9), header]
        for row in report.rows.reversed() {
            lines.append(fields(row.record).joined(separator: ","))
        }
        let bytes = encoder.encode(lines.map { $0 + "\r\n" }.joined())
        return (bytes, encoder.replaced)
    }

    /// One record's ten fields.
    static func fields(_ t: CardReading.TransactionRecord) -> [String] {
        let memo = memo(t)
        let date = t.date.map { $0.day.description.replacingOccurrences(of: "-", with: "/") } ?? "" // YYYY-MM-DD → YYYY/MM/DD
        let stations = memo == .busOrTram
        let entryOperator = stations ? "" : t.metadata["entryOperator"] ?? ""
        let entry = stations ? "" : t.entryStationName ?? t.entryStation ?? ""
        let exitOperator = stations ? "" : t.metadata["exitOperator"] ?? ""
        let exit = stations ? "" : t.exitStationName ?? t.exitStation ?? ""
        var amount = ""
        if let a = t.amount {
            switch t.type.direction {
            case .deducted: amount = String(a)
            case .added: amount = "-" + String(a)
            case .unstated: amount = ""
            }
        }
        return [date, "", cell(entryOperator), cell(entry), "", cell(exitOperator), cell(exit), amount,
                t.balance.map { String($0) } ?? "", memo.rawValue]
    }

    /// What SFCard Viewer notes of a record: an auto-charge (the plugin's `event`: at a gate, 14h
    /// and 15h, or on a bus, 17h, whose record holds a bus line too), a bus (its line code), a
    /// purchase or the refund of one, any other top-up.
    static func memo(_ t: CardReading.TransactionRecord) -> Memo {
        if t.type == .topup, t.metadata[MetadataKey.event] == MetadataKey.autoChargeEvent { return .autoCharge }
        if t.metadata[MetadataKey.busLineCode] != nil { return .busOrTram }
        switch t.type {
        case .purchase: return .purchase
        case .topup: return t.metadata[MetadataKey.event] == MetadataKey.refundEvent ? .purchase : .charge
        case .trip, .unknown: return .none
        }
    }

    /// A text field: one a spreadsheet would run is made inert (`'`, as `export` does), quoted
    /// when it holds a comma, quote or line break.
    static func cell(_ text: String) -> String {
        let safe = HistoryOutput.spreadsheetSafe(text)
        return HistoryOutput.quoted(safe, always: safe != text)
    }
}

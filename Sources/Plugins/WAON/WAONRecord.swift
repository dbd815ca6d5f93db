import PluginKit

/// WAON history: records of two 680B blocks. The header block holds the terminal (bytes 0–12) and
/// the record's serial number (13–14, 0 = empty slot); the data block holds bit fields from byte 1:
/// type 8 · year − 2005 5 · month 4 · day 5 · hour 5 · minute 6 · balance 18 · usage amount 18 ·
/// charge amount 17 (TRETJapanNFCReader and felica-reader-rcs660s agree bit for bit). Times are JST.
/// The slots form a ring, so records are sorted newest first here.
enum WAONRecord {
    /// Type codes (TRET WaonCardItemType, rcs660s): 04 payment; 0C, 10 charge; 1C, 20 auto-charge at
    /// a purchase; 30 auto-charge from a bank. Returns, refunds, point downloads and exchanges, and
    /// moves to a new card are kept as unknown.
    static let kinds: [UInt8: TransactionType] = [0x04: .purchase, 0x0C: .topup, 0x10: .topup,
                                                  0x1C: .topup, 0x20: .topup, 0x30: .topup]

    static func decode(_ blocks: [Bytes]) throws -> [Transaction] {
        var records = [(serial: UInt64, transaction: Transaction)]()
        var i = 0
        while i + 1 < blocks.count {
            let header = blocks[i], data = blocks[i + 1]
            i += 2
            let serial = try header.be(13, 2)
            guard serial != 0 else { continue }
            records.append((serial, try transaction(data)))
        }
        // Newest first: by time, then by serial number; records without a valid time last.
        return records.sorted { a, b in
            switch (a.transaction.date, b.transaction.date) {
            case let (x?, y?) where x.iso8601 != y.iso8601: return x.iso8601 > y.iso8601
            case (nil, _?): return false
            case (_?, nil): return true
            default: return a.serial > b.serial
            }
        }.map(\.transaction)
    }

    static func transaction(_ data: Bytes) throws -> Transaction {
        var bits = BitReader(data, startingAtByte: 1)
        let type = UInt8(try bits.read(8))
        let year = 2005 + Int(try bits.read(5)), month = Int(try bits.read(4)), day = Int(try bits.read(5))
        let hour = Int(try bits.read(5)), minute = Int(try bits.read(6))
        let balance = try bits.read(18) // after the transaction
        let usage = try bits.read(18), charge = try bits.read(17)
        let kind = kinds[type] ?? .unknown
        var t = Transaction(type: kind, date: CivilTime(year: year, month: month, day: day, hour: hour, minute: minute,
                                                         utcOffset: Zone.japan),
                            metadata: [MetadataKey.usageAmount: String(usage), MetadataKey.chargeAmount: String(charge)],
                            rawType: Hex.string([type]), rawPayload: data.hex, balance: Int64(balance))
        switch kind {
        case .purchase: t.amount = usage
        case .topup: t.amount = charge
        default: break
        }
        return t
    }
}

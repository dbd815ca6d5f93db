/// The result of a read, as `--json` prints it (README, "JSON").
struct CardReading: Codable, Equatable {
    var family: String
    var cardName: String?
    var serialNumber: String
    /// Minor units of `currency`; may be negative where the card allows.
    var balance: Int64
    var currency: String
    var validFrom: String?
    var validUntil: String?
    var metadata: [String: String]
    /// Newest first.
    var transactions: [TransactionRecord]

    struct TransactionRecord: Codable, Equatable {
        var type: String
        /// Unsigned magnitude in minor units; absent when unknown.
        var amount: UInt64?
        var date: String?
        var entryStation: String?
        var exitStation: String?
        var metadata: [String: String]
        var rawType: String?
        var rawPayload: String?
    }
}

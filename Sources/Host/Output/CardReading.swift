/// The result of a read, as `--json` prints it (README, "JSON").
public struct CardReading: Codable, Equatable {
    public var family: String
    public var cardName: String?
    public var serialNumber: String
    /// Minor units of `currency`; may be negative where the card allows.
    public var balance: Int64
    public var currency: String
    public var validFrom: String?
    public var validUntil: String?
    public var metadata: [String: String]
    /// Newest first.
    public var transactions: [TransactionRecord]

    public struct TransactionRecord: Codable, Equatable {
        public var type: String
        /// Unsigned magnitude in minor units; absent when unknown.
        public var amount: UInt64?
        public var date: String?
        public var entryStation: String?
        public var exitStation: String?
        public var metadata: [String: String]
        public var rawType: String?
        public var rawPayload: String?
        /// The balance stored with the record, minor units of the card's currency (absent when none).
        public var balance: Int64?
        /// Station names from the user's table (`StationNaming`), when it holds the codes: the
        /// table's `station_name`; the English names ride along for text and `verify`, not in JSON.
        public var entryStationName: String?
        public var exitStationName: String?
        public var entryStationNameEnglish: String?
        public var exitStationNameEnglish: String?

        enum CodingKeys: String, CodingKey {
            case type, amount, date, entryStation, exitStation, metadata, rawType, rawPayload, balance
            case entryStationName, exitStationName
        }
    }
}

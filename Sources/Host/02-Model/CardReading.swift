/// The result of a read, typed once from the plugin's strings by the result builder; `--json`
/// prints it (README, "JSON"), the archive keeps it, text output and `verify` read its fields.
public struct CardReading: Codable, Equatable, Sendable {
    public var family: String
    public var cardName: String?
    public var serialNumber: String
    /// Minor units of `currency`; may be negative where the card allows.
    public var balance: Int64
    /// ISO 4217.
    public var currency: String
    public var validFrom: CalendarDay?
    public var validUntil: CalendarDay?
    public var metadata: [String: String]
    /// Newest first.
    public var transactions: [TransactionRecord]

    public init(family: String, cardName: String? = nil, serialNumber: String, balance: Int64, currency: String,
                validFrom: CalendarDay? = nil, validUntil: CalendarDay? = nil, metadata: [String: String] = [:],
                transactions: [TransactionRecord] = []) {
        self.family = family; self.cardName = cardName; self.serialNumber = serialNumber; self.balance = balance
        self.currency = currency; self.validFrom = validFrom; self.validUntil = validUntil; self.metadata = metadata
        self.transactions = transactions
    }

    public struct TransactionRecord: Codable, Equatable, Sendable {
        public var type: TransactionKind
        public var date: CardDate?
        /// Unsigned magnitude in minor units; absent when unknown. `type` says which way it moved the balance.
        public var amount: UInt64?
        /// The balance stored with the record, minor units of the card's currency (absent when none).
        public var balance: Int64?
        /// Station codes as the plugin gave them, and their names from the user's table
        /// (`StationNaming`) when it holds the codes: the table's `station_name`; the English names
        /// ride along for text and `verify`, not in JSON.
        public var entryStation: String?
        public var entryStationName: String?
        public var entryStationNameEnglish: String?
        public var exitStation: String?
        public var exitStationName: String?
        public var exitStationNameEnglish: String?
        /// Why a code has no name though tables were looked in (`region 3: not in your tables`):
        /// set by `StationNaming` for the text, not in JSON.
        public var entryStationUnnamed: String?
        public var exitStationUnnamed: String?
        public var metadata: [String: String]
        /// The record's type and bytes as the card holds them (hex), when the plugin gave them.
        public var rawType: String?
        public var rawPayload: String?

        public init(type: TransactionKind = .unknown, amount: UInt64? = nil, date: CardDate? = nil, entryStation: String? = nil,
                    exitStation: String? = nil, metadata: [String: String] = [:], rawType: String? = nil, rawPayload: String? = nil,
                    balance: Int64? = nil) {
            self.type = type; self.amount = amount; self.date = date; self.entryStation = entryStation
            self.exitStation = exitStation; self.metadata = metadata; self.rawType = rawType; self.rawPayload = rawPayload
            self.balance = balance
        }

        package enum CodingKeys: String, CodingKey {
            case type, amount, date, entryStation, exitStation, metadata, rawType, rawPayload, balance
            case entryStationName, exitStationName
        }
    }
}

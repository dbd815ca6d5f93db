import CardProtocol

/// The result of a read, typed once from the plugin's strings by the result builder; `--json`
/// prints it (README, "JSON"), the archive keeps it, text output and `verify` read its fields.
public struct CardReading: Codable, Equatable, Sendable {
    public var family: String
    public var cardName: String?
    public var serialNumber: String
    /// Minor units of `currency`; may be negative where the card allows; nil for a card that holds
    /// no stored value (most Calypso cards: JSON then has no `balance`).
    public var balance: Int64?
    /// ISO 4217.
    public var currency: String
    public var validFrom: CalendarDay?
    public var validUntil: CalendarDay?
    public var metadata: [String: String]
    /// Newest first.
    public var transactions: [TransactionRecord]
    /// The passes the card holds, in the card's order; JSON has no `passes` when there are none.
    public var passes: [CardPass]

    public init(family: String, cardName: String? = nil, serialNumber: String, balance: Int64?, currency: String,
                validFrom: CalendarDay? = nil, validUntil: CalendarDay? = nil, metadata: [String: String] = [:],
                transactions: [TransactionRecord] = [], passes: [CardPass] = []) {
        self.family = family; self.cardName = cardName; self.serialNumber = serialNumber; self.balance = balance
        self.currency = currency; self.validFrom = validFrom; self.validUntil = validUntil; self.metadata = metadata
        self.transactions = transactions; self.passes = passes
    }

    private enum CodingKeys: String, CodingKey {
        case family, cardName, serialNumber, balance, currency, validFrom, validUntil, metadata, transactions, passes
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        family = try c.decode(String.self, forKey: .family)
        cardName = try c.decodeIfPresent(String.self, forKey: .cardName)
        serialNumber = try c.decode(String.self, forKey: .serialNumber)
        balance = try c.decodeIfPresent(Int64.self, forKey: .balance)
        currency = try c.decode(String.self, forKey: .currency)
        validFrom = try c.decodeIfPresent(CalendarDay.self, forKey: .validFrom)
        validUntil = try c.decodeIfPresent(CalendarDay.self, forKey: .validUntil)
        metadata = try c.decode([String: String].self, forKey: .metadata)
        transactions = try c.decode([TransactionRecord].self, forKey: .transactions)
        passes = try c.decodeIfPresent([CardPass].self, forKey: .passes) ?? []
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(family, forKey: .family)
        try c.encodeIfPresent(cardName, forKey: .cardName)
        try c.encode(serialNumber, forKey: .serialNumber)
        try c.encodeIfPresent(balance, forKey: .balance)
        try c.encode(currency, forKey: .currency)
        try c.encodeIfPresent(validFrom, forKey: .validFrom)
        try c.encodeIfPresent(validUntil, forKey: .validUntil)
        try c.encode(metadata, forKey: .metadata)
        try c.encode(transactions, forKey: .transactions)
        if !passes.isEmpty { try c.encode(passes, forKey: .passes) }
    }

    /// The reading without its personal data (metadata keys under `MetadataKey.personalPrefix`, on
    /// the card, its records and its passes): what every output shows unless the user asks, and
    /// all the archive ever keeps.
    public var withoutPersonalData: CardReading {
        var r = self
        func strip(_ m: inout [String: String]) { m = m.filter { !MetadataKey.isPersonal($0.key) } }
        strip(&r.metadata)
        for i in r.transactions.indices { strip(&r.transactions[i].metadata) }
        for i in r.passes.indices { strip(&r.passes[i].metadata) }
        return r
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

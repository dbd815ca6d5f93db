/// Direction of a transaction: top-ups add to the balance, trips and purchases deduct.
public enum TransactionType: String, Sendable {
    case trip, topup, purchase, unknown
}

/// One history record as a plugin decoded it.
public struct Transaction: Equatable, Sendable {
    public var type: TransactionType
    /// Unsigned magnitude in minor units; nil when unknown.
    public var amount: UInt64?
    public var date: CivilTime?
    public var entryStation: String?
    public var exitStation: String?
    public var metadata: [String: String]
    public var rawType: String?
    public var rawPayload: String?
    /// The balance the card stored with the record (after it), in minor units; nil when it stores none.
    public var balance: Int64?

    public init(type: TransactionType, amount: UInt64? = nil, date: CivilTime? = nil, entryStation: String? = nil,
                exitStation: String? = nil, metadata: [String: String] = [:], rawType: String? = nil,
                rawPayload: String? = nil, balance: Int64? = nil) {
        self.type = type; self.amount = amount; self.date = date
        self.entryStation = entryStation; self.exitStation = exitStation
        self.metadata = metadata; self.rawType = rawType; self.rawPayload = rawPayload; self.balance = balance
    }
}

/// What a plugin read from a card; published to the host's result builder in one go.
public struct CardResult: Equatable, Sendable {
    public var family: String?
    public var cardName: String?
    public var serialNumber: String
    public var balance: Int64
    public var currency: String
    public var validFrom: CivilTime?
    public var validUntil: CivilTime?
    public var metadata: [String: String]
    /// Newest first.
    public var transactions: [Transaction]

    public init(family: String? = nil, cardName: String? = nil, serialNumber: String, balance: Int64,
                currency: String, validFrom: CivilTime? = nil, validUntil: CivilTime? = nil,
                metadata: [String: String] = [:], transactions: [Transaction] = []) {
        self.family = family; self.cardName = cardName; self.serialNumber = serialNumber
        self.balance = balance; self.currency = currency; self.validFrom = validFrom
        self.validUntil = validUntil; self.metadata = metadata; self.transactions = transactions
    }
}

import ReaderABI

/// Direction of a transaction: top-ups add to the balance, trips and purchases deduct.
public enum TransactionType: String, Sendable {
    case trip, topup, purchase, unknown

    /// The ABI's word for it (TRANSIT_TYPE_*).
    var abiValue: String {
        switch self {
        case .trip: return TRANSIT_TYPE_TRIP
        case .topup: return TRANSIT_TYPE_TOPUP
        case .purchase: return TRANSIT_TYPE_PURCHASE
        case .unknown: return TRANSIT_TYPE_UNKNOWN
        }
    }
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

/// What the card says of a pass it holds (ABI: TRANSIT_PASS_STATUS_*).
public enum PassStatus: String, Sendable {
    /// The card marks it usable.
    case valid
    /// Bought but not yet started (a pass that starts at its first validation).
    case unused
    /// The card marks it invalidated, refunded or blocked.
    case invalid

    /// The ABI's word for it (TRANSIT_PASS_STATUS_*).
    var abiValue: String {
        switch self {
        case .valid: return TRANSIT_PASS_STATUS_VALID
        case .unused: return TRANSIT_PASS_STATUS_UNUSED
        case .invalid: return TRANSIT_PASS_STATUS_INVALID
        }
    }
}

/// A pass the card holds: a contract, a season ticket, a carnet.
public struct Pass: Equatable, Sendable {
    /// What the card or the network calls it, where known.
    public var name: String?
    /// The raw tariff / product code, as the card stores it (decimal or hex, the family's usage).
    public var tariff: String
    public var validFrom: CivilTime?
    public var validUntil: CivilTime?
    /// Trips left on a carnet.
    public var remainingTrips: UInt32?
    /// The zones it covers, e.g. "1-5" or "1,3".
    public var zones: String?
    public var status: PassStatus?
    public var metadata: [String: String]

    public init(name: String? = nil, tariff: String, validFrom: CivilTime? = nil, validUntil: CivilTime? = nil,
                remainingTrips: UInt32? = nil, zones: String? = nil, status: PassStatus? = nil,
                metadata: [String: String] = [:]) {
        self.name = name; self.tariff = tariff; self.validFrom = validFrom; self.validUntil = validUntil
        self.remainingTrips = remainingTrips; self.zones = zones; self.status = status; self.metadata = metadata
    }
}

/// What a plugin read from a card; published to the host's result builder in one go.
public struct CardResult: Equatable, Sendable {
    public var family: String?
    public var cardName: String?
    public var serialNumber: String
    /// Minor units of `currency`; nil for a card that holds no stored value (most Calypso cards).
    public var balance: Int64?
    public var currency: String
    public var validFrom: CivilTime?
    public var validUntil: CivilTime?
    public var metadata: [String: String]
    /// Newest first.
    public var transactions: [Transaction]
    /// The passes the card holds, in the card's order.
    public var passes: [Pass]

    public init(family: String? = nil, cardName: String? = nil, serialNumber: String, balance: Int64?,
                currency: String, validFrom: CivilTime? = nil, validUntil: CivilTime? = nil,
                metadata: [String: String] = [:], transactions: [Transaction] = [], passes: [Pass] = []) {
        self.family = family; self.cardName = cardName; self.serialNumber = serialNumber
        self.balance = balance; self.currency = currency; self.validFrom = validFrom
        self.validUntil = validUntil; self.metadata = metadata; self.transactions = transactions
        self.passes = passes
    }
}

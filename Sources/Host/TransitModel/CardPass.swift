import ReaderABI

/// A pass a card holds — a contract, a season ticket, a carnet — typed once from the plugin's
/// strings by the result builder (transit_reader.h, release 4). JSON prints it as the ABI names
/// its fields; a field the card does not hold is absent.
public struct CardPass: Codable, Equatable, Sendable {
    /// What the card says of the pass (TRANSIT_PASS_STATUS_*); whether it has expired is told
    /// from its dates (`isExpired`).
    public enum Status: String, Codable, CaseIterable, Sendable {
        case valid = "valid", unused = "unused", invalid = "invalid"
    }

    /// What the card or the network calls it, where known.
    public var name: String?
    /// The raw tariff / product code.
    public var tariff: String
    public var validFrom: CardDate?
    public var validUntil: CardDate?
    /// Trips left on a carnet.
    public var remainingTrips: UInt32?
    /// The zones it covers: "1-5", "1,3".
    public var zones: String?
    public var status: Status?
    public var metadata: [String: String]

    public init(name: String? = nil, tariff: String, validFrom: CardDate? = nil, validUntil: CardDate? = nil,
                remainingTrips: UInt32? = nil, zones: String? = nil, status: Status? = nil, metadata: [String: String] = [:]) {
        self.name = name; self.tariff = tariff; self.validFrom = validFrom; self.validUntil = validUntil
        self.remainingTrips = remainingTrips; self.zones = zones; self.status = status; self.metadata = metadata
    }

    /// True when the pass ended before `today` (the day in the card's zone): a pass valid until a
    /// day is valid through that day.
    public func isExpired(on today: CalendarDay) -> Bool {
        guard let end = validUntil?.day else { return false }
        return end < today
    }

    /// True when the pass is valid on some day between `first` and `last` (both included): a pass
    /// without a start or an end is open on that side.
    public func overlaps(from first: CalendarDay, to last: CalendarDay) -> Bool {
        if let start = validFrom?.day, last < start { return false }
        if let end = validUntil?.day, end < first { return false }
        return true
    }

    /// The name a person reads: the pass's name, or its tariff code.
    public var title: String { name ?? L10n.tr("tariff %1$s", tariff) }
}

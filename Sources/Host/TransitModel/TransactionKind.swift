/// What a record did, as the ABI's `type` names it (transit_reader.h).
public enum TransactionKind: String, Codable, CaseIterable, Sendable {
    case trip, topup, purchase, unknown

    /// How the record's amount moved the balance — the one sign rule of text, CSV and history.
    public enum Direction: Sendable { case added, deducted, unstated }

    /// Top-ups add; trips and purchases deduct; an unknown record's amount has no sign.
    public var direction: Direction {
        switch self {
        case .topup: return .added
        case .trip, .purchase: return .deducted
        case .unknown: return .unstated
        }
    }

    /// `+`, `-` or nothing, written before the amount.
    public var sign: String {
        switch direction {
        case .added: return "+"
        case .deducted: return "-"
        case .unstated: return ""
        }
    }

    /// The type as a person reads it: `top-up`.
    public var words: String { self == .topup ? "top-up" : rawValue }
}

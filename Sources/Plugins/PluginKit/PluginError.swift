import ReaderABI

/// Why a plugin's read stopped. Each case maps to one status of the ABI; Swift errors never cross it.
public enum PluginError: Error, Equatable {
    /// The card is not of this family; the host tries the next plugin.
    case notThisCard
    /// The card refused a command the read depends on.
    case cardRefused(String)
    /// The reader or the radio failed.
    case communication(String)
    /// The card stayed silent (the reader worked): the only transport outcome that may mean "not this card".
    case noAnswer(String)
    /// The card answered something short, long or odd.
    case malformedResponse(String)
    /// The card left the reader.
    case sessionLost
    /// The user cancelled the read.
    case cancelled
    /// A fault inside the plugin.
    case `internal`(String)
    /// MIFARE Classic: the card is this family's, but sectors its reading needs stay locked (no key
    /// the host holds opens them); the user is told to bring the card's keys.
    case locked(String)

    /// The ABI status for this error.
    public var status: transit_status {
        switch self {
        case .notThisCard: return TRANSIT_STATUS_NOT_THIS_CARD
        case .cardRefused: return TRANSIT_STATUS_CARD_REFUSED
        case .communication: return TRANSIT_STATUS_COMMUNICATION
        case .noAnswer: return TRANSIT_STATUS_NO_ANSWER
        case .malformedResponse: return TRANSIT_STATUS_MALFORMED_RESPONSE
        case .sessionLost: return TRANSIT_STATUS_SESSION_LOST
        case .cancelled: return TRANSIT_STATUS_CANCELLED
        case .internal: return TRANSIT_STATUS_INTERNAL
        case .locked: return TRANSIT_STATUS_LOCKED
        }
    }

    /// The error a failed host call stands for.
    public init(hostStatus status: transit_status, during what: String) {
        switch status {
        case TRANSIT_STATUS_NOT_THIS_CARD: self = .notThisCard
        case TRANSIT_STATUS_CARD_REFUSED: self = .cardRefused(what)
        case TRANSIT_STATUS_COMMUNICATION: self = .communication(what)
        case TRANSIT_STATUS_NO_ANSWER: self = .noAnswer("the card did not answer \(what)")
        case TRANSIT_STATUS_MALFORMED_RESPONSE: self = .malformedResponse(what)
        case TRANSIT_STATUS_SESSION_LOST: self = .sessionLost
        case TRANSIT_STATUS_CANCELLED: self = .cancelled
        case TRANSIT_STATUS_LOCKED: self = .locked(what)
        default: self = .internal("host answered status \(status) to \(what)")
        }
    }

    /// A FeliCa command the card refused: its status flags, in the words the host logs.
    public init(_ status: FeliCaStatus) {
        self = .cardRefused("the card refused a FeliCa command (status \(Hex.string([status.flag1, status.flag2])))")
    }

    /// A short text for the host's log.
    public var message: String {
        switch self {
        case .notThisCard: return "not this card"
        case .cardRefused(let s), .communication(let s), .noAnswer(let s), .malformedResponse(let s), .internal(let s), .locked(let s): return s
        case .sessionLost: return "card removed"
        case .cancelled: return "cancelled"
        }
    }
}

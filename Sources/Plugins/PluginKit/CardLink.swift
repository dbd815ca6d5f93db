import ReaderABI

/// The card as a plugin sees it: exchanges and the facts the host already knows.
/// `HostCardLink` implements it over the ABI table; tests may implement it with a script.
public protocol CardLink: AnyObject {
    /// FeliCa IDm polled by the reader (system 0), or the ISO UID.
    var uid: [UInt8] { get }
    /// FeliCa system codes in card order, or nil when unknown.
    var systemCodes: [UInt16]? { get }
    /// Sends a FeliCa frame (length byte first) and returns the card's frame.
    func felica(_ frame: [UInt8]) throws -> [UInt8]
    /// Sends an APDU and returns data + SW1 SW2.
    func apdu(_ command: [UInt8]) throws -> [UInt8]
    /// A plugins.conf option for this plugin.
    func option(_ key: String) -> String?
    /// A line for the host's log (INFO).
    func log(_ message: String)
    /// A line for the host's log at `level`: a warning is said to the user without --verbose too.
    func log(_ message: String, level: LogLevel)
    /// The longest FeliCa frame (length byte included) the reader carries both ways; nil when the
    /// host does not say (frames of up to 255 bytes then travel).
    var largestFeliCaFrame: Int? { get }
}

extension CardLink {
    public var largestFeliCaFrame: Int? { nil }
    public func log(_ message: String, level: LogLevel) { log(message) }
}

/// The level of a log line (TRANSIT_LOG_*).
public enum LogLevel: Sendable {
    case debug, info, warning

    var abiValue: Int32 {
        switch self {
        case .debug: return TRANSIT_LOG_DEBUG
        case .info: return TRANSIT_LOG_INFO
        case .warning: return TRANSIT_LOG_WARNING
        }
    }
}

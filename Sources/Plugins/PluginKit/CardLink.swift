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
    /// The ATR the reader built for the card (PC/SC Part 3, 3.1.3.2.3); nil when the host does not say.
    var atr: [UInt8]? { get }
    /// ISO 14443-4: the card's historical bytes, from the ATR the reader built (type A: its ATS's;
    /// type B: the ATQB's application data, protocol info and MBLI); nil when the host does not say
    /// or the card has none. `HistoricalBytes` tells what they rule out.
    var historicalBytes: [UInt8]? { get }
    /// The card's technology, as the host told it (a plugin of several technologies reads by it).
    var technology: CardTechnology? { get }
    /// MIFARE Classic: the card's sectors (5, 16 or 40); 0 for another card or an older host.
    var classicSectorCount: Int { get }
    /// MIFARE Classic: the sector's data blocks, 16 bytes each (3 blocks; 15 for a 4K card's
    /// sectors 32–39), the trailer left out; nil when no key the host holds opens it. The host opens
    /// each sector once a card.
    func classicSector(_ sector: Int) throws -> [UInt8]?
    /// MIFARE Classic: whether the key that opened `sector` hashes to one of `digests` (lowercase
    /// hex MD5 of salt ‖ key ‖ salt, Metrodroid's HashUtils); nil when no key opens the sector.
    /// The plugin never sees the key.
    func classicKeyMatches(sector: Int, salt: String, digests: [String]) throws -> Bool?
    /// MIFARE Ultralight / NTAG: `count` pages of 4 bytes from `first`.
    func ultralightPages(_ first: Int, count: Int) throws -> [UInt8]
}

extension CardLink {
    public var largestFeliCaFrame: Int? { nil }
    public var atr: [UInt8]? { nil }
    public var historicalBytes: [UInt8]? { nil }
    public var technology: CardTechnology? { nil }
    public var classicSectorCount: Int { 0 }
    public func classicSector(_ sector: Int) throws -> [UInt8]? { throw PluginError.internal("this host reads no MIFARE Classic sectors") }
    public func classicKeyMatches(sector: Int, salt: String, digests: [String]) throws -> Bool? {
        throw PluginError.internal("this host reads no MIFARE Classic sectors")
    }
    public func ultralightPages(_ first: Int, count: Int) throws -> [UInt8] { throw PluginError.internal("this host reads no Ultralight pages") }
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

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
    /// A line for the host's log.
    func log(_ message: String)
    /// The longest FeliCa frame (length byte included) the reader carries both ways; nil when the
    /// host does not say (frames of up to 255 bytes then travel).
    var largestFeliCaFrame: Int? { get }
}

extension CardLink {
    public var largestFeliCaFrame: Int? { nil }
}

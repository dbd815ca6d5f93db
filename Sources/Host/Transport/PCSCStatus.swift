import CPCSCLite

/// A libpcsclite return code and what it means to `transit` (values from pcsclite.h; the header's
/// casts keep Swift from importing the macros themselves).
struct PCSCStatus: Equatable {
    let code: UInt32

    init(_ rv: LONG) { code = UInt32(truncatingIfNeeded: rv) }

    static let success = PCSCStatus(raw: 0x0000_0000)
    static let cancelled = PCSCStatus(raw: 0x8010_0002)
    static let timeout = PCSCStatus(raw: 0x8010_000A)
    static let noSmartcard = PCSCStatus(raw: 0x8010_000C)
    static let notTransacted = PCSCStatus(raw: 0x8010_0016)
    static let readerUnavailable = PCSCStatus(raw: 0x8010_0017)
    static let noService = PCSCStatus(raw: 0x8010_001D)
    static let noReadersAvailable = PCSCStatus(raw: 0x8010_002E)
    static let unresponsiveCard = PCSCStatus(raw: 0x8010_0066)
    static let unpoweredCard = PCSCStatus(raw: 0x8010_0067)
    static let resetCard = PCSCStatus(raw: 0x8010_0068)
    static let removedCard = PCSCStatus(raw: 0x8010_0069)

    private init(raw: UInt32) { code = raw }

    var hex: String { "0x" + String(code, radix: 16, uppercase: true) }

    /// True when the card has left the reader (or the reader with it). A reset by another client
    /// (resetCard) is not: the card is still there and the handle reconnects.
    var meansCardGone: Bool {
        [.removedCard, .noSmartcard, .readerUnavailable, .unpoweredCard].contains(self)
    }

    /// The error of a failed call during a read.
    func error(_ what: String) -> TransitError {
        if meansCardGone { return TransitError(.sessionLost, "the card was removed during the read") }
        if self == .resetCard { return TransitError(.cardReset, "another application reset the card during the read") }
        switch self {
        case .cancelled: return TransitError(.cancelled, "cancelled")
        case .noService: return TransitError(.noReader, "pcscd is not running (start it: pcscd, or systemctl start pcscd)")
        case .noReadersAvailable: return TransitError(.noReader, "no reader is connected")
        default:
            let text = pcsc_stringify_error(LONG(bitPattern: UInt(code))).map { String(cString: $0) } ?? ""
            return TransitError(.communication, "\(what) failed: \(text) (\(hex))")
        }
    }
}

/// Constants of pcsclite.h used by the transport.
enum PCSC {
    static let scopeSystem: DWORD = 0x0002
    static let shareShared: DWORD = 0x0002
    static let protocolT0: DWORD = 0x0001
    static let protocolT1: DWORD = 0x0002
    static let leaveCard: DWORD = 0x0000
    static let stateUnaware: DWORD = 0x0000
    static let stateChanged: DWORD = 0x0002
    static let statePresent: DWORD = 0x0020
    static let stateMute: DWORD = 0x0200
    static let autoAllocate = DWORD.max
    /// SCARD_ATTR_MAXINPUT: SCARD_ATTR_VALUE(SCARD_CLASS_VENDOR_DEFINED = 7, 0xA007) (reader.h).
    static let attrMaxInput: DWORD = 7 << 16 | 0xA007
}

import CPCSCLite
import TransitModel
import TransitTransport

/// A libpcsclite return code (pcsclite.h's SCARD_* macros, imported) and what it means to `transit`.
package struct PCSCStatus: Equatable {
    package let code: UInt32

    package init(_ rv: LONG) { code = UInt32(truncatingIfNeeded: rv) }

    package static let success = PCSCStatus(SCARD_S_SUCCESS)
    package static let timeout = PCSCStatus(SCARD_E_TIMEOUT)
    package static let noSmartcard = PCSCStatus(SCARD_E_NO_SMARTCARD)
    package static let notTransacted = PCSCStatus(SCARD_E_NOT_TRANSACTED)
    package static let readerUnavailable = PCSCStatus(SCARD_E_READER_UNAVAILABLE)
    package static let noService = PCSCStatus(SCARD_E_NO_SERVICE)
    package static let noReadersAvailable = PCSCStatus(SCARD_E_NO_READERS_AVAILABLE)
    package static let unresponsiveCard = PCSCStatus(SCARD_W_UNRESPONSIVE_CARD)
    package static let unpoweredCard = PCSCStatus(SCARD_W_UNPOWERED_CARD)
    package static let resetCard = PCSCStatus(SCARD_W_RESET_CARD)
    package static let removedCard = PCSCStatus(SCARD_W_REMOVED_CARD)

    package var hex: String { "0x" + String(code, radix: 16, uppercase: true) }

    /// True when the card has left the reader (or the reader with it). A reset by another client
    /// (resetCard) is not: the card is still there and the handle reconnects.
    package var meansCardGone: Bool {
        [.removedCard, .noSmartcard, .readerUnavailable, .unpoweredCard].contains(self)
    }

    /// How to start pcscd: the one hint scan, watch and doctor give.
    package static var startPcscd: String { startPcscdWords.english }
    /// `startPcscd` in English and in the chosen language.
    package static var startPcscdWords: L10n.Words { L10n.words("start it: sudo systemctl start pcscd.socket; not installed: sudo apt install pcscd") }

    /// `error` with the call in words that are the same in every language.
    package func error(_ what: String) -> TransitError { error(L10n.Words(what)) }

    /// The error of a failed call during a read, carrying this code; `what` is the call ("connecting to the card").
    package func error(_ what: L10n.Words) -> TransitError {
        func error(_ kind: TransitError.Kind, _ words: L10n.Words) -> TransitError { TransitError(kind, words, pcscCode: code) }
        if meansCardGone { return error(.sessionLost, L10n.words("the card was removed during the read")) }
        switch self {
        case .resetCard: return error(.cardReset, L10n.words("another application reset the card during the read"))
        case .noService: return error(.noReader, L10n.words("pcscd is not running (%1$s)", Self.startPcscdWords))
        case .noReadersAvailable: return error(.noReader, L10n.words("no reader is connected"))
        default:
            // libpcsclite's own words for the code, as it says them.
            let text = pcsc_stringify_error(LONG(bitPattern: UInt(code))).map { String(cString: $0) } ?? ""
            // TRANSLATORS: %1$s is what failed ("connecting to the card"), %2$s libpcsclite's words, %3$s the code.
            return error(.communication, L10n.words("%1$s failed: %2$s (%3$s)", what, .init(text), .init(hex)))
        }
    }
}

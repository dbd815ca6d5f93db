import TransitModel
import TransitTransport

/// What `readers`, `scan` and `doctor` say when they find no reader at all: what they looked for
/// on each transport (pcscd's readers, the USB reader table's on USB), and a Sony
/// reader of a model on the bus that transit does not drive (none since issue 46: `USBReaders.unsupported`).
package struct NoReaderFound {
    /// False when pcscd is not running (it was not asked, and needs not be for a USB reader).
    package let pcscdRunning: Bool
    /// The Sony readers on the bus transit does not drive: "SONY RC-S330/360/370 (USB 1:5)".
    package let unsupported: [String]

    package init(pcscdRunning: Bool, unsupported: [String] = ReaderSources.unsupported) {
        self.pcscdRunning = pcscdRunning; self.unsupported = unsupported
    }

    /// "no PC/SC reader (pcscd is not running: only PC/SC readers need it)".
    package var pcsc: L10n.Words {
        pcscdRunning ? L10n.words("no PC/SC reader (pcscd lists none)") : L10n.words("no PC/SC reader (pcscd is not running: only PC/SC readers need it)")
    }

    /// "no RC-S380 or RC-S330/360/370 on USB", and the unsupported Sony readers seen there.
    package var usb: L10n.Words {
        unsupported.isEmpty ? L10n.words("no RC-S380 or RC-S330/360/370 on USB")
            : L10n.words("no RC-S380 or RC-S330/360/370 on USB")
                + L10n.wordsn(" (%1$s is on the bus: not supported yet, docs/readers.md)", " (%1$s are on the bus: not supported yet, docs/readers.md)",
                              unsupported.count, .init(unsupported.joined(separator: ", ")))
    }

    /// What to do, for each transport.
    package static var advice: L10n.Words {
        L10n.words("""
            A PC/SC reader needs pcscd (%1$s); an RC-S380 or RC-S330/360/370 needs only to be plugged in (`transit doctor` says whether it is seen \
            and may be opened; docs/readers.md, "readers shows nothing")
            """, ReaderSources.startPcscd)
    }

    /// `noReader` (exit 3), saying both transports.
    package var error: TransitError {
        // TRANSLATORS: %1$s says pcscd's readers, %2$s the USB ones, %3$s what to do.
        TransitError(.noReader, L10n.words("no reader found: %1$s; %2$s. %3$s", pcsc, usb, Self.advice))
    }
}

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
    /// The models of the USB reader table, as its lines name them together: "RC-S380",
    /// "RC-S330/360/370". A new line changes what is said, with no new sentence to translate.
    package let usbModels: [String]

    package init(pcscdRunning: Bool, unsupported: [String] = ReaderSources.unsupported, usbModels: [String] = ReaderSources.usbModels) {
        self.pcscdRunning = pcscdRunning; self.unsupported = unsupported; self.usbModels = usbModels
    }

    /// `usbModels` as a list in the chosen language, "or" before the last: "RC-S380 or
    /// RC-S330/360/370"; "RC-S380, RC-S330/360/370 or SK-3" (the catalog's list words, "、" and " または ").
    package var models: L10n.Words {
        let words = usbModels.map(L10n.Words.init)
        guard let last = words.last else { return L10n.Words("") }
        let head = words.dropLast()
        return head.isEmpty ? last : Array(head).joined(separator: L10n.words(", ")) + L10n.words(" or ") + last
    }

    /// "no PC/SC reader (pcscd is not running: only PC/SC readers need it)".
    package var pcsc: L10n.Words {
        pcscdRunning ? L10n.words("no PC/SC reader (pcscd lists none)") : L10n.words("no PC/SC reader (pcscd is not running: only PC/SC readers need it)")
    }

    /// "no RC-S380 or RC-S330/360/370 on USB", and the unsupported Sony readers seen there.
    package var usb: L10n.Words {
        // TRANSLATORS: %1$s is the USB reader models transit drives, "RC-S380 or RC-S330/360/370".
        let none = L10n.words("no %1$s on USB", models)
        return unsupported.isEmpty ? none
            : none + L10n.wordsn(" (%1$s is on the bus: not supported yet, docs/readers.md)", " (%1$s are on the bus: not supported yet, docs/readers.md)",
                                 unsupported.count, .init(unsupported.joined(separator: ", ")))
    }

    /// What to do, for each transport.
    package var advice: L10n.Words {
        // TRANSLATORS: %1$s is how to start pcscd, %2$s the USB reader models transit drives, "RC-S380 or RC-S330/360/370".
        L10n.words("""
            A PC/SC reader needs pcscd (%1$s); a USB reader (%2$s) needs only to be plugged in (`transit doctor` says whether it is seen \
            and may be opened; docs/readers.md, "readers shows nothing")
            """, ReaderSources.startPcscd, models)
    }

    /// `noReader` (exit 3), saying both transports.
    package var error: TransitError {
        // TRANSLATORS: %1$s says pcscd's readers, %2$s the USB ones, %3$s what to do.
        TransitError(.noReader, L10n.words("no reader found: %1$s; %2$s. %3$s", pcsc, usb, advice))
    }
}

import CardProtocol
import TransitTransport
import TransitPCSC
/// One reader as `transit readers` and `doctor` show it.
package struct ReaderRow: Encodable {
    package let name: String
    package let card: Bool
    package let atr: String?
    /// What the ATR says: felica, iso14443, storage (a memory card) or unknown.
    package let technology: String?
    package let samInterface: Bool
    /// How transit reaches it: "pcsc" (through pcscd) or "usb" (an RC-S380, through libusb).
    package let transport: String
    /// What kept transit from looking for a card on it (no access to the device node, busy).
    package let problem: String?
    package let profile: Profile

    /// The reader's line of the reader table.
    package struct Profile: Encodable {
        package let name: String
        package let dialects: [String]
        package let neverSent: [String]
        package let transparentSession: Bool
        package let maxCommand: Int?
        package let note: String
        package let source: String
        package let confidence: String
        /// The line in words: the model, the dialects in order, the confidence.
        package let summary: String

        package init(_ p: ReaderProfile) {
            name = p.name; dialects = p.dialects.map(\.rawValue); neverSent = p.unsafe.keys.map(\.rawValue).sorted()
            transparentSession = p.transparentSession; maxCommand = p.maxCommand; note = p.note; source = p.source
            confidence = p.confidence.rawValue; summary = p.summary
        }
    }

    package init(_ state: ReaderState) {
        name = state.reader
        card = state.present
        atr = state.present ? HexFormat.string(state.atr) : nil
        technology = state.present ? ATRVerdict(atr: state.atr).word : nil
        samInterface = ReaderProfile.isSAMSlot(state.reader)
        transport = "pcsc"
        problem = nil
        profile = Profile(.matching(state.reader))
    }

    /// A reader on USB: the ATR its channel shows for the card a sense found (nil: none), or the
    /// problem that kept transit from looking.
    package init(usbReader name: String, atr: [UInt8]?, problem: String?) {
        self.name = name
        card = atr != nil
        self.atr = atr.map(HexFormat.string)
        technology = atr.map { ATRVerdict(atr: $0).word }
        samInterface = false
        transport = "usb"
        self.problem = problem
        profile = Profile(.matching(name))
    }
}

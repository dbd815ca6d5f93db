import CardProtocol
import TransitTransport
/// One reader as `transit readers` and `doctor` show it.
package struct ReaderRow: Encodable {
    package let name: String
    package let card: Bool
    package let atr: String?
    /// What the ATR says: felica, iso14443, storage (a memory card) or unknown.
    package let technology: String?
    package let samInterface: Bool
    /// How transit reaches it: "pcsc" (through pcscd) or "usb" (a reader transit drives through libusb).
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

    /// A reader as its source listed it.
    package init(_ listed: ListedReader) {
        name = listed.name
        card = listed.atr != nil
        atr = listed.atr.map(HexFormat.string)
        technology = listed.atr.map { ATRVerdict(atr: $0).word }
        samInterface = listed.transport == .pcsc && ReaderProfile.isSAMSlot(listed.name)
        transport = listed.transport.rawValue
        problem = listed.problem
        profile = Profile(.matching(listed.name))
    }
}

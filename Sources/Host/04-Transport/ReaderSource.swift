import TransitModel

/// How transit reaches a reader: through pcscd, or itself over USB.
package enum ReaderTransport: String, Sendable {
    case pcsc, usb
}

/// One reader as its source lists it: its name, the card on it (its ATR, as the reader's channel
/// shows it), or what kept transit from looking (no access to the device node, busy).
package struct ListedReader: Equatable, Sendable {
    package let name: String
    package let transport: ReaderTransport
    /// The card's ATR; nil when no card is on the reader, or it could not be looked at.
    package let atr: [UInt8]?
    package let problem: String?

    package init(name: String, transport: ReaderTransport, atr: [UInt8]?, problem: String? = nil) {
        self.name = name; self.transport = transport; self.atr = atr; self.problem = problem
    }
}

/// A kind of reader — pcscd's, the RC-S380s on USB — as the commands use it: the readers listed
/// with their state, and every reader held given back as the process ends. `TransitPCSC` and
/// `TransitUSB` each have one; `TransitWatch`'s `ReaderSources.all` holds both.
package protocol ReaderSource: AnyObject, Sendable {
    var transport: ReaderTransport { get }
    /// The readers now, each with its card or its problem, every call bounded by `deadline`.
    /// Throws when the source cannot list at all (pcscd not running: `PCSCStatus.noService`).
    func list(by deadline: Deadline) throws -> [ListedReader]
    /// Gives back every reader this source holds open; called once, from a signal's thread too.
    func giveBackAll()
}

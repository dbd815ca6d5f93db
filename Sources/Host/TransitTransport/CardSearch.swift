import Foundation
import TransitModel

/// A reader with a card that a search found: its channel, and what gives the reader back once the
/// read is done (a USB reader's field off and its kernel driver re-attached; nothing for pcscd's).
package struct FoundCard {
    package let channel: ReaderChannel
    package let giveBack: () -> Void

    package init(channel: ReaderChannel, giveBack: @escaping () -> Void) { self.channel = channel; self.giveBack = giveBack }
}

/// What one look of a search saw.
package struct SearchLook {
    /// The source's readers, and those a read may use (`--reader`, no SAM interface).
    package var all: [String] = []
    package var candidates: [String] = []
    package var found: FoundCard?
    /// What kept one of its readers from being looked at (no access, busy): said when no card is found.
    package var problem: TransitError?
    /// False while the service the source needs is not running (pcscd): only its readers need it.
    package var serviceRunning = true
    /// What "no card" adds of these readers (what a USB reader's chip reads: "FeliCa cards and MIFARE Ultralight tickets only…").
    package var note: String?

    package init(all: [String] = [], candidates: [String] = [], found: FoundCard? = nil, problem: TransitError? = nil,
                 serviceRunning: Bool = true, note: String? = nil) {
        self.all = all; self.candidates = candidates; self.found = found; self.problem = problem
        self.serviceRunning = serviceRunning; self.note = note
    }
}

/// One command's search for a card among a source's readers (`ReaderSource.search`), looked at
/// until the command's wait runs out: the source's state between looks (pcscd's context, the
/// USB readers opened) is the search's, and what it opened is given back by `close`.
package protocol CardSearch: AnyObject {
    /// Brings the search's readers up to date (the USB bus is looked at again each second).
    func prepare()
    /// True when the source has readers a look would try.
    var hasReaders: Bool { get }
    /// One look, every exchange bounded by the command's exchange timeout. Throws when the source
    /// fails (pcscd went away: `reset` then lets a later look start again).
    func look() throws -> SearchLook
    /// Seconds between looks while a command waits on readers that must be polled; nil when a
    /// change wakes `waitForChange`.
    var pollInterval: Double? { get }
    /// Sleeps up to `seconds` until a reader of the search's changes; false (at once) when it cannot.
    func waitForChange(_ seconds: Double) -> Bool
    func reset()
    /// Gives back every reader it opened but the one handed out with a found card.
    func close()
}

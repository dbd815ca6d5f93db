import Foundation
import TransitModel

/// A card newly on a reader of a watch: the reader, and the way to the card's channel.
package struct CardTap {
    package let reader: String
    /// The card's channel: connected when the read starts (pcscd's readers), or the one the look
    /// that saw the card made (a USB reader's). Throws when the card cannot be reached.
    package let channel: () throws -> ReaderChannel
    /// False where `--dialect` does not apply (a USB reader's channel speaks the bare-frame dialect only).
    package let takesDialect: Bool

    package init(reader: String, takesDialect: Bool, channel: @escaping () throws -> ReaderChannel) {
        self.reader = reader; self.takesDialect = takesDialect; self.channel = channel
    }
}

/// Where a source's watch hands what it sees: the watch's lanes, one a reader, each reading its
/// taps one at a time with a read engine of its own (`WatchLoop`). Called from the watch loop's
/// thread and from the threads a source polls its readers on.
package protocol TapHandler: AnyObject, Sendable {
    /// Makes the lane of a reader now watched, unless it has one (a reader polled on a thread of its
    /// own has its lane before its first tap). Throws when the lane's read engine cannot be made.
    func open(_ reader: String) throws
    /// Reads a tap on its reader's lane, made first when it has none (throws as `open`); `done`
    /// runs once the read has ended, or once a newer tap of the same reader has replaced it while it
    /// waited for a busy lane (its card has gone): a source may wait for `done`.
    func read(_ tap: CardTap, done: @escaping () -> Void) throws
    /// Drops a reader's lane once its reads are done (a USB reader unplugged).
    func close(_ reader: String)
    /// A reader or its service that failed, in words.
    func problem(_ line: String)
}

/// One source's readers watched for taps until the process ends (`ReaderSource.watch`): each card
/// put on a reader handed over once (one left there is not a new tap until it has gone), each
/// failure said through the handler. The watch loop turns every source's watch in turn.
package protocol TapWatch: AnyObject {
    /// True while it watches readers of its own (pcscd's listed, USB readers polled): another source's
    /// service that is down is then no problem to tell.
    var watching: Bool { get }
    /// Brings its readers up to date (the USB bus looked at again, a poll started for each new
    /// USB reader); throws what the handler's `open` throws.
    func prepare() throws
    /// Waits up to about half a second for a change on its readers and hands over the taps; false,
    /// at once, when its taps come on threads of its own and it has nothing to wait on.
    /// `quietWithoutService`: the service it needs not running (pcscd) is no problem to tell.
    func next(quietWithoutService: Bool) throws -> Bool
}

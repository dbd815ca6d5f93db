import CPCSCLite
import Foundation
import TransitModel
import TransitTransport

/// Follows the readers pcscd knows and reports each card put on one of them once: a card left on
/// the reader is not reported again until it has been taken away. Reconnects to pcscd when it
/// restarts.
package struct ReaderWatcher {
    /// A card newly on a reader.
    package struct Tap {
        package let reader: String
    }

    /// Reader name substrings to watch; empty: all but SAM interfaces.
    package let filters: [String]
    private var context: PCSCContext?
    /// What was reported of a reader's card: not reported again while it stays.
    private struct Seen {
        /// pcscd's event count then (a new card, even with the same ATR, changes it); nil after
        /// pcscd restarted, when counts start afresh and only the ATR can tell.
        package var count: DWORD?
        package var atr: [UInt8]
    }

    private var reported = [String: Seen]()
    private var lastProblem: String?
    /// The readers the last look listed and watched; none while pcscd cannot be reached.
    package private(set) var watched = [String]()

    package init(filters: [String]) { self.filters = filters }

    /// Waits up to about half a second for something to change and returns the new taps.
    /// `quietWithoutPCSCD`: pcscd not running is no problem to tell (readers on USB are watched).
    package mutating func nextTaps(onProblem: (String) -> Void, quietWithoutPCSCD: Bool = false) -> [Tap] {
        do {
            let ctx: PCSCContext
            if let context {
                ctx = context
            } else {
                ctx = try PCSCContext()
                context = ctx
                for key in reported.keys { reported[key]?.count = nil } // a new pcscd counts afresh
            }
            let names = ReaderProfile.selected(try ctx.readers(), by: filters)
            let states = try ctx.states(names)
            lastProblem = nil
            watched = names
            var taps = [Tap]()
            for s in states {
                if !s.present { reported[s.reader] = nil; continue }
                if let seen = reported[s.reader], seen.count.map({ $0 == s.eventCount }) ?? (seen.atr == s.atr) {
                    reported[s.reader]?.count = s.eventCount
                    continue
                }
                reported[s.reader] = Seen(count: s.eventCount, atr: s.atr)
                taps.append(Tap(reader: s.reader))
            }
            // Forget readers that were unplugged, then sleep on their states.
            reported = reported.filter { names.contains($0.key) }
            if taps.isEmpty { ctx.waitForChange(names, states: states, timeoutMs: 500) }
            return taps
        } catch {
            // pcscd gone (or restarting), no readers yet: say so once, wait, and connect anew.
            let e = TransitError(error, while: "watching the readers")
            let unneeded = quietWithoutPCSCD && e.pcscCode == PCSCStatus.noService.code
            if lastProblem != e.message, !unneeded { onProblem(L10n.tr("%1$s; waiting", e.text)) }
            lastProblem = e.message
            context = nil
            watched = []
            Thread.sleep(forTimeInterval: 0.5)
            return []
        }
    }
}

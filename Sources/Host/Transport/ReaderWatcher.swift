import CPCSCLite
import Foundation

/// Follows the readers pcscd knows and reports each card put on one of them once: a card left on
/// the reader is not reported again until it has been taken away. Reconnects to pcscd when it
/// restarts.
struct ReaderWatcher {
    /// A card newly on a reader.
    struct Tap {
        let reader: String
        let context: PCSCContext
    }

    /// Reader name substrings to watch; empty: all.
    let filters: [String]
    private var context: PCSCContext?
    /// Readers whose card was reported, with its ATR: not reported again while it stays.
    private var reported = [String: [UInt8]]()
    private var lastProblem: String?

    init(filters: [String]) { self.filters = filters }

    /// Waits up to about half a second for something to change and returns the new taps.
    mutating func nextTaps(cancellation: Cancellation, onProblem: (String) -> Void) -> [Tap] {
        do {
            let ctx = try context ?? PCSCContext()
            context = ctx
            let names = try ctx.readers().filter { name in filters.isEmpty || filters.contains { name.lowercased().contains($0.lowercased()) } }
            let states = try ctx.states(names)
            lastProblem = nil
            var taps = [Tap]()
            for s in states {
                if !s.present { reported[s.reader] = nil; continue }
                if reported[s.reader] == s.atr { continue }
                reported[s.reader] = s.atr
                taps.append(Tap(reader: s.reader, context: ctx))
            }
            // Forget readers that were unplugged, then sleep on their states.
            reported = reported.filter { names.contains($0.key) }
            if taps.isEmpty { ctx.waitForChange(names, states: states, timeoutMs: 500) }
            return taps
        } catch let e as TransitError {
            // pcscd gone (or restarting), no readers yet: say so once, wait, and connect anew.
            if lastProblem != e.message { onProblem("\(e.message); waiting") }
            lastProblem = e.message
            context = nil
            if !cancellation.isCancelled { Thread.sleep(forTimeInterval: 0.5) }
            return []
        } catch {
            context = nil
            return []
        }
    }
}

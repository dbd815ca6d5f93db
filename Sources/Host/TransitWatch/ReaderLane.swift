import Foundation
import TransitEngine

/// One reader of a watch: its reads run one at a time on its own thread with its own read engine (and plugin worker).
/// A tap that comes while the reader is busy waits for the read before it (one waits at most: a
/// newer tap replaces it, since the card of the older one has gone, and the older one's `dropped`
/// runs, so whoever waits for its read is not left waiting).
// Unchecked: `busy`, `waiting`, `next` only under `lock`; `engine` and a body taken only on the lane's queue.
package final class ReaderLane: @unchecked Sendable {
    package let reader: String
    private let engine: ReadEngine
    private let queue: DispatchQueue
    private let lock = NSLock()
    private var busy = false
    private var waiting: (body: (ReadEngine) -> Void, dropped: () -> Void)?
    /// The body handed to the queue, until the queue takes it.
    private var next: ((ReadEngine) -> Void)?

    package init(reader: String, engine: ReadEngine) {
        self.reader = reader
        self.engine = engine
        queue = DispatchQueue(label: "transit.watch.\(reader)")
    }

    /// Runs `body` with the lane's engine once the reads before it are done; `dropped` runs instead
    /// when a newer tap replaces it while it waits.
    package func read(_ body: @escaping (ReadEngine) -> Void, dropped: @escaping () -> Void = {}) {
        lock.lock()
        guard !busy else {
            let replaced = waiting?.dropped
            waiting = (body, dropped)
            lock.unlock()
            replaced?()
            return
        }
        busy = true
        run(body)
        lock.unlock()
    }

    /// With `lock` held: `body` runs next on the queue, handed over through `next` (the queue's
    /// closure takes only the lane).
    private func run(_ body: @escaping (ReadEngine) -> Void) {
        next = body
        queue.async { [self] in
            lock.lock()
            let body = next
            next = nil
            lock.unlock()
            body?(engine)
            lock.lock()
            defer { lock.unlock() }
            if let queued = waiting {
                waiting = nil
                run(queued.body)
            } else {
                busy = false
            }
        }
    }
}

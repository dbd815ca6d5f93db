import Foundation
import TransitEngine

/// One reader of a watch: its reads run one at a time on its own thread with its own read engine (and plugin worker).
/// A tap that comes while the reader is busy waits for the read before it (one waits at most: a
/// newer tap replaces it, since the card of the older one has gone).
package final class ReaderLane: @unchecked Sendable {
    package let reader: String
    private let engine: ReadEngine
    private let queue: DispatchQueue
    private let lock = NSLock()
    private var busy = false
    private var waiting: ((ReadEngine) -> Void)?

    package init(reader: String, engine: ReadEngine) {
        self.reader = reader
        self.engine = engine
        queue = DispatchQueue(label: "transit.watch.\(reader)")
    }

    package func read(_ body: @escaping (ReadEngine) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        guard !busy else { waiting = body; return }
        busy = true
        run(body)
    }

    private func run(_ body: @escaping (ReadEngine) -> Void) {
        queue.async { [self] in
            body(engine)
            lock.lock()
            defer { lock.unlock() }
            if let next = waiting {
                waiting = nil
                run(next)
            } else {
                busy = false
            }
        }
    }
}

import Foundation
import TransitModel

/// A clock a test moves: `sleep(until:)` returns at once with the time set to the deadline, so a
/// silent reader's wait or a slow reset is told in the test's seconds and costs no real time.
/// It starts at the system's now, so deadlines made on it are near the system's.
package final class TestClock: MonotonicClock {
    private let lock = NSLock()
    private var current: Deadline

    package init(startingAt start: Deadline = .now) { current = start }

    package var now: Deadline { lock.withLock { current } }

    /// Sets the time to `deadline` when that is later.
    package func sleep(until deadline: Deadline) { lock.withLock { current = max(current, deadline) } }

    /// Moves the time on by `seconds` (a reader that takes that long).
    package func advance(by seconds: Double) { lock.withLock { current = Deadline(seconds, after: current) } }
}

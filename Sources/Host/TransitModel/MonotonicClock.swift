import Dispatch
import Foundation

/// The clock reads and waits tell time by: `SystemClock` (the machine's uptime, `Deadline`'s own)
/// in what ships, a clock a test moves in the tests, so that a silent reader's wait or a slow
/// reset costs a test no real time. Waits on Dispatch (a call thread's semaphore, a worker's poll)
/// keep the system's clock: they wait on the kernel.
package protocol MonotonicClock: AnyObject {
    /// The time now, as a point on this clock.
    var now: Deadline { get }
    /// Returns at `deadline` (at once when it has passed).
    func sleep(until deadline: Deadline)
}

extension MonotonicClock {
    /// `seconds` from now on this clock.
    package func deadline(in seconds: Double) -> Deadline { Deadline(seconds, after: now) }
    package func secondsLeft(until deadline: Deadline) -> Double { deadline.secondsLeft(at: now) }
    package func hasPassed(_ deadline: Deadline) -> Bool { deadline.hasPassed(at: now) }
    /// Seconds since `start` on this clock.
    package func seconds(since start: Deadline) -> Double { now.seconds(since: start) }
}

/// The machine's monotonic clock (`DispatchTime`'s uptime), on which `Deadline`s pass.
package final class SystemClock: MonotonicClock, Sendable {
    package static let shared = SystemClock()

    package init() {}

    package var now: Deadline { .now }

    package func sleep(until deadline: Deadline) {
        let left = deadline.secondsLeft
        if left > 0 { Thread.sleep(forTimeInterval: min(left, 1e9)) }
    }
}

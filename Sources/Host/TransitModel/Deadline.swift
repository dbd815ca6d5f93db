import Dispatch

/// A point in time on the monotonic clock (`DispatchTime`): a read's deadline, made once and handed
/// down to whatever waits on its behalf. Setting the wall clock neither ends nor extends it, and it
/// means the same in the plugin worker (the machine's uptime is shared by its processes).
package struct Deadline: Codable, Equatable, Comparable, Sendable {
    /// Nanoseconds of uptime, as `DispatchTime.uptimeNanoseconds` counts them.
    package let uptimeNanoseconds: UInt64

    package init(uptimeNanoseconds: UInt64) { self.uptimeNanoseconds = uptimeNanoseconds }

    /// `seconds` from now on the system's clock (a negative or NaN span is now; an infinite or
    /// huge one, `distant`). `MonotonicClock.deadline(in:)` is the same on a clock of one's choice.
    package init(secondsFromNow seconds: Double) { self.init(seconds, after: .now) }

    /// `seconds` after `start` (a negative or NaN span is `start`; an infinite or huge one, `distant`).
    package init(_ seconds: Double, after start: Deadline) {
        guard seconds > 0 else { self = start; return }
        // Below 2^63 ns (292 years) the sum cannot overflow; a longer span is for ever.
        guard seconds < 9.2e9 else { self = .distant; return }
        let (sum, overflow) = start.uptimeNanoseconds.addingReportingOverflow(UInt64(seconds * 1e9))
        self.init(uptimeNanoseconds: overflow ? .max : sum)
    }

    /// Never reached.
    package static let distant = Deadline(uptimeNanoseconds: .max)
    package static var now: Deadline { Deadline(uptimeNanoseconds: DispatchTime.now().uptimeNanoseconds) }

    /// Seconds left on the system's clock, 0 once it has passed.
    package var secondsLeft: Double { secondsLeft(at: .now) }

    package var hasPassed: Bool { hasPassed(at: .now) }

    /// Seconds left when the time is `now`, 0 once it has passed.
    package func secondsLeft(at now: Deadline) -> Double {
        uptimeNanoseconds > now.uptimeNanoseconds ? Double(uptimeNanoseconds - now.uptimeNanoseconds) / 1e9 : 0
    }

    package func hasPassed(at now: Deadline) -> Bool { now.uptimeNanoseconds >= uptimeNanoseconds }

    /// Seconds from `earlier` to this point, 0 when it is not later.
    package func seconds(since earlier: Deadline) -> Double { secondsLeft(at: earlier) }

    /// The earlier of this deadline and `seconds` from now.
    package func capped(atSecondsFromNow seconds: Double) -> Deadline { min(self, Deadline(secondsFromNow: seconds)) }

    package var dispatchTime: DispatchTime {
        uptimeNanoseconds == .max ? .distantFuture : DispatchTime(uptimeNanoseconds: uptimeNanoseconds)
    }

    package static func < (a: Deadline, b: Deadline) -> Bool { a.uptimeNanoseconds < b.uptimeNanoseconds }
}

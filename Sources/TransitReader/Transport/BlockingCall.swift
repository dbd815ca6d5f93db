import Dispatch
import Foundation

/// A libpcsclite call that may never return (a reader that stopped answering) run with a deadline.
/// A call past its deadline is abandoned on its own thread: it holds its context's lock for ever, so
/// that context and its card handles must never be used or released again (`Abandonment`).
package enum BlockingCall {
    /// The call's value, or nil when it did not return within `seconds`. When an abandoned call
    /// returns after all, `late` runs on its thread with the value (to give back what it took: a
    /// transaction, a handle, a context).
    package static func run<T>(within seconds: Double, _ call: @escaping () -> T, late: @escaping (T) -> Void = { _ in }) -> T? {
        let box = CallResult<T>()
        Thread.detachNewThread {
            let value = call()
            box.lock.lock()
            box.value = value
            let abandoned = box.abandoned
            box.lock.unlock()
            box.done.signal()
            if abandoned { late(value) }
        }
        if box.done.wait(timeout: .now() + max(0, seconds)) == .success { return box.value }
        box.lock.lock()
        defer { box.lock.unlock() }
        if let value = box.value { return value } // it returned just as the wait gave up
        box.abandoned = true
        return nil
    }
}

/// The value a call on another thread hands back.
private final class CallResult<T>: @unchecked Sendable {
    package var value: T?
    package var abandoned = false
    package let lock = NSLock()
    package let done = DispatchSemaphore(value: 0)
}

/// Whether this process left a call blocked inside libpcsclite. Such a process ends with `_exit`:
/// an orderly exit could wait on the lock the blocked call holds.
package enum Abandonment {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var flag = false

    package static var happened: Bool { lock.lock(); defer { lock.unlock() }; return flag }
    package static func mark() { lock.lock(); flag = true; lock.unlock() }
}

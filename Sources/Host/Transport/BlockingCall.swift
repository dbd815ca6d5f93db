import Dispatch
import Foundation

/// A libpcsclite call that may never return (a reader that stopped answering) run with a deadline.
/// A call past its deadline is abandoned on its own thread: it holds its context's lock for ever, so
/// that context and its card handles must never be used or released again (`Abandonment`).
enum BlockingCall {
    /// The call's value, or nil when it did not return within `seconds`.
    static func run<T>(within seconds: Double, _ call: @escaping () -> T) -> T? {
        let box = CallResult<T>()
        Thread.detachNewThread {
            box.value = call()
            box.done.signal()
        }
        guard box.done.wait(timeout: .now() + max(0, seconds)) == .success else { return nil }
        return box.value
    }
}

/// The value a call on another thread hands back.
private final class CallResult<T>: @unchecked Sendable {
    var value: T?
    let done = DispatchSemaphore(value: 0)
}

/// Whether this process left a call blocked inside libpcsclite. Such a process ends with `_exit`:
/// an orderly exit could wait on the lock the blocked call holds.
enum Abandonment {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var flag = false

    static var happened: Bool { lock.lock(); defer { lock.unlock() }; return flag }
    static func mark() { lock.lock(); flag = true; lock.unlock() }
}

import Dispatch
import Foundation
import Synchronization
import TransitModel

/// The one thread a pcscd context's calls run on, fed by a queue, so a read starts the same threads
/// whatever its number of exchanges. A libpcsclite call that may never return (a reader that stopped
/// answering) is waited on with a deadline; a call past it is abandoned on that thread: it holds
/// its context's lock for ever, so that context and its card handles are never used or released
/// again (`Abandonment`), and the thread ends when the call returns, if ever.
// Unchecked: `jobs` and `closed` only under `condition`; a job's captures are its thread's until the caller has the value.
package final class CallThread: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs = [() -> Void]()
    private var closed = false

    package init(name: String) {
        let thread = Thread { [self] in serve() }
        thread.name = name
        thread.start()
    }

    /// Lets the thread end once the jobs queued before this call have run.
    package func close() {
        condition.lock()
        closed = true
        condition.signal()
        condition.unlock()
    }

    private func serve() {
        while true {
            condition.lock()
            while jobs.isEmpty && !closed { condition.wait() }
            guard !jobs.isEmpty else { condition.unlock(); return }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }

    /// The call's value, or nil when it did not return by `deadline`. When an abandoned call
    /// returns after all, `late` runs on the thread with the value (to give back what it took: a
    /// transaction, a handle, a context).
    package func run<T>(by deadline: Deadline, _ call: @escaping () -> T, late: @escaping (T) -> Void = { _ in }) -> T? {
        let box = CallResult<T>()
        condition.lock()
        jobs.append {
            let value = call()
            box.lock.lock()
            box.value = value
            let abandoned = box.abandoned
            box.lock.unlock()
            box.done.signal()
            if abandoned { late(value) }
        }
        condition.signal()
        condition.unlock()
        if box.done.wait(timeout: deadline.dispatchTime) == .success { return box.value }
        box.lock.lock()
        defer { box.lock.unlock() }
        if let value = box.value { return value } // it returned just as the wait gave up
        box.abandoned = true
        return nil
    }
}

/// The value a call on another thread hands back.
// Unchecked: `value` and `abandoned` only under `lock`; the value goes to the waiting caller, or to `late` once abandoned.
private final class CallResult<T>: @unchecked Sendable {
    var value: T?
    var abandoned = false
    let lock = NSLock()
    let done = DispatchSemaphore(value: 0)
}

/// Whether this process left a call blocked inside libpcsclite. Such a process ends with `_exit`:
/// an orderly exit could wait on the lock the blocked call holds.
package enum Abandonment {
    private static let flag = Mutex(false)

    package static var happened: Bool { flag.withLock { $0 } }
    package static func mark() { flag.withLock { $0 = true } }
}

import Foundation
import Synchronization

/// The plugin reads in progress, by the token their host table carries as its context. A call
/// through a table whose read has returned, or from a thread other than the reading one, finds
/// nothing and is refused: a plugin that kept the table can never reach another card's read.
package enum InvocationRegistry {
    private static let lock = NSLock()
    // Safe: used only with `lock` held; an invocation is handed back only to the thread reading it.
    nonisolated(unsafe) private static var reads = [UInt: (invocation: PluginInvocation, thread: pthread_t)]()
    private static let nextToken = Atomic<UInt>(1)

    package static func register(_ invocation: PluginInvocation) -> UInt {
        lock.lock(); defer { lock.unlock() }
        let token = nextToken.wrappingAdd(1, ordering: .relaxed).oldValue
        reads[token] = (invocation, pthread_self())
        return token
    }

    package static func retire(_ token: UInt) {
        lock.lock(); defer { lock.unlock() }
        reads[token] = nil
    }

    /// The read of `token`, when it is in progress and this is its thread.
    package static func live(_ token: UInt) -> PluginInvocation? {
        lock.lock(); defer { lock.unlock() }
        guard let read = reads[token], pthread_equal(read.thread, pthread_self()) != 0 else { return nil }
        return read.invocation
    }
}

/// Option values handed to plugins as C strings, one copy per plugin and key for the life of the
/// process: a pointer a plugin kept past its read still reads its own option, never freed memory.
package enum OptionStrings {
    private static let lock = NSLock()
    // Safe: used only with `lock` held; a string is never written again once copied.
    nonisolated(unsafe) private static var strings = [String: UnsafeMutablePointer<CChar>]()

    package static func cString(plugin: String, key: String, value: String) -> UnsafePointer<CChar>? {
        lock.lock(); defer { lock.unlock() }
        let id = "\(plugin)\u{0}\(key)\u{0}\(value)"
        if let held = strings[id] { return UnsafePointer(held) }
        guard let copy = strdup(value) else { return nil }
        strings[id] = copy
        return UnsafePointer(copy)
    }
}

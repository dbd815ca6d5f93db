import Foundation

/// What `transit` tells the user on stderr of a file or folder it passed over (another user's
/// `XDG_DATA_HOME`, an untrusted conf it fell through), each once a process. The CLI sets `say`.
package enum Notices {
    nonisolated(unsafe) package static var say: (String) -> Void = { _ in }
    private static let lock = NSLock()
    nonisolated(unsafe) private static var said = Set<String>()

    package static func once(_ text: String) {
        lock.lock()
        let first = said.insert(text).inserted
        lock.unlock()
        if first { say(text) }
    }
}

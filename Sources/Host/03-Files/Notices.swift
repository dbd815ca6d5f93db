import Foundation
import TransitModel

/// What `transit` tells the user on stderr of a file or folder it passed over (another user's
/// `XDG_DATA_HOME`, an untrusted conf it fell through), each once a process. The CLI sets `say`.
package enum Notices {
    nonisolated(unsafe) package static var say: (String) -> Void = { _ in }
    private static let lock = NSLock()
    nonisolated(unsafe) private static var said = Set<String>()

    /// Says `words` in the chosen language, once a process.
    package static func once(_ words: L10n.Words) {
        lock.lock()
        let first = said.insert(words.english).inserted
        lock.unlock()
        if first { say(words.said) }
    }
}

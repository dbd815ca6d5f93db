import Foundation
import Synchronization
import TransitModel

/// What `transit` tells the user on stderr of a file or folder it passed over (another user's
/// `XDG_DATA_HOME`, an untrusted conf it fell through), each once a process. The CLI sets `say`.
package enum Notices {
    package static var say: @Sendable (String) -> Void {
        get { state.withLock { $0.say } }
        set { state.withLock { $0.say = newValue } }
    }
    private static let state = Mutex<(say: @Sendable (String) -> Void, said: Set<String>)>((say: { _ in }, said: []))

    /// Says `words` in the chosen language, once a process.
    package static func once(_ words: L10n.Words) {
        let say = state.withLock { $0.said.insert(words.english).inserted ? $0.say : nil }
        say?(words.said)
    }
}

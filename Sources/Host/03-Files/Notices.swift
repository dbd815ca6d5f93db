import Foundation
import Synchronization

/// What `transit` tells the user on stderr of a file or folder it passed over (another user's
/// `XDG_DATA_HOME`, an untrusted conf it fell through), each once a process. The CLI sets `say`.
package enum Notices {
    package static var say: @Sendable (String) -> Void {
        get { state.withLock { $0.say } }
        set { state.withLock { $0.say = newValue } }
    }
    private static let state = Mutex<(say: @Sendable (String) -> Void, said: Set<String>)>((say: { _ in }, said: []))

    package static func once(_ text: String) {
        let say = state.withLock { $0.said.insert(text).inserted ? $0.say : nil }
        say?(text)
    }
}

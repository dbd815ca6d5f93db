import Foundation

/// The FeliCa dialect each reader turned out to speak, kept for the rest of the process (a `watch`
/// serving many taps asks a refusing reader only once).
package final class DialectMemory: @unchecked Sendable {
    package static let shared = DialectMemory()
    private var dialects = [String: FeliCaDialect]()
    private let lock = NSLock()

    package init() {}

    package func dialect(for reader: String) -> FeliCaDialect? {
        lock.lock(); defer { lock.unlock() }
        return dialects[reader]
    }

    /// Keeps the dialect a read on `reader` ended in when the reader refused another on the way.
    package func learn(reader: String, kept: FeliCaDialect?, refused: [FeliCaDialect]) {
        guard let kept, !refused.isEmpty, !refused.contains(kept) else { return }
        lock.lock(); defer { lock.unlock() }
        dialects[reader] = kept
    }
}

import Synchronization

/// The FeliCa dialect each reader turned out to speak, kept for the rest of the process (a `watch`
/// serving many taps asks a refusing reader only once).
package final class DialectMemory: Sendable {
    package static let shared = DialectMemory()
    private let dialects = Mutex([String: FeliCaDialect]())

    package init() {}

    package func dialect(for reader: String) -> FeliCaDialect? {
        dialects.withLock { $0[reader] }
    }

    /// Keeps the dialect a read on `reader` ended in when the reader refused another on the way.
    package func learn(reader: String, kept: FeliCaDialect?, refused: [FeliCaDialect]) {
        guard let kept, !refused.isEmpty, !refused.contains(kept) else { return }
        dialects.withLock { $0[reader] = kept }
    }
}

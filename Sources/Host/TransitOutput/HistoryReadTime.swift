import Foundation
import Synchronization

extension HistoryOutput {
    /// The archive's read times (`2026-11-05T07:30:00.123Z`), made once for every line that shows
    /// one; in a Mutex, as an ISO8601DateFormatter is not Sendable.
    static let readAtParser = Mutex({
        let parser = ISO8601DateFormatter()
        parser.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return parser
    }())
}

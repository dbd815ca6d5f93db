import TransitModel
import TransitTransport

/// pcscd's readers as a `ReaderSource`: listed with their cards' ATRs; pcscd holds them, so there
/// is nothing to give back.
package final class PCSCReaderSource: ReaderSource {
    package init() {}

    package var transport: ReaderTransport { .pcsc }

    package func list(by deadline: Deadline) throws -> [ListedReader] {
        let context = try PCSCContext()
        return try context.states(try context.readers()).map {
            ListedReader(name: $0.reader, transport: .pcsc, atr: $0.present ? $0.atr : nil)
        }
    }

    package func giveBackAll() {}
}

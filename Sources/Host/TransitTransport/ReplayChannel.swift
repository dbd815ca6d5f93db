import CardProtocol
import TransitModel
/// `transit replay`: answers from a log bundle, strictly. The read must ask the same commands in
/// the same order; the first divergence ends it naming both commands.
package final class ReplayChannel: ReaderChannel {
    private let exchanges: [RecordedExchange]
    private var next = 0

    /// The reader's name, its ATR in hex and what its driver reported then (so the replay names the
    /// blocks the read named), and the exchanges in the order they were made.
    package init(reader: String, atr: String, maxCommand: Int?, exchanges: [RecordedExchange]) throws {
        guard let bytes = HexFormat.bytes(atr) else { throw TransitError(.config, L10n.words("the log's ATR is not hex: %1$s", .init(TerminalText.excerpt(atr)))) }
        self.readerName = reader; self.atr = bytes; self.maxCommand = maxCommand; self.exchanges = exchanges
    }

    package let readerName: String
    package let atr: [UInt8]
    package let maxCommand: Int?

    /// A log answers at once: the deadline is the recorded read's, not this one's.
    package func transmit(_ apdu: [UInt8], by deadline: Deadline) throws(TransitError) -> [UInt8] {
        // A Load Keys is recorded without its key: the replay compares it so.
        let asked = StorageCommand.recorded(apdu)
        guard next < exchanges.count else {
            throw TransitError(.replayDiverged, L10n.words("exchange %1$s: the read asks %2$s, but the log ends after %3$s exchanges", .init(String(next + 1)), .init(asked),
                                                           .init(String(exchanges.count))))
        }
        let recorded = exchanges[next]
        next += 1
        guard recorded.command == asked else {
            throw TransitError(.replayDiverged, L10n.words("exchange %1$s: the read asks %2$s, the log has %3$s", .init(String(next)), .init(asked),
                                                           .init(TerminalText.excerpt(recorded.command))))
        }
        if let e = recorded.error {
            // The log holds the last attempt of a read: a reset card is read again from the start
            // (`ReadEngine`), and so is the log.
            if e.kind == .cardReset { next = 0 }
            throw e
        }
        guard let answer = HexFormat.bytes(recorded.response ?? "") else {
            throw TransitError(.config, L10n.words("exchange %1$s of the log: the answer is not hex", .init(String(next))))
        }
        return answer
    }
}

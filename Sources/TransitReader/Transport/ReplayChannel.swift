import CardProtocol
import TransitModel
/// `transit replay`: answers from a log bundle, strictly. The read must ask the same commands in
/// the same order; the first divergence ends it naming both commands.
package final class ReplayChannel: ReaderChannel {
    private let log: LogBundle
    private var next = 0

    package init(_ log: LogBundle) throws {
        self.log = log
        guard let atr = HexFormat.bytes(log.atr) else { throw TransitError(.config, "the log's ATR is not hex: \(log.atr)") }
        self.atr = atr
    }

    package var readerName: String { log.reader }
    package let atr: [UInt8]
    /// What the reader's driver reported then, so the replay names the blocks the read named.
    package var maxCommand: Int? { log.maxCommand }

    package func transmit(_ apdu: [UInt8]) throws(TransitError) -> [UInt8] {
        let asked = HexFormat.string(apdu)
        guard next < log.exchanges.count else {
            throw TransitError(.replayDiverged, "exchange \(next + 1): the read asks \(asked), but the log ends after \(log.exchanges.count) exchanges")
        }
        let recorded = log.exchanges[next]
        next += 1
        guard recorded.command == asked else {
            throw TransitError(.replayDiverged, "exchange \(next): the read asks \(asked), the log has \(recorded.command)")
        }
        if let e = recorded.error {
            // The log holds the last attempt of a read: a reset card is read again from the start
            // (`ReadEngine`), and so is the log.
            if e.kind == .cardReset { next = 0 }
            throw e
        }
        guard let answer = HexFormat.bytes(recorded.response ?? "") else {
            throw TransitError(.config, "exchange \(next) of the log: the answer is not hex")
        }
        return answer
    }
}

/// `transit replay`: answers from a log bundle, strictly. The read must ask the same commands in
/// the same order; the first divergence ends it naming both commands.
final class ReplayChannel: ReaderChannel {
    private let log: LogBundle
    private var next = 0

    init(_ log: LogBundle) throws {
        self.log = log
        atr = try HexFormat.bytes(log.atr)
    }

    var readerName: String { log.reader }
    let atr: [UInt8]
    /// What the reader's driver reported then, so the replay names the blocks the read named.
    var maxCommand: Int? { log.maxCommand }

    func transmit(_ apdu: [UInt8]) throws -> [UInt8] {
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
            throw TransitError(TransitError.Kind(rawValue: e.kind) ?? .communication, e.message)
        }
        return try HexFormat.bytes(recorded.response ?? "")
    }
}

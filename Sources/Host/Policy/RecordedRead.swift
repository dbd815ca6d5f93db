import ReaderABI

/// One read of the card on a channel, kept as a log bundle: scan, replay, verify and dump share it.
struct RecordedRead {
    let plugins: [LoadedPlugin]
    var log: (String) -> Void = { _ in }

    /// The reading (or the error that ended the read) and the bundle that records it.
    /// `dialect` forces one; otherwise `firstGuess` (or the reader name's) is tried first.
    func perform(on channel: ReaderChannel, dialect: FeliCaDialect?, firstGuess: FeliCaDialect? = nil,
                 cancellation: Cancellation = Cancellation()) -> (result: Result<CardReading, TransitError>, bundle: LogBundle) {
        let recorder = RecordingChannel(channel)
        var outcomes = [LogBundle.PluginOutcome]()
        var runner = ProbeRunner(plugins: plugins, log: log)
        runner.outcome = { outcomes.append(.init(name: $0, outcome: $1)) }
        let session = CardSession(channel: recorder, dialect: dialect, firstGuess: firstGuess, cancellation: cancellation)
        session.log = log
        let result: Result<CardReading, TransitError>
        do {
            result = .success(try runner.read(session).reading)
        } catch let e as TransitError {
            result = .failure(e)
        } catch {
            result = .failure(TransitError(.communication, "\(error)"))
        }
        var bundle = LogBundle(tool: HelpText.version, abiVersion: Int(TRANSIT_ABI_VERSION), reader: channel.readerName,
                               dialect: session.dialect.rawValue,
                               refusedDialects: session.refusedDialects.isEmpty ? nil : session.refusedDialects.map(\.rawValue), atr: HexFormat.string(channel.atr), uid: recorder.uid,
                               initialAID: recorder.initialAID, plugins: outcomes, exchanges: recorder.exchanges,
                               outcome: "read", result: nil, error: nil)
        switch result {
        case .success(let r): bundle.result = r
        case .failure(let e):
            bundle.outcome = e.kind.reported
            bundle.error = .init(e)
        }
        return (result, bundle)
    }
}

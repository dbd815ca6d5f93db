import ReaderABI

/// One read of the card on a channel, kept as a log bundle: scan, replay, verify and dump share it.
struct RecordedRead {
    let plugins: [LoadedPlugin]
    var log: (String) -> Void = { _ in }
    /// Limits of each plugin's read.
    var budget = ReadBudget()

    /// The reading (or the error that ended the read) and the bundle that records it.
    /// `dialect` forces one; otherwise `firstGuess` (or the reader name's) is tried first.
    func perform(on channel: ReaderChannel, dialect: FeliCaDialect?, firstGuess: FeliCaDialect? = nil) -> (result: Result<CardReading, TransitError>, bundle: LogBundle) {
        let recorder = RecordingChannel(channel)
        var outcomes = [LogBundle.PluginOutcome]()
        var runner = ProbeRunner(plugins: plugins, log: log, budget: budget)
        runner.outcome = { outcomes.append(.init(name: $0, outcome: $1)) }
        let session = CardSession(channel: recorder, dialect: dialect, firstGuess: firstGuess)
        let result = Self.read(session, with: runner)
        let bundle = LogBundle(read: result, channel: channel, recorder: recorder, dialect: session.dialect?.rawValue ?? "none",
                               refusedDialects: session.refusedDialects.map(\.rawValue), plugins: outcomes)
        return (result, bundle)
    }
}

extension RecordedRead {
    /// The probe on `session`, every failure as a `TransitError`: the in-process read and the worker's.
    static func read(_ session: CardSession, with runner: ProbeRunner) -> Result<CardReading, TransitError> {
        session.log = runner.log
        let result: Result<CardReading, TransitError>
        do {
            result = .success(try runner.read(session).reading)
        } catch let e as TransitError {
            result = .failure(e)
        } catch {
            result = .failure(TransitError(.communication, "\(error)"))
        }
        if case .failure(let e) = result { session.finish(after: e) } else { session.finish(after: nil) }
        return result
    }
}

extension LogBundle {
    /// The bundle of a read that ended with `read`, its exchanges as `recorder` kept them.
    init(read: Result<CardReading, TransitError>, channel: ReaderChannel, recorder: RecordingChannel, dialect: String,
         refusedDialects: [String], plugins: [PluginOutcome]) {
        self.init(tool: HelpText.version, abiVersion: Int(TRANSIT_ABI_VERSION), reader: channel.readerName,
                  readerProfile: ReaderProfile.matching(channel.readerName).name, maxCommand: channel.maxCommand, dialect: dialect,
                  refusedDialects: refusedDialects.isEmpty ? nil : refusedDialects, atr: HexFormat.string(channel.atr),
                  uid: recorder.uid, initialAID: recorder.initialAID, plugins: plugins, exchanges: recorder.exchanges,
                  outcome: "read", result: nil, error: nil)
        switch read {
        case .success(let r): result = r
        case .failure(let e):
            outcome = e.kind.reported
            error = .init(e)
        }
    }
}

import TransitModel

/// Where a read's plugins run: in the supervised worker (`PluginWorker`, what ships) or in this
/// process (`InProcessRunner`: the worker itself, and benchmarks). The engine records the channel
/// it hands over; the runner reports how the probe went.
package protocol PluginRunner: AnyObject {
    func probe(_ channel: ReaderChannel, _ request: ProbeRequest) -> ProbeReport
}

/// What a probe is asked to do besides reading the card.
package struct ProbeRequest: Codable, Equatable {
    /// The FeliCa dialect `--dialect` forces.
    package var forcedDialect: FeliCaDialect?
    /// The dialect tried first (the one the reader spoke last time), when none is forced.
    package var firstGuess: FeliCaDialect?
    package var limits: ReadLimits
}

/// How a probe ended: the reading or the error, the dialect FeliCa frames travelled in, the
/// dialects the reader refused on the way, and what each plugin asked said.
package struct ProbeReport: Codable {
    package var reading: CardReading?
    package var error: TransitError?
    package var dialect: String
    package var refusedDialects: [String]
    package var outcomes: [LogBundle.PluginOutcome]

    package init(_ result: Result<CardReading, TransitError>, dialect: String, refusedDialects: [String], outcomes: [LogBundle.PluginOutcome]) {
        switch result {
        case .success(let r): reading = r
        case .failure(let e): error = e
        }
        self.dialect = dialect; self.refusedDialects = refusedDialects; self.outcomes = outcomes
    }

    package var result: Result<CardReading, TransitError> {
        if let reading { return .success(reading) }
        return .failure(error ?? TransitError(.internal, "a probe reported neither a reading nor an error"))
    }
}

/// Runs the plugins in this process. The worker process runs its reads through one of these.
package final class InProcessRunner: PluginRunner {
    package let plugins: [LoadedPlugin]
    /// Plugin and policy log lines.
    package var log: (String) -> Void = { _ in }
    /// Each plugin's outcome as it happens (the worker streams them to the host).
    package var outcome: (LogBundle.PluginOutcome) -> Void = { _ in }
    /// Told the name of each plugin before its code runs, and nil after the probe.
    package var running: (String?) -> Void = { _ in }

    package init(plugins: [LoadedPlugin]) { self.plugins = plugins }

    package func probe(_ channel: ReaderChannel, _ request: ProbeRequest) -> ProbeReport {
        var outcomes = [LogBundle.PluginOutcome]()
        var runner = ProbeRunner(plugins: plugins, log: log, limits: request.limits)
        runner.outcome = { [outcome] in
            let o = LogBundle.PluginOutcome(name: $0, outcome: $1)
            outcomes.append(o)
            outcome(o)
        }
        runner.willRun = running
        let session = CardSession(channel: channel, dialect: request.forcedDialect, firstGuess: request.firstGuess)
        session.log = log
        let result = runner.probe(session)
        running(nil)
        return ProbeReport(result, dialect: session.dialect?.rawValue ?? "none",
                           refusedDialects: session.refusedDialects.map(\.rawValue), outcomes: outcomes)
    }
}

import TransitModel
import TransitTransport
import TransitPluginHost

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
    /// The read's one deadline, made by the engine: the transport, the worker and each plugin's
    /// call end by it.
    package var deadline: Deadline
    /// The MIFARE Classic keys the user brought (and a dump's trailers): the worker's pipe carries
    /// them; nothing else does, no log or bundle holds them.
    package var keys = ClassicKeyRing()
    /// `transit replay` of a MIFARE Classic read: its key record, answered instead of keys.
    package var replayedKeys: ClassicKeyRecord?
}

/// How a probe ended: the reading or the error, the dialect FeliCa frames travelled in, the
/// dialects the reader refused on the way, and what each plugin asked said.
package struct ProbeReport {
    package var result: Result<CardReading, TransitError>
    package var dialect: FeliCaDialect?
    package var refusedDialects: [FeliCaDialect]
    package var outcomes: [PluginOutcome]
    /// A MIFARE Classic read's key record (count and digest answers, never a key), for the bundle.
    package var classicKeys: ClassicKeyRecord?

    package init(_ result: Result<CardReading, TransitError>, dialect: FeliCaDialect?, refusedDialects: [FeliCaDialect] = [],
                 outcomes: [PluginOutcome], classicKeys: ClassicKeyRecord? = nil) {
        self.result = result; self.dialect = dialect; self.refusedDialects = refusedDialects; self.outcomes = outcomes
        self.classicKeys = classicKeys
    }
}

/// The worker's pipe carries a report as `{"reading"|"error", "dialect"?, "refusedDialects", "outcomes"}`;
/// one with neither a reading nor an error does not decode.
extension ProbeReport: Codable {
    private enum CodingKeys: String, CodingKey { case reading, error, dialect, refusedDialects, outcomes, classicKeys }

    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let reading = try c.decodeIfPresent(CardReading.self, forKey: .reading) {
            result = .success(reading)
        } else if let error = try c.decodeIfPresent(TransitError.self, forKey: .error) {
            result = .failure(error)
        } else {
            throw DecodingError.dataCorruptedError(forKey: .reading, in: c, debugDescription: "a report with neither a reading nor an error")
        }
        dialect = try c.decodeIfPresent(FeliCaDialect.self, forKey: .dialect)
        refusedDialects = try c.decode([FeliCaDialect].self, forKey: .refusedDialects)
        outcomes = try c.decode([PluginOutcome].self, forKey: .outcomes)
        classicKeys = try c.decodeIfPresent(ClassicKeyRecord.self, forKey: .classicKeys)
    }

    package func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch result {
        case .success(let reading): try c.encode(reading, forKey: .reading)
        case .failure(let error): try c.encode(error, forKey: .error)
        }
        try c.encodeIfPresent(dialect, forKey: .dialect)
        try c.encode(refusedDialects, forKey: .refusedDialects)
        try c.encode(outcomes, forKey: .outcomes)
        try c.encodeIfPresent(classicKeys, forKey: .classicKeys)
    }
}

/// Runs the plugins in this process. The worker process runs its reads through one of these.
package final class InProcessRunner: PluginRunner {
    package let plugins: [LoadedPlugin]
    /// Plugin and policy log lines.
    package var log: (String) -> Void = { _ in }
    /// Each plugin's outcome as it happens (the worker streams them to the host).
    package var outcome: (PluginOutcome) -> Void = { _ in }
    /// Told the name of each plugin before its code runs, and nil after the probe.
    package var running: (String?) -> Void = { _ in }

    package init(plugins: [LoadedPlugin]) { self.plugins = plugins }

    package func probe(_ channel: ReaderChannel, _ request: ProbeRequest) -> ProbeReport {
        var outcomes = [PluginOutcome]()
        var runner = ProbeRunner(plugins: plugins, log: log, limits: request.limits, deadline: request.deadline)
        runner.outcome = { [outcome] in
            outcomes.append($0)
            outcome($0)
        }
        runner.willRun = running
        let session = CardSession(channel: channel, dialect: request.forcedDialect, firstGuess: request.firstGuess,
                                  deadline: request.deadline, keys: request.keys, replayedKeys: request.replayedKeys)
        session.log = log
        let result = runner.probe(session)
        running(nil)
        // A MIFARE Classic or Ultralight card carries no FeliCa frame: no dialect to report or learn.
        let storage = session.storage != nil
        return ProbeReport(result, dialect: storage ? nil : session.dialect, refusedDialects: storage ? [] : session.refusedDialects, outcomes: outcomes,
                           classicKeys: session.technology == .mifareClassic ? session.storage?.record : nil)
    }
}

import Foundation

/// Runs reads in a supervised worker process (`transit __plugin-worker`): the plugins run there, the
/// card stays here. The host serves the worker's exchanges from the channel, records them for the log
/// bundle, and ends the worker at the read's deadline; a plugin that crashes, exits, spins or prints
/// ends as a `plugin` fault naming it while the host carries on. One worker serves many reads; a
/// worker that was ended is replaced at the next read.
final class PluginWorker {
    let plugins: [WorkerMessages.Plugin]
    let limits: ReadLimits
    /// Plugin and policy log lines (stderr with --verbose).
    var log: (String) -> Void = { _ in }
    /// Problems the user must hear of whatever the read gives (a plugin refused at load).
    var problem: (String) -> Void = { _ in }
    private var child: (pid: pid_t, link: WorkerLink)?
    /// Reads the current worker served; it is replaced after `readsPerWorker`, which bounds what
    /// plugins leave behind in it (each read's host table stays allocated, see PluginInvocation).
    private var reads = 0
    static let readsPerWorker = 1000
    /// The plugins loaded in this process instead, when the worker is turned off (benchmarks only).
    private lazy var inProcessPlugins = plugins.map { PluginLoader.load($0.entry, path: $0.library) }

    /// `TRANSIT_PLUGIN_WORKER=0` runs plugins inside the host: only for measuring what the worker costs.
    static var enabled: Bool { ProcessInfo.processInfo.environment["TRANSIT_PLUGIN_WORKER"] != "0" }

    /// The executable started as the worker: this one, or the built `transit` when a test drives the host.
    let executable: String
    /// Lets what a plugin prints, and a crashing plugin's backtrace, reach stderr (--verbose).
    var verbose = false

    init(plugins: [WorkerMessages.Plugin], limits: ReadLimits, executable: String = "/proc/self/exe") {
        self.plugins = plugins; self.limits = limits; self.executable = executable
    }

    deinit { stop() }

    /// Reads the card on `channel`; `dialect` forces one, else `firstGuess` is tried first. A card
    /// another client reset during the read (the handle reconnected) is read again from the start, once.
    func perform(on channel: ReaderChannel, dialect: FeliCaDialect?, firstGuess: FeliCaDialect?) -> (result: Result<CardReading, TransitError>, bundle: LogBundle) {
        let first = performOnce(on: channel, dialect: dialect, firstGuess: firstGuess)
        guard case .failure(let e) = first.result, e.kind == .cardReset else { return first }
        log("\(e.message); reading it again from the start")
        return performOnce(on: channel, dialect: dialect, firstGuess: firstGuess)
    }

    private func performOnce(on channel: ReaderChannel, dialect: FeliCaDialect?, firstGuess: FeliCaDialect?) -> (result: Result<CardReading, TransitError>, bundle: LogBundle) {
        guard Self.enabled else {
            inProcessPlugins.compactMap(\.refusal).forEach(problem)
            var read = RecordedRead(plugins: inProcessPlugins, log: log)
            read.budget = ReadBudget(maxExchanges: limits.maxExchanges, maxSeconds: limits.readTimeout)
            return read.perform(on: channel, dialect: dialect, firstGuess: firstGuess)
        }
        let recorder = RecordingChannel(channel)
        var outcomes = [LogBundle.PluginOutcome]()
        var final: (result: Result<CardReading, TransitError>, dialect: String, refused: [String])?
        var running: String?
        /// True when the deadline passed while the host itself waited on the reader.
        var hostWasWaiting = false
        let deadline = Date().addingTimeInterval(limits.readTimeout)
        let start = WorkerMessages.Start(plugins: plugins, reader: channel.readerName, atr: channel.atr, maxCommand: channel.maxCommand,
                                         forcedDialect: dialect?.rawValue, firstGuess: firstGuess?.rawValue,
                                         maxExchanges: limits.maxExchanges, maxSeconds: limits.readTimeout)
        let guessed = FeliCaPassThrough.firstDialect(readerName: channel.readerName, forced: dialect, firstGuess: firstGuess)?.rawValue ?? "none"
        func fail(_ e: TransitError) { final = (.failure(e), guessed, []) }
        do {
            let link = try startedWorker(with: start)
            serving: while final == nil {
                switch link.receive(until: deadline) {
                case .timedOut:
                    stop()
                    // A plugin that runs past the deadline is at fault; a read that reached it while the
                    // host was waiting on a slow reader, or with no plugin running, is not a plugin's.
                    if let running, !hostWasWaiting {
                        fail(TransitError(.plugin, "plugin \(running) did not finish the read within its deadline of "
                                          + "\(PCSCCard.seconds(limits.readTimeout)); it was stopped", plugin: running))
                    } else {
                        fail(TransitError(.communication, "the read did not finish within its deadline of \(PCSCCard.seconds(limits.readTimeout))"))
                    }
                case .closed:
                    fail(died(running))
                case .broken:
                    stop()
                    fail(TransitError(.plugin, (running.map { "plugin \($0)" } ?? "the plugin worker") + " broke the worker's link", plugin: running))
                case .message(let kind, let payload):
                    hostWasWaiting = false
                    switch kind {
                    case .transmit:
                        do {
                            let answer = try recorder.transmit(payload)
                            hostWasWaiting = Date() >= deadline
                            link.send(.answer, answer)
                        } catch let e as TransitError {
                            hostWasWaiting = Date() >= deadline
                            link.send(.failure, json: WorkerMessages.Failure(e))
                        } catch {
                            link.send(.failure, json: WorkerMessages.Failure(TransitError(.communication, "\(error)")))
                        }
                    case .log: log(String(decoding: payload, as: UTF8.self))
                    case .plugin: running = payload.isEmpty ? nil : String(decoding: payload, as: UTF8.self)
                    case .outcome: WorkerMessages.decode(LogBundle.PluginOutcome.self, payload).map { outcomes.append($0) }
                    case .refused: problem(String(decoding: payload, as: UTF8.self))
                    case .done:
                        guard let done = WorkerMessages.decode(WorkerMessages.Done.self, payload),
                              let result: Result<CardReading, TransitError> = done.reading.map({ .success($0) }) ?? done.failure.map({ .failure($0.error) })
                        else { stop(); fail(TransitError(.plugin, "the plugin worker's answer did not parse")); break serving }
                        final = (result, done.dialect, done.refusedDialects)
                        reads += 1
                        if reads >= Self.readsPerWorker { stop() }
                    default:
                        stop()
                        fail(TransitError(.plugin, "the plugin worker sent an unexpected message"))
                    }
                }
            }
        } catch let e as TransitError {
            fail(e)
        } catch {
            fail(TransitError(.plugin, "\(error)"))
        }
        let outcome = final ?? (.failure(TransitError(.plugin, "the plugin worker ended the read without a result")), guessed, [])
        if case .failure(let e) = outcome.result, let name = e.plugin, e.kind == .plugin, !outcomes.contains(where: { $0.name == name }) {
            outcomes.append(.init(name: name, outcome: e.kind.reported))
        }
        let bundle = LogBundle(read: outcome.result, channel: channel, recorder: recorder, dialect: outcome.dialect,
                               refusedDialects: outcome.refused, plugins: outcomes)
        return (outcome.result, bundle)
    }

    /// Starts the worker and has it load the plugins now, while the host waits for the reader and
    /// the card, so the read itself pays neither.
    func prepare() {
        guard Self.enabled, let link = try? worker() else { return }
        link.send(.prepare, json: plugins)
    }

    /// A worker that took the read: the running one, or a fresh one when that one is gone.
    private func startedWorker(with start: WorkerMessages.Start) throws -> WorkerLink {
        for attempt in 0 ..< 2 {
            let link = try worker()
            if link.send(.start, json: start) { return link }
            stop() // it died between reads: reap it, and start another once
            if attempt == 1 { break }
        }
        throw TransitError(.plugin, "the plugin worker did not take the read")
    }

    /// The running worker, started when there is none.
    private func worker() throws -> WorkerLink {
        if let child { return child.link }
        let spawned = try WorkerSpawn.takePrewarmed() ?? WorkerSpawn.start(executable, verbose: verbose)
        child = spawned
        return spawned.link
    }

    /// The plugin fault for a worker that closed its link; `running` is the plugin whose code ran.
    /// A worker that closed its link but lives on (a plugin closed the fd) is given half a second
    /// to end, then killed.
    private func died(_ running: String?) -> TransitError {
        let status = reap(grace: 0.5)
        let who = running.map { "plugin \($0)" } ?? "the plugin worker"
        switch status {
        case .signal(let s) where s == SIGINT || s == SIGTERM:
            return TransitError(.cancelled, "cancelled")
        case .signal(let s):
            let name = strsignal(s).map { String(cString: $0) } ?? "signal \(s)"
            return TransitError(.plugin, "\(who) crashed (\(name), signal \(s)); the host carried on", plugin: running)
        case .exit(let code):
            return TransitError(.plugin, "\(who) ended its process (exit \(code)); the host carried on", plugin: running)
        }
    }

    /// Ends the worker (a no-op when there is none).
    func stop() {
        guard child != nil else { return }
        if let pid = child?.pid { kill(pid, SIGKILL) }
        _ = reap(grace: 0)
    }

    private enum Ending { case exit(Int32), signal(Int32) }

    /// Waits for the worker to end, killing it when it has not within `grace` seconds.
    private func reap(grace: Double) -> Ending {
        guard let (pid, link) = child else { return .exit(0) }
        child = nil
        reads = 0
        link.close()
        // Forgotten before it is reaped: once reaped, its pid may name another process.
        Termination.shared.forget(pid)
        var status: Int32 = 0
        let giveUp = Date().addingTimeInterval(grace)
        while waitpid(pid, &status, WNOHANG) == 0 {
            if Date() >= giveUp { kill(pid, SIGKILL) }
            usleep(2_000)
        }
        // wait(2) status: low seven bits the terminating signal, else the exit code in bits 8–15.
        return status & 0x7F == 0 ? .exit(status >> 8 & 0xFF) : .signal(status & 0x7F)
    }
}

/// How long a read may take, and how many exchanges its plugins may ask.
struct ReadLimits {
    /// Seconds one exchange with the reader may take.
    var exchangeTimeout: Double = 5
    /// Seconds the whole read may take, all plugins together.
    var readTimeout: Double = 20
    /// Exchanges one plugin may ask.
    var maxExchanges = 1000
}

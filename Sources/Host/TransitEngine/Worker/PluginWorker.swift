import Foundation
import TransitModel
import TransitTransport
import TransitPluginHost

/// Runs reads in a supervised worker process (`transit __plugin-worker`): the plugins run there, the
/// card stays here. The host serves the worker's exchanges from the channel, records them for the log
/// bundle, and ends the worker at the read's deadline; a plugin that crashes, exits, spins or prints
/// ends as a `plugin` fault naming it while the host carries on. One worker serves many reads; a
/// worker that was ended is replaced at the next read.
package final class PluginWorker: PluginRunner {
    package let plugins: [WorkerMessages.Plugin]
    /// Plugin and policy log lines (stderr with --verbose).
    package var log: (String) -> Void = { _ in }
    /// Problems the user must hear of whatever the read gives (a plugin refused at load).
    package var problem: (String) -> Void = { _ in }
    private var child: (pid: pid_t, link: WorkerLink)?
    /// Reads the current worker served; it is replaced after `readsPerWorker`, which bounds what
    /// plugins leave behind in it (each read's host table stays allocated, see PluginInvocation).
    private var reads = 0
    package static let readsPerWorker = 1000
    /// The reader commands the host serves one plugin in a read, counted here whatever the worker
    /// says: twice its budget of exchanges, since one exchange may take a second command (a GET
    /// RESPONSE after 61xx, the start of a Part 3 session), and a few more.
    package static func hostBudget(_ limits: ReadLimits) -> Int {
        limits.maxExchanges >= (Int.max - 16) / 2 ? Int.max : limits.maxExchanges * 2 + 16
    }

    /// The bytes of log lines, outcomes and problems a worker may send in one read.
    package static let maxLogBytes = 1 << 20

    /// `TRANSIT_PLUGIN_WORKER=0` runs plugins inside the host: only for measuring what the worker costs.
    package static var enabled: Bool { ProcessInfo.processInfo.environment["TRANSIT_PLUGIN_WORKER"] != "0" }

    /// The executable started as the worker: this one, or the built `transit` when a test drives the host.
    package let executable: String
    /// Lets what a plugin prints, and a crashing plugin's backtrace, reach stderr (--verbose).
    package var verbose = false

    package init(plugins: [WorkerMessages.Plugin], executable: String = "/proc/self/exe") {
        self.plugins = plugins; self.executable = executable
    }

    deinit { stop() }

    /// The probe, run in the worker; the worker's exchanges are served from `channel`.
    package func probe(_ channel: ReaderChannel, _ request: ProbeRequest) -> ProbeReport {
        let limits = request.limits
        var outcomes = [PluginOutcome]()
        var final: ProbeReport?
        var running: String?
        /// What the host counts itself, not trusting the worker's own counts: the running plugin's
        /// exchanges and the bytes of messages the read sent.
        var exchanges = 0, logBytes = 0
        /// True when the deadline passed while the host itself waited on the reader.
        var hostWasWaiting = false
        let deadline = request.deadline
        let start = WorkerMessages.Start(plugins: plugins, reader: channel.readerName, atr: channel.atr, maxCommand: channel.maxCommand,
                                         request: request)
        let guessed = FeliCaPassThrough.firstDialect(readerName: channel.readerName, forced: request.forcedDialect,
                                                     firstGuess: request.firstGuess)
        func fail(_ e: TransitError) { final = ProbeReport(.failure(e), dialect: guessed, refusedDialects: [], outcomes: outcomes) }
        do {
            let link = try startedWorker(with: start)
            serving: while final == nil {
                switch link.receive(until: deadline) {
                case .timedOut:
                    stop()
                    // A plugin that runs past the deadline is at fault; a read that reached it while the
                    // host was waiting on a slow reader, or with no plugin running, is not a plugin's.
                    if let running, !hostWasWaiting {
                        fail(TransitError(.plugin, L10n.words("plugin %1$s did not finish the read within its deadline of %2$s; it was stopped",
                                                              .init(running), ReadLimits.secondsWords(limits.readTimeout)), plugin: running))
                    } else {
                        fail(TransitError(.communication, L10n.words("the read did not finish within its deadline of %1$s", ReadLimits.secondsWords(limits.readTimeout))))
                    }
                case .closed:
                    fail(died(running))
                case .broken:
                    stop()
                    fail(TransitError(.plugin, L10n.words("%1$s broke the worker's link", Self.who(running)), plugin: running))
                case .message(let kind, let payload):
                    hostWasWaiting = false
                    if [.log, .outcome, .refused].contains(kind) {
                        logBytes += payload.count
                        guard logBytes <= Self.maxLogBytes else {
                            stop()
                            fail(TransitError(.plugin, L10n.words("%1$s sent more than %2$s MiB of log lines in one read; its read was ended",
                                                                  Self.who(running), .init(String(Self.maxLogBytes >> 20))), plugin: running))
                            break serving
                        }
                    }
                    switch kind {
                    case .transmit:
                        if let running {
                            exchanges += 1
                            guard exchanges <= Self.hostBudget(limits) else {
                                stop()
                                fail(TransitError(.plugin, L10n.words("""
                                    plugin %1$s asked the reader more than %2$s commands (counted by the host: twice its budget of %3$s exchanges, \
                                    and 16); its read was ended
                                    """, .init(running), .init(String(Self.hostBudget(limits))), .init(String(limits.maxExchanges))), plugin: running))
                                break serving
                            }
                        }
                        do {
                            let answer = try channel.transmit(payload, by: deadline)
                            hostWasWaiting = deadline.hasPassed
                            link.send(.answer, answer)
                        } catch {
                            hostWasWaiting = deadline.hasPassed
                            link.send(.failure, json: error)
                        }
                    case .log: log(String(decoding: payload, as: UTF8.self))
                    case .plugin:
                        running = payload.isEmpty ? nil : String(decoding: payload, as: UTF8.self)
                        exchanges = 0
                    case .outcome: WorkerMessages.decode(PluginOutcome.self, payload).map { outcomes.append($0) }
                    case .refused: problem(String(decoding: payload, as: UTF8.self))
                    case .done:
                        guard let report = WorkerMessages.decode(ProbeReport.self, payload) else {
                            stop(); fail(TransitError(.plugin, L10n.words("the plugin worker's answer did not parse"), plugin: running)); break serving
                        }
                        // The worker's reading is checked again: a plugin could have written it to the pipe itself.
                        if case .success(let reading) = report.result, let why = ResultRules.problem(in: reading) {
                            let who = running ?? report.outcomes.last(where: { $0.outcome == .read })?.name
                            stop()
                            fail(TransitError(.plugin, L10n.words("the plugin worker's reading gave %1$s", why), plugin: who))
                            break serving
                        }
                        final = report
                        reads += 1
                        if reads >= Self.readsPerWorker { stop() }
                    default:
                        stop()
                        fail(TransitError(.plugin, L10n.words("the plugin worker sent an unexpected message")))
                    }
                }
            }
        } catch {
            fail(error)
        }
        var report = final ?? ProbeReport(.failure(TransitError(.plugin, L10n.words("the plugin worker ended the read without a result"))),
                                          dialect: guessed, refusedDialects: [], outcomes: outcomes)
        if case .failure(let e) = report.result, let name = e.plugin, e.kind == .plugin, !report.outcomes.contains(where: { $0.name == name }) {
            report.outcomes.append(.init(name: name, outcome: .failed(e.kind)))
        }
        return report
    }

    /// A worker that took the read: the running one, or a fresh one when that one is gone.
    private func startedWorker(with start: WorkerMessages.Start) throws(TransitError) -> WorkerLink {
        for attempt in 0 ..< 2 {
            let link = try worker()
            if link.send(.start, json: start) { return link }
            stop() // it died between reads: reap it, and start another once
            if attempt == 1 { break }
        }
        throw TransitError(.plugin, L10n.words("the plugin worker did not take the read"))
    }

    /// The running worker, started when there is none.
    private func worker() throws(TransitError) -> WorkerLink {
        if let child { return child.link }
        let spawned: WorkerSpawn.Worker
        if let prewarmed = WorkerSpawn.takePrewarmed() { spawned = prewarmed } else { spawned = try WorkerSpawn.start(executable, verbose: verbose) }
        child = spawned
        return spawned.link
    }

    /// How to find where a plugin died (docs/ABI.md, "When a plugin crashes"): the same read with
    /// the plugins inside transit, where the fault is transit's own and a core dump shows it.
    static var debugging: L10n.Words {
        L10n.words("To debug it, run the same read with TRANSIT_PLUGIN_WORKER=0 (the plugins inside transit, unconfined; docs/ABI.md, \"When a plugin crashes\")")
    }

    /// "plugin NAME", or "the plugin worker" when no plugin's code ran.
    private static func who(_ running: String?) -> L10n.Words {
        running.map { L10n.words("plugin %1$s", .init($0)) } ?? L10n.words("the plugin worker")
    }

    /// The plugin fault for a worker that closed its link; `running` is the plugin whose code ran.
    /// A worker that closed its link but lives on (a plugin closed the fd) is given half a second
    /// to end, then killed.
    private func died(_ running: String?) -> TransitError {
        let status = reap(grace: 0.5)
        let who = Self.who(running)
        switch status {
        case .signal(let s) where s == SIGINT || s == SIGTERM:
            return TransitError(.cancelled, L10n.words("cancelled"))
        case .signal(let s):
            return TransitError(.plugin, L10n.words("%1$s crashed (%2$s, signal %3$s): the read ended. %4$s", who, L10n.signal(s), .init(String(s)), Self.debugging),
                                plugin: running)
        case .exit(let code):
            return TransitError(.plugin, L10n.words("%1$s ended its process (exit %2$s): the read ended. %3$s", who, .init(String(code)), Self.debugging), plugin: running)
        }
    }

    /// Ends the worker (a no-op when there is none).
    package func stop() {
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
        let giveUp = Deadline(secondsFromNow: grace)
        while waitpid(pid, &status, WNOHANG) == 0 {
            if giveUp.hasPassed { kill(pid, SIGKILL) }
            usleep(2_000)
        }
        // wait(2) status: low seven bits the terminating signal, else the exit code in bits 8–15.
        return status & 0x7F == 0 ? .exit(status >> 8 & 0xFF) : .signal(status & 0x7F)
    }
}

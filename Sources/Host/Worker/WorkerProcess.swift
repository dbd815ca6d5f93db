import Foundation

/// `transit __plugin-worker`: the process in which plugins run. It loads the plugins the host names,
/// runs each read's probe and talks to the card only through the host, over fds 3 (in) and 4 (out).
/// Whatever a plugin does — trap, abort, exit, spin, print — happens here, never in the host.
enum WorkerProcess {
    static let command = "__plugin-worker"
    static let inputFD: Int32 = 3, outputFD: Int32 = 4

    static func run() -> Int32 {
        // Only stdin, stdout, stderr and the link: nothing of the host's (its pcscd socket, files).
        _ = closeRange(UInt32(outputFD + 1), UInt32.max, 0)
        let link = WorkerLink(input: inputFD, output: outputFD)
        // Ctrl-C reaches the whole process group: the host decides what it means and ends us itself.
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        followParent()
        var loaded: (specs: [WorkerMessages.Plugin], plugins: [LoadedPlugin])?
        func prepare(_ specs: [WorkerMessages.Plugin]) -> [LoadedPlugin] {
            if let loaded, loaded.specs == specs { return loaded.plugins }
            let plugins = specs.map { spec in load(spec, link) }
            link.send(.plugin)
            loaded = (specs, plugins)
            return plugins
        }
        while case .message(let kind, let payload) = link.receive() {
            switch kind {
            case .prepare: // the plugins, ahead of the card: loading overlaps the host's wait for it
                guard let specs = WorkerMessages.decode([WorkerMessages.Plugin].self, payload) else { return 2 }
                _ = prepare(specs)
            case .start:
                guard let start = WorkerMessages.decode(WorkerMessages.Start.self, payload) else { return 2 }
                link.send(.done, json: read(start, plugins: prepare(start.plugins), link))
            default:
                return 2
            }
        }
        return 0
    }

    private static func load(_ spec: WorkerMessages.Plugin, _ link: WorkerLink) -> LoadedPlugin {
        link.send(.plugin, Array(spec.name.utf8)) // loading runs the library's initialisers
        let plugin = PluginLoader.load(spec.entry, path: spec.library)
        if let refusal = plugin.refusal { link.send(.refused, Array(refusal.utf8)) }
        return plugin
    }

    private static func read(_ start: WorkerMessages.Start, plugins: [LoadedPlugin], _ link: WorkerLink) -> WorkerMessages.Done {
        let log: (String) -> Void = { link.send(.log, Array($0.utf8)) }
        var runner = ProbeRunner(plugins: plugins, log: log)
        runner.budget = ReadBudget(maxExchanges: start.maxExchanges, maxSeconds: start.maxSeconds)
        runner.outcome = { link.send(.outcome, json: LogBundle.PluginOutcome(name: $0, outcome: $1)) }
        runner.willRun = { link.send(.plugin, Array($0.utf8)) }
        let session = CardSession(channel: RemoteChannel(link: link, readerName: start.reader, atr: start.atr, maxCommand: start.maxCommand),
                                  dialect: start.forcedDialect.flatMap(FeliCaDialect.init(rawValue:)),
                                  firstGuess: start.firstGuess.flatMap(FeliCaDialect.init(rawValue:)))
        let result = RecordedRead.read(session, with: runner)
        link.send(.plugin)
        var failure: WorkerMessages.Failure?
        if case .failure(let e) = result { failure = .init(e) }
        return .init(reading: try? result.get(), failure: failure,
                     dialect: session.dialect?.rawValue ?? "none",
                     refusedDialects: session.refusedDialects.map(\.rawValue))
    }

    /// Ends the worker when the host is gone, even while a plugin spins (the host's pipes may never close).
    private static func followParent() {
        let parent = getppid()
        Thread.detachNewThread {
            while getppid() == parent { usleep(200_000) }
            _exit(0)
        }
    }
}

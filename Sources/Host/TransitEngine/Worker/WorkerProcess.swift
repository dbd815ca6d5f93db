import CTransitShims
import Foundation
import Synchronization
import TransitModel
import TransitPluginHost

/// `transit __plugin-worker`: the process in which plugins run. It loads the plugins the host names,
/// runs each read's probe and talks to the card only through the host, over fds 3 (in) and 4 (out).
/// Whatever a plugin does — trap, abort, exit, spin, print — happens here, never in the host.
package enum WorkerProcess {
    package static let command = "__plugin-worker"
    /// Set once `WorkerConfinement` applied: the process stays confined (a later load would fail).
    private static let confined = Mutex(false)
    package static let inputFD: Int32 = 3, outputFD: Int32 = 4

    package static func run() -> Int32 {
        // Only stdin, stdout, stderr and the link: nothing of the host's (its pcscd socket, files).
        _ = transit_close_range(UInt32(outputFD + 1), UInt32.max, 0)
        let link = WorkerLink(input: inputFD, output: outputFD)
        // Ctrl-C reaches the whole process group: the host decides what it means and ends us itself.
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        followParent()
        var loaded: (specs: [WorkerMessages.Plugin], runner: InProcessRunner)?
        while case .message(let kind, let payload) = link.receive() {
            guard kind == .start, let start = WorkerMessages.decode(WorkerMessages.Start.self, payload) else { return 2 }
            if loaded?.specs != start.plugins { loaded = (start.plugins, runner(start.plugins, link)) }
            guard let runner = loaded?.runner else { return 2 }
            let channel = RemoteChannel(link: link, readerName: start.reader, atr: start.atr, maxCommand: start.maxCommand)
            link.send(.done, json: runner.probe(channel, start.request))
        }
        return 0
    }

    /// The plugins loaded here, each announced before its library's initialisers run, and a runner
    /// that tells the host which plugin runs, what each said and what it logs.
    private static func runner(_ specs: [WorkerMessages.Plugin], _ link: WorkerLink) -> InProcessRunner {
        let plugins = specs.map { spec -> LoadedPlugin in
            link.send(.plugin, Array(spec.name.utf8))
            let plugin = PluginLoader.load(spec.entry, path: spec.library, searched: spec.searched ?? [])
            if let refusal = plugin.refusal { link.send(.refused, Array(refusal.said.utf8)) }
            return plugin
        }
        link.send(.plugin)
        // The plugins are loaded: what a read needs is the link, memory and clocks.
        if !confined.withLock({ $0 }) {
            if let why = WorkerConfinement.apply() {
                link.send(.refused, Array(L10n.tr("the plugin worker could not be confined (%1$s): no plugin runs", why.said).utf8))
                return InProcessRunner(plugins: [])
            }
            confined.withLock { $0 = true }
        }
        let runner = InProcessRunner(plugins: plugins)
        runner.log = { link.send(.log, Array($0.utf8)) }
        runner.outcome = { link.send(.outcome, json: $0) }
        runner.running = { link.send(.plugin, Array(($0 ?? "").utf8)) }
        return runner
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

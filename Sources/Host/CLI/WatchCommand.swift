import Foundation

extension TransitCommand {
    /// `transit watch`: waits for cards on every reader (or the named ones), reads each tap once and
    /// prints one line (or one JSON line) per card, until Ctrl-C. Each reader is served on its own:
    /// a slow or stuck reader never delays a tap on another. Readers come and go; a pcscd restart is
    /// waited out.
    func watch(_ args: [String]) throws {
        let a = try Arguments(args, command: "watch", valued: Self.readOptions.union(["reader", "dialect", "exec"]),
                              flags: ["json", "verbose", "no-save"])
        let dialect = try Self.dialect(a.value("dialect"))
        let specs = try pluginSpecs(a.value("config"))
        let limits = try limits(a)
        let stations = stationLibrary(a)
        let settings = ArchiveSettings.load()
        Termination.shared.arm(exitCode: 0) {} // Ctrl-C ends a watch quietly, with success
        var watcher = ReaderWatcher(filters: a.allValues["reader"] ?? [])
        var lanes = [String: ReaderLane]()
        let exec = a.value("exec").map { TapCommand(command: $0, problem: { [standardError] in standardError("transit: \($0)") }) }
        while true {
            for tap in watcher.nextTaps(onProblem: { standardError("transit: \($0)") }) {
                let lane = try lanes[tap.reader] ?? ReaderLane(reader: tap.reader, worker: pluginWorker(a, plugins: specs))
                lanes[tap.reader] = lane
                lane.read { worker in
                    let result: Result<CardReading, TransitError>
                    do {
                        let card = try PCSCContext().connect(tap.reader, exchangeTimeout: limits.exchangeTimeout)
                        let outcome = worker.perform(on: card, dialect: dialect, firstGuess: DialectMemory.shared.dialect(for: tap.reader))
                        DialectMemory.shared.learn(from: outcome.bundle)
                        result = outcome.result
                    } catch let e as TransitError {
                        result = .failure(e)
                    } catch {
                        result = .failure(TransitError(.communication, "\(error)"))
                    }
                    let named = result.map { Self.named($0, stations) }
                    standardOutput(Self.watchLine(tap.reader, named, json: a.has("json")))
                    exec?.run(json: Self.watchLine(tap.reader, named, json: true), reader: tap.reader)
                    // Every tap is kept: a kiosk's audit trail (each lane stores on its own connection).
                    if case .success(let reading) = named {
                        save(reading, command: "watch", reader: tap.reader, save: !a.has("no-save"), settings: settings)
                    }
                }
            }
        }
    }

    /// A tap's reading with station names; a table that cannot be used is said once per tap on
    /// stderr and the watch goes on without names.
    /// One tap's line; as text, one line whatever the reader's name and the plugin's strings hold.
    static func watchLine(_ reader: String, _ result: Result<CardReading, TransitError>, json: Bool) -> String {
        struct Line: Encodable { let reader: String; let card: CardReading?; let error: LogBundle.ErrorBody? }
        switch result {
        case .success(let r):
            if json { return JSONOutput.encode(Line(reader: reader, card: r, error: nil)) }
            return TerminalText.escape("\(reader): \(r.cardName ?? r.family) \(TextOutput.number(r)) \(Money.format(r.balance, r.currency))")
        case .failure(let e):
            if json { return JSONOutput.encode(Line(reader: reader, card: nil, error: .init(e))) }
            return TerminalText.escape("\(reader): \(e.kind.reported): \(e.message)")
        }
    }
}

/// One reader of a watch: its reads run one at a time on its own thread with its own plugin worker.
/// A tap that comes while the reader is busy waits for the read before it (one waits at most: a
/// newer tap replaces it, since the card of the older one has gone).
final class ReaderLane: @unchecked Sendable {
    let reader: String
    private let worker: PluginWorker
    private let queue: DispatchQueue
    private let lock = NSLock()
    private var busy = false
    private var waiting: ((PluginWorker) -> Void)?

    init(reader: String, worker: PluginWorker) {
        self.reader = reader
        self.worker = worker
        queue = DispatchQueue(label: "transit.watch.\(reader)")
    }

    func read(_ body: @escaping (PluginWorker) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        guard !busy else { waiting = body; return }
        busy = true
        run(body)
    }

    private func run(_ body: @escaping (PluginWorker) -> Void) {
        queue.async { [self] in
            body(worker)
            lock.lock()
            defer { lock.unlock() }
            if let next = waiting {
                waiting = nil
                run(next)
            } else {
                busy = false
            }
        }
    }
}

import Foundation
import TransitArchive
import TransitModel
import TransitOutput
import TransitTransport
import TransitEngine

extension TransitCommand {
    /// `transit watch`: waits for cards on every reader (or the named ones), reads each tap once and
    /// prints one line (or one JSON line) per card, until Ctrl-C. Each reader is served on its own:
    /// a slow or stuck reader never delays a tap on another. Readers come and go; a pcscd restart is
    /// waited out.
    func watch(_ a: Arguments) throws {
        let dialect = try Self.dialect(a.value(.dialect))
        let specs = try pluginSpecs(a.value(.config))
        let limits = try limits(a)
        let stations = stationLibrary(a)
        let settings = ArchiveSettings.load()
        Termination.shared.arm(exitCode: 0) {} // Ctrl-C ends a watch quietly, with success
        let filters = a.all(.readers)
        var watcher = ReaderWatcher(filters: filters)
        // On a terminal, what is watched and how to stop (piped output stays silent).
        if isatty(2) != 0 {
            standardError("transit: watching " + (filters.isEmpty ? "every reader" : "the readers whose names contain "
                          + filters.map { "\"\($0)\"" }.joined(separator: " or ")) + " for cards; Ctrl-C stops")
        }
        var lanes = [String: ReaderLane]()
        let execTimeout = try Self.seconds(a, .execTimeout, positive: true) ?? 30
        let exec = a.value(.exec).map { TapCommand(command: $0, timeout: execTimeout, problem: { [standardError] in standardError("transit: \($0)") }) }
        while true {
            for tap in watcher.nextTaps(onProblem: { standardError("transit: \($0)") }) {
                let lane = try lanes[tap.reader] ?? ReaderLane(reader: tap.reader, engine: readEngine(a, plugins: specs))
                lanes[tap.reader] = lane
                lane.read { engine in
                    let result: Result<CardReading, TransitError>
                    do {
                        result = engine.read(try PCSCContext().connect(tap.reader, exchangeTimeout: limits.exchangeTimeout), dialect: dialect).result
                    } catch {
                        result = .failure(TransitError(error, while: "connecting to \(tap.reader)"))
                    }
                    let named = result.map { Self.named($0, stations) }
                    standardOutput(WatchLine.text(tap.reader, named, json: a.has(.json)))
                    exec?.run(json: WatchLine.text(tap.reader, named, json: true), reader: tap.reader)
                    // Every tap is kept: a kiosk's audit trail (each lane stores on its own connection).
                    if case .success(let reading) = named {
                        save(reading, command: "watch", reader: tap.reader, save: !a.has(.noSave), settings: settings)
                    }
                }
            }
        }
    }
}

/// One reader of a watch: its reads run one at a time on its own thread with its own read engine (and plugin worker).
/// A tap that comes while the reader is busy waits for the read before it (one waits at most: a
/// newer tap replaces it, since the card of the older one has gone).
final class ReaderLane: @unchecked Sendable {
    let reader: String
    private let engine: ReadEngine
    private let queue: DispatchQueue
    private let lock = NSLock()
    private var busy = false
    private var waiting: ((ReadEngine) -> Void)?

    init(reader: String, engine: ReadEngine) {
        self.reader = reader
        self.engine = engine
        queue = DispatchQueue(label: "transit.watch.\(reader)")
    }

    func read(_ body: @escaping (ReadEngine) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        guard !busy else { waiting = body; return }
        busy = true
        run(body)
    }

    private func run(_ body: @escaping (ReadEngine) -> Void) {
        queue.async { [self] in
            body(engine)
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

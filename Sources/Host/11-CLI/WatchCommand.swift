import Foundation
import TransitArchive
import TransitModel
import TransitOutput
import TransitTransport
import TransitEngine
import TransitUSB

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
        let below = try Self.below(a, settings: settings)
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
        /// A tap's line, its --exec and its place in the archive, for a reader of either kind.
        let report = { (reader: String, result: Result<CardReading, TransitError>) in
            let named = result.map { Self.named($0, stations) }
            let nickname = (try? named.get()).flatMap { Self.nickname(of: $0, settings) }
            standardOutput(WatchLine.text(reader, named, json: a.has(.json), nickname: nickname, below: below))
            exec?.run(json: WatchLine.text(reader, named, json: true, nickname: nickname, below: below), reader: reader)
            // Every tap is kept: a kiosk's audit trail (each lane stores on its own connection).
            if case .success(let reading) = named {
                save(reading, command: "watch", reader: reader, save: !a.has(.noSave), settings: settings)
            }
        }
        // The RC-S380s on USB are polled, each on a thread of its own; one plugged in later is found
        // at the next look at the bus.
        var usbLanes = [String: USBReaderLane]()
        var busLooked = Date.distantPast
        while true {
            if Date().timeIntervalSince(busLooked) >= USBReaderLane.busInterval {
                busLooked = Date()
                usbLanes = usbLanes.filter { $0.value.running }
                for reader in RCS380Reader.connected(matching: filters) where usbLanes[reader.name] == nil {
                    reader.log = verboseLog(a)
                    let lane = USBReaderLane(reader: reader, engine: try readEngine(a, plugins: specs), exchangeTimeout: limits.exchangeTimeout,
                                             report: report, problem: { standardError("transit: \($0)") })
                    usbLanes[reader.name] = lane
                    lane.start()
                }
            }
            for tap in watcher.nextTaps(onProblem: { standardError("transit: \($0)") }, quietWithoutPCSCD: !usbLanes.isEmpty) {
                let lane = try lanes[tap.reader] ?? ReaderLane(reader: tap.reader, engine: readEngine(a, plugins: specs))
                lanes[tap.reader] = lane
                lane.read { engine in
                    let result: Result<CardReading, TransitError>
                    do {
                        result = engine.read(try PCSCContext().connect(tap.reader, exchangeTimeout: limits.exchangeTimeout), dialect: dialect).result
                    } catch {
                        result = .failure(TransitError(error, while: "connecting to \(tap.reader)"))
                    }
                    report(tap.reader, result)
                }
            }
        }
    }
}

extension TransitCommand {
    /// The nickname the archive gives the card read, when it has one; an archive that cannot be
    /// used gives none (the tap's line is never worth less for it).
    static func nickname(of reading: CardReading, _ settings: ArchiveSettings) -> String? {
        guard settings.save, let archive = try? Archive.open(settings, create: false) else { return nil }
        return try? archive.nickname(of: reading)
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

/// One RC-S380 of a watch, on a thread of its own: polled for a card about four times a second,
/// each new card read once (one left on the reader is not read again until it has gone), and a
/// reader that fails said once; one unplugged ends its lane, to be found again if it comes back.
final class USBReaderLane: @unchecked Sendable {
    /// Seconds between looks at the bus for RC-S380s plugged in.
    static let busInterval = 5.0
    let reader: RCS380Reader
    private let engine: ReadEngine
    private let exchangeTimeout: Double
    private let report: (String, Result<CardReading, TransitError>) -> Void
    private let problem: (String) -> Void
    private let lock = NSLock()
    private var alive = true

    init(reader: RCS380Reader, engine: ReadEngine, exchangeTimeout: Double,
         report: @escaping (String, Result<CardReading, TransitError>) -> Void, problem: @escaping (String) -> Void) {
        self.reader = reader; self.engine = engine; self.exchangeTimeout = exchangeTimeout; self.report = report; self.problem = problem
    }

    /// False once the lane has ended (its reader unplugged).
    var running: Bool { lock.lock(); defer { lock.unlock() }; return alive }

    func start() {
        let key = Termination.shared.onEnd { [reader] in reader.close() }
        Thread.detachNewThread { [self] in
            serve()
            Termination.shared.removeOnEnd(key)
            lock.lock(); alive = false; lock.unlock()
        }
    }

    private func serve() {
        var present: [UInt8]?
        var lastProblem: String?
        while true {
            do {
                if let card = try reader.sense(by: Deadline(secondsFromNow: exchangeTimeout)) {
                    if card.idm != present {
                        present = card.idm
                        report(reader.name, engine.read(try reader.channel(card, exchangeTimeout: exchangeTimeout)).result)
                    }
                } else {
                    present = nil
                }
                lastProblem = nil
            } catch {
                present = nil
                let e = TransitError(error, while: "watching \(reader.name)")
                if e.message != lastProblem { problem("\(e.message)\(e.kind == .noReader ? "" : "; watching it again")") }
                lastProblem = e.message
                reader.close()
                if e.kind == .noReader { return } // unplugged: found again at the next look at the bus
            }
            Thread.sleep(forTimeInterval: CardFinder.usbPollInterval)
        }
    }
}

import Foundation
import TransitArchive
import TransitModel
import TransitOutput
import TransitTransport
import TransitPCSC
import TransitEngine
import TransitUSB
import TransitWatch

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

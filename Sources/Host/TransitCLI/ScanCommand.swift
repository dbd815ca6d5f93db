import CardSimulation
import Foundation
import TransitArchive
import TransitModel
import TransitTransport
import TransitPluginHost
import TransitEngine

extension TransitCommand {
    /// `transit scan`: the card on a reader (or a card image), printed as text or JSON.
    func scan(_ a: Arguments) throws {
        let below = try Self.below(a)
        let read = try readCard(a, logPath: a.value(.log))
        let reading = show(read.reading, a, stations: stationLibrary(a), below: below)
        save(reading, command: "scan", reader: read.reader, save: !a.has(.noSave))
    }

    /// Reads the card `--card` or the reader names, writing the log bundle to `logPath` when given.
    /// A log that cannot be written is said on stderr and the read goes on (`logWritten` false).
    /// Shared by scan and verify. A `--log` the rule refuses ends the command before the read
    /// (`refuseUnwritable`); verify's own log beside the reference is only said when not written.
    func readCard(_ a: Arguments, logPath: String?) throws -> (reading: CardReading, logWritten: Bool, reader: String) {
        try Self.refuseUnwritable(a.value(.log), log: true)
        let dialect = try Self.dialect(a.value(.dialect))
        let engine = try readEngine(a)
        let outcome = try withChannel(a) { engine.read($0, dialect: dialect) }
        var logWritten = false
        if let logPath {
            do {
                try outcome.bundle.write(to: logPath)
                logWritten = true
            } catch {
                standardError("transit: \(TransitError(error, while: "writing the log").text)")
            }
        }
        return (try Self.blamingTheFile(outcome.result, a.value(.card)).get(), logWritten, outcome.bundle.reader)
    }

    /// `transit replay LOG`: the plugins of the log, in its order, against its recorded exchanges.
    func replay(_ a: Arguments) throws {
        guard let path = a.operands.first else { throw TransitError(.usage, L10n.words("replay takes one log file")) } // the table requires it
        let log = try LogBundle.load(path)
        let config = try PluginConfig.load(explicit: a.value(.config))
        // The recorded plugins, in the recorded order (skipped ones too: the skip is part of the read).
        let plugins = try log.plugins.map { p -> WorkerMessages.Plugin in
            guard let entry = config.entries.first(where: { $0.name == p.name }) else {
                throw TransitError(.config, L10n.words("the log's plugin %1$s is not in %2$s", .init(TerminalText.excerpt(p.name)), .init(config.path)))
            }
            return WorkerMessages.Plugin(entry, path: config.resolve(entry), searched: config.places(entry))
        }
        let engine = try readEngine(a, plugins: plugins)
        engine.replayedKeys = log.classicKeys
        let outcome = engine.read(try log.replayChannel(), firstGuess: log.firstDialect)
        let reading = show(try outcome.result.get(), a, stations: stationLibrary(a))
        save(reading, command: "replay", reader: log.reader, save: a.has(.save))
    }

    /// `transit decode FILE…`: each card file read as `--card` would, one JSON line each.
    func decode(_ a: Arguments) throws {
        let engine = try readEngine(a)
        let stations = stationLibrary(a)
        let settings = ArchiveSettings.load()
        var firstFailure: TransitError?
        // One line a card: {file, card} or {file, error}; a file of several cards gives each its
        // index (1-based), {file, index, card} or {file, index, error}.
        struct Line: Encodable { let file: String; let index: Int?; let card: CardReading?; let error: ErrorJSON? }
        for path in a.operands {
            let file: CardFile
            do {
                file = try EmulatedChannel.load(path)
            } catch {
                let e = TransitError(error, while: "loading \(path)")
                firstFailure = firstFailure ?? e
                sayFailure(e, path: path, index: nil)
                standardOutput(JSONOutput.encode(Line(file: path, index: nil, card: nil, error: .init(e))))
                continue
            }
            let several = file.entries.count > 1
            for index in file.entries.indices.map({ $0 + 1 }) {
                let result: Result<CardReading, TransitError>
                do {
                    result = Self.blamingTheFile(engine.read(try EmulatedChannel(file: file, index: index)).result, path)
                } catch {
                    result = .failure(TransitError(error, while: "loading card \(index) of \(path)"))
                }
                switch result {
                case .success(let raw):
                    let r = Self.named(raw.withoutPersonalData, stations)
                    standardOutput(JSONOutput.encode(Line(file: path, index: several ? index : nil, card: r, error: nil)))
                    save(r, command: "decode", reader: "Card image", save: a.has(.save), settings: settings)
                case .failure(let e):
                    firstFailure = firstFailure ?? e
                    sayFailure(e, path: path, index: several ? index : nil)
                    standardOutput(JSONOutput.encode(Line(file: path, index: several ? index : nil, card: nil, error: .init(e))))
                }
            }
        }
        // Exit with the first failure's code (0 when every file was read); its line says which.
        if let firstFailure { throw QuietExit(code: firstFailure.kind.exitCode) }
    }

    /// A file decode could not read, one line on stderr as every JSON error has (its JSON line says it too).
    private func sayFailure(_ e: TransitError, path: String, index: Int?) {
        // TRANSLATORS: a file of several cards, and which of them.
        let file = index.map { L10n.tr("%1$s (card %2$s)", path, String($0)) } ?? path
        let message = e.message.hasPrefix(path) ? e.text : "\(file): \(e.text)"
        standardError("transit: " + (e.plugin.map { "\($0): " } ?? "") + message)
    }
}

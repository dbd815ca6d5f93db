import Foundation
import TransitArchive
import TransitFiles
import TransitModel
import TransitOutput
import TransitTransport
import TransitPluginHost
import TransitEngine
import TransitStations
import TransitWatch

/// What the commands share: reaching the card, the plugin worker, logging, option values.
extension TransitCommand {
    /// Runs `body` on the card of `--card` or on the reader's card (held in a PC/SC transaction).
    func withChannel<T>(_ a: Arguments, _ body: (ReaderChannel) throws -> T) throws -> T {
        let index = try a.number(.index)
        guard index == nil || a.value(.card) != nil else { throw TransitError(.usage, L10n.words("--index picks a card of a --card file")) }
        if let cardPath = a.value(.card) { return try body(try EmulatedChannel(cardPath: cardPath, index: index)) }
        // --wait covers pcscd starting, a reader coming and a card coming, within one deadline.
        let wait = try Self.seconds(a, .wait) ?? 0
        let deadline = Deadline(secondsFromNow: wait)
        let speaker = WaitSpeaker(seconds: wait, deadline: deadline)
        defer { speaker.done() }
        let finder = CardFinder(filter: a.value(.reader), wait: wait, exchangeTimeout: try limits(a).exchangeTimeout, log: verboseLog(a))
        let (channel, done) = try finder.find(deadline: deadline, speaker: speaker)
        defer { done() }
        speaker.done()
        if isatty(2) != 0 { standardError(L10n.tr("Reading the card on %1$s: hold it still…", channel.readerName)) }
        return try body(channel)
    }

    /// Ends the command before the card is read when `path` (an `--out` file or an explicit `--log`)
    /// may not be written: a folder on the way that another user owns or may write, a symbolic link
    /// among its folders, a device, FIFO or socket at it (`PrivateFile.refusal`). `what` names it in
    /// the message ("the log "). What only the write can tell (a missing folder, a full disk) is
    /// said when writing.
    static func refuseUnwritable(_ path: String?, log: Bool = false) throws {
        guard let path, let why = PrivateFile.refusalWords(path) else { return }
        throw TransitError(.config, log ? L10n.words("cannot write the log %1$s: %2$s", .init(path), why) : L10n.words("cannot write %1$s: %2$s", .init(path), why))
    }

    /// A card file's read that failed as a card fails (refused, malformed, silent): the file does not
    /// hold what the family reads, which is the file's problem (`config`, naming it), never the card's.
    static func blamingTheFile(_ result: Result<CardReading, TransitError>, _ path: String?) -> Result<CardReading, TransitError> {
        guard let path, case .failure(let e) = result, [.cardRefused, .malformedResponse, .noAnswer].contains(e.kind) else { return result }
        return .failure(TransitError(.config, L10n.words("%1$s does not hold what a card would answer: %2$s", .init(path), e.words), plugin: e.plugin))
    }

    /// Prints the reading with its station names, flagged when its balance is under `below`;
    /// returns it as printed (what the archive keeps).
    @discardableResult
    func show(_ reading: CardReading, _ a: Arguments, stations: StationLibrary, below: Int64? = nil) -> CardReading {
        // The holder's personal data only when asked (scan --personal); the archive never keeps it.
        let named = Self.named(a.has(.personal) ? reading : reading.withoutPersonalData, stations)
        finalOutput(a.has(.json) ? JSONOutput.encode(FlaggedReading(named, below: below))
            : TextOutput.render(named, style: .forOutput(verbose: a.has(.verbose)), below: below))
        return named
    }

    /// The low-balance threshold: `--below AMOUNT`, else transit.conf's `below`, in the card's minor units.
    static func below(_ a: Arguments, settings: ArchiveSettings = .load()) throws -> Int64? {
        try a.amount(.below) ?? settings.below
    }

    /// The reading with the names its station tables hold. A table that cannot be used never costs
    /// the read: it is said on stderr and the reading keeps its codes.
    static func named(_ r: CardReading, _ stations: StationLibrary) -> CardReading {
        do {
            return try StationNaming.named(r, stations)
        } catch {
            Termination.shared.write(TerminalText.escape("transit: \(L10n.Words(error: error).said)") + "\n", to: StandardStream.error)
            return r
        }
    }

    /// The station tables of `--stations` and the data folders, loaded when a reading needs names.
    func stationLibrary(_ a: Arguments) -> StationLibrary {
        let library = StationLibrary(explicit: a.all(.stations))
        library.say = { Termination.shared.write(TerminalText.escape("transit: \($0.said)") + "\n", to: StandardStream.error) }
        return library
    }

    /// The engine of this command's reads: the conf's plugins (or `plugins`) in a plugin worker,
    /// or in this process with `TRANSIT_PLUGIN_WORKER=0` (benchmarks only); the user's MIFARE
    /// Classic keys (`keys`, else loaded here) for a command that takes `--keys`.
    func readEngine(_ a: Arguments, plugins: [WorkerMessages.Plugin]? = nil, keys: ClassicKeyRing? = nil) throws -> ReadEngine {
        let specs = try plugins ?? pluginSpecs(a.value(.config))
        let ring = try keys ?? classicKeys(a)
        let log = verboseLog(a, plugins: specs.map(\.entry.name)), problem = { [standardError] (line: String) in standardError("transit: \(line)") }
        let runner: PluginRunner
        if PluginWorker.enabled {
            let worker = PluginWorker(plugins: specs)
            worker.log = log
            worker.verbose = a.has(.verbose)
            worker.problem = problem
            runner = worker
        } else {
            let loaded = specs.map { PluginLoader.load($0.entry, path: $0.library, searched: $0.searched ?? []) }
            loaded.compactMap(\.refusal).map(\.said).forEach(problem)
            let inProcess = InProcessRunner(plugins: loaded)
            inProcess.log = log
            runner = inProcess
        }
        let engine = ReadEngine(runner: runner, limits: try limits(a))
        engine.log = log
        engine.keys = ring
        return engine
    }

    /// The MIFARE Classic keys of `--keys` and the keys folder, for a command that takes `--keys`
    /// (none for one that does not: `replay` reads what was recorded). `--verbose` says how many
    /// each file gave; a folder file passed over is said always (`ClassicKeyFiles`).
    func classicKeys(_ a: Arguments) throws -> ClassicKeyRing {
        guard CommandTable.command(a.command)?.options.contains(where: { $0.name == OptionSpec.keys.name }) == true else { return ClassicKeyRing() }
        var files = ClassicKeyFiles(explicit: a.all(.keys))
        files.log = verboseLog(a)
        files.say = { [standardError] in standardError("transit: \($0.said)") }
        return try files.load()
    }

    /// The conf's plugins with their resolved library paths, in probe order.
    func pluginSpecs(_ configPath: String?) throws -> [WorkerMessages.Plugin] {
        let config = try PluginConfig.load(explicit: configPath)
        return config.entries.map { WorkerMessages.Plugin($0, path: config.resolve($0), searched: config.places($0)) }
    }

    func limits(_ a: Arguments) throws -> ReadLimits {
        var limits = ReadLimits()
        if let s = try Self.seconds(a, .exchangeTimeout, positive: true) { limits.exchangeTimeout = s }
        if let s = try Self.seconds(a, .readTimeout, positive: true) { limits.readTimeout = s }
        return limits
    }

    /// Log lines on stderr with --verbose; a plugin's warnings (TRANSIT_LOG_WARNING) always.
    func verboseLog(_ a: Arguments, plugins: [String] = []) -> (String) -> Void {
        let verbose = a.has(.verbose), err = standardError
        return { line in if verbose || PluginLogLevel.isWarning(line, plugins: plugins) { err("transit: \(line)") } }
    }

    /// A number of seconds given with `--name`; its type in the table says whether 0 is one
    /// (`positive` is the callers' note of it).
    static func seconds(_ a: Arguments, _ option: OptionSpec, positive: Bool = false) throws -> Double? {
        try a.seconds(option)
    }

    /// `--dialect`'s dialect.
    static func dialect(_ name: String?) throws -> FeliCaDialect? {
        try name.map { name in
            try OptionSpec.dialect.type.parse(name, option: "dialect")
            guard let d = FeliCaDialect(rawValue: name) else { throw TransitError(.usage, L10n.words("--dialect must be one of %1$s", .init(FeliCaDialect.names))) }
            return d
        }
    }
}

/// Ends a command with an exit code after it has printed everything itself.
struct QuietExit: Error {
    let code: Int32
}

import CardSimulation
import Dispatch
import Foundation

/// `transit`: dispatches a command line and turns every failure into one line, a kind and an exit code.
struct TransitCommand {
    var standardOutput: (String) -> Void = { print($0) }
    var standardError: (String) -> Void = { FileHandle.standardError.write(($0 + "\n").data(using: .utf8) ?? Data()) }

    /// Runs `args` (without the program name) and returns the exit code.
    func run(_ args: [String]) -> Int32 {
        let json = args.contains("--json")
        do {
            guard let command = args.first else {
                standardError(HelpText.main)
                return TransitError.Kind.usage.exitCode
            }
            let rest = Array(args.dropFirst())
            if rest.contains("--help") || rest.contains("-h") {
                standardOutput(help(for: command))
                return 0
            }
            switch command {
            case "--help", "-h", "help": standardOutput(HelpText.main)
            case "--version": standardOutput(HelpText.version)
            case "scan": try scan(rest)
            case "readers": try readers(rest)
            case "plugins": try plugins(rest)
            default: throw TransitError(.usage, "unknown command \(command) (see transit --help)")
            }
            return 0
        } catch let error as TransitError {
            report(error, json: json)
            return error.kind.exitCode
        } catch {
            report(TransitError(.communication, "\(error)"), json: json)
            return TransitError.Kind.communication.exitCode
        }
    }

    private func help(for command: String) -> String {
        switch command {
        case "scan": return HelpText.scan
        case "readers": return HelpText.readers
        case "plugins": return HelpText.plugins
        default: return HelpText.main
        }
    }

    private func report(_ error: TransitError, json: Bool) {
        if json { standardOutput(JSONOutput.error(error)) }
        standardError("transit: " + (error.plugin.map { "\($0): " } ?? "") + error.message)
    }

    // MARK: scan

    private func scan(_ args: [String]) throws {
        let a = try Arguments(args, command: "scan", valued: ["reader", "dialect", "config", "wait", "card"],
                              flags: ["json", "verbose"])
        let dialect = try a.value("dialect").map { name -> FeliCaDialect in
            guard let d = FeliCaDialect(rawValue: name) else {
                throw TransitError(.usage, "--dialect must be one of pn532, acs-direct, part3")
            }
            return d
        }
        let wait = try a.value("wait").map { text -> Double in
            guard let s = Double(text), s >= 0 else { throw TransitError(.usage, "--wait takes a number of seconds") }
            return s
        } ?? 0
        let config = try PluginConfig.load(explicit: a.value("config"))
        let loaded = PluginLoader.load(config)
        for p in loaded { if case .refused(let why) = p.state { standardError("transit: plugin \(p.name) (\(p.path)) refused: \(why)") } }
        let verbose = a.has("verbose")
        let runner = ProbeRunner(plugins: loaded, log: { line in if verbose { standardError("transit: \(line)") } })
        let cancellation = Cancellation()

        let result: (reading: CardReading, plugin: String)
        if let cardPath = a.value("card") {
            let image: CardImage
            do { image = try CardImage.load(cardPath) } catch { throw TransitError(.usage, "\(error)") }
            let session = CardSession(channel: try EmulatedChannel(image: image), dialect: dialect, cancellation: cancellation)
            result = try runner.read(session)
        } else {
            let context = try PCSCContext()
            // Weak: the signal source frees its handler later on a Dispatch thread, which must not be where
            // the pcscd context is released (that raced exit and crashed inside libpcsclite).
            let signals = SignalWatch { [weak context] in cancellation.cancel(); context?.cancel() }
            defer { signals.stop() }
            let reader = try context.waitForCard(readerFilter: a.value("reader"), wait: wait, cancellation: cancellation)
            if isatty(2) != 0 { standardError("Reading the card on \(reader): hold it still…") }
            let card = try context.connect(reader)
            result = try runner.read(CardSession(channel: card, dialect: dialect, cancellation: cancellation))
        }
        standardOutput(a.has("json") ? JSONOutput.encode(result.reading) : TextOutput.render(result.reading))
    }

    // MARK: readers, plugins

    private func readers(_ args: [String]) throws {
        let a = try Arguments(args, command: "readers", valued: [], flags: ["json"])
        let context = try PCSCContext()
        let states = try context.states(try context.readers())
        struct Row: Encodable { let name: String; let card: Bool; let atr: String? }
        let rows = states.map { Row(name: $0.name, card: $0.present, atr: $0.present ? HexFormat.string($0.atr) : nil) }
        if a.has("json") { standardOutput(JSONOutput.encode(rows)); return }
        guard !rows.isEmpty else { throw TransitError(.noReader, "no reader is connected") }
        for r in rows { standardOutput("\(r.name)\t\(r.card ? "card, ATR \(r.atr ?? "")" : "no card")") }
    }

    private func plugins(_ args: [String]) throws {
        let a = try Arguments(args, command: "plugins", valued: ["config"], flags: ["json"])
        let config = try PluginConfig.load(explicit: a.value("config"))
        let loaded = PluginLoader.load(config)
        struct Row: Encodable {
            let name: String; let path: String; let abiVersion: UInt32?; let state: String; let reason: String?
            let technology: String?; let systemCodes: [String]; let options: [String: String]
        }
        let rows = loaded.map { p -> Row in
            let reason: String? = { if case .refused(let why) = p.state { return why } else { return nil } }()
            return Row(name: p.name, path: p.path, abiVersion: p.abiVersion, state: reason == nil ? "loaded" : "refused",
                       reason: reason, technology: p.technology?.rawValue,
                       systemCodes: p.systemCodes.map { HexFormat.string([UInt8($0 >> 8), UInt8($0 & 0xFF)]) },
                       options: p.entry.options)
        }
        if a.has("json") { standardOutput(JSONOutput.encode(rows)); return }
        standardOutput("plugins.conf: \(config.path)")
        for r in rows {
            let abi = r.abiVersion.map { "ABI \($0)" } ?? "ABI -"
            standardOutput("\(r.name)\t\(r.state)\t\(abi)\t\(r.path)" + (r.reason.map { "\t(\($0))" } ?? ""))
        }
    }
}

/// Ctrl-C during a wait or a read: cancels instead of killing the process mid-exchange.
final class SignalWatch {
    private let source: DispatchSourceSignal

    init(_ handler: @escaping () -> Void) {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: DispatchQueue.global())
        source.setEventHandler(handler: handler)
        source.resume()
    }

    func stop() {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}

import CardSimulation
import CPCSCLite
import Foundation

/// What the commands share: reaching the card, loading plugins, logging, option values.
extension TransitCommand {
    /// Runs `body` on the card of `--card` or on the reader's card, with Ctrl-C cancelling it.
    func withChannel<T>(_ a: Arguments, _ body: (ReaderChannel, Cancellation) throws -> T) throws -> T {
        let cancellation = Cancellation()
        if let cardPath = a.value("card") { return try body(try EmulatedChannel(image: try Self.cardImage(cardPath)), cancellation) }
        let wait = try a.value("wait").map { text -> Double in
            guard let s = Double(text), s >= 0 else { throw TransitError(.usage, "--wait takes a number of seconds") }
            return s
        } ?? 0
        let context = try PCSCContext()
        // The handler holds the context's handle, not the context: the signal source frees its handler
        // later on a Dispatch thread, which must never be where the context is released (that raced
        // exit and crashed inside libpcsclite). SCardCancel on a released handle only fails.
        let handle = context.handle
        let signals = SignalWatch { cancellation.cancel(); SCardCancel(handle) }
        defer { signals.stop() }
        let name = try context.waitForCard(readerFilter: a.value("reader"), wait: wait, cancellation: cancellation)
        if isatty(2) != 0 { standardError("Reading the card on \(name): hold it still…") }
        return try body(try context.connect(name), cancellation)
    }

    func show(_ reading: CardReading, json: Bool) {
        standardOutput(json ? JSONOutput.encode(reading) : TextOutput.render(reading))
    }

    func loadPlugins(_ configPath: String?) throws -> [LoadedPlugin] {
        let loaded = PluginLoader.load(try PluginConfig.load(explicit: configPath))
        for p in loaded { if case .refused(let why) = p.state { standardError("transit: plugin \(p.name) (\(p.path)) refused: \(why)") } }
        return loaded
    }

    func verboseLog(_ a: Arguments) -> (String) -> Void {
        let verbose = a.has("verbose"), err = standardError
        return { line in if verbose { err("transit: \(line)") } }
    }

    static func dialect(_ name: String?) throws -> FeliCaDialect? {
        try name.map { name in
            guard let d = FeliCaDialect(rawValue: name) else { throw TransitError(.usage, "--dialect must be one of pn532, acs-direct, part3") }
            return d
        }
    }

    static func cardImage(_ path: String) throws -> CardImage {
        do { return try CardImage.load(path) } catch { throw TransitError(.usage, "\(error)") }
    }
}

/// Ends a command with an exit code after it has printed everything itself.
struct QuietExit: Error {
    let code: Int32
}

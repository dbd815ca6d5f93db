import CardSimulation
import Foundation

extension TransitCommand {
    /// `transit dump --out FILE`: everything public on the card, as a card image `--card` reads back.
    func dump(_ args: [String]) throws {
        let a = try Arguments(args, command: "dump", valued: ["reader", "dialect", "config", "wait", "card", "out"],
                              flags: ["verbose"])
        guard let out = a.value("out") else { throw TransitError(.usage, "dump needs --out FILE") }
        let image = try withChannel(a) { channel, cancellation in
            let session = CardSession(channel: channel, dialect: try Self.dialect(a.value("dialect")), cancellation: cancellation)
            if session.technology == .felica { return try FeliCaDumper(session: session).dump() }
            let recorded = RecordedRead(plugins: try loadPlugins(a.value("config")), log: verboseLog(a))
                .perform(on: channel, dialect: session.dialect, cancellation: cancellation)
            if case .failure(let e) = recorded.result, e.kind.endsEveryRead { throw e }
            return ISODumpRecorder.image(from: recorded.bundle)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            try encoder.encode(image).write(to: URL(fileURLWithPath: out))
        } catch {
            throw TransitError(.config, "cannot write \(out): \(error.localizedDescription)")
        }
        standardError("transit: wrote \(out)")
    }

    /// Runs `body` on the card of `--card` or on the reader's card, with Ctrl-C cancelling it.
    func withChannel<T>(_ a: Arguments, _ body: (ReaderChannel, Cancellation) throws -> T) throws -> T {
        let cancellation = Cancellation()
        if let cardPath = a.value("card") { return try body(try EmulatedChannel(image: try Self.cardImage(cardPath)), cancellation) }
        let wait = try a.value("wait").map { text -> Double in
            guard let s = Double(text), s >= 0 else { throw TransitError(.usage, "--wait takes a number of seconds") }
            return s
        } ?? 0
        let context = try PCSCContext()
        // Weak: the signal source frees its handler later on a Dispatch thread, which must not be where
        // the pcscd context is released (that raced exit and crashed inside libpcsclite).
        let signals = SignalWatch { [weak context] in cancellation.cancel(); context?.cancel() }
        defer { signals.stop() }
        let name = try context.waitForCard(readerFilter: a.value("reader"), wait: wait, cancellation: cancellation)
        if isatty(2) != 0 { standardError("Reading the card on \(name): hold it still…") }
        return try body(try context.connect(name), cancellation)
    }
}

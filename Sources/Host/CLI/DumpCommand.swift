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
}

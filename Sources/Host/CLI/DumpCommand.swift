import CardSimulation
import Foundation

extension TransitCommand {
    /// `transit dump --out FILE`: everything public on the card, as a card image `--card` reads back.
    func dump(_ args: [String]) throws {
        let a = try Arguments(args, command: "dump", valued: Self.readOptions.subtracting(["stations"]).union(["reader", "dialect", "wait", "card", "out"]),
                              flags: ["verbose"])
        guard let out = a.value("out") else { throw TransitError(.usage, "dump needs --out FILE") }
        let worker = try pluginWorker(a)
        let image = try withChannel(a) { channel in
            let session = CardSession(channel: channel, dialect: try Self.dialect(a.value("dialect")))
            if session.technology == .felica { return try FeliCaDumper(session: session).dump() }
            let recorded = worker.perform(on: channel, dialect: session.dialect, firstGuess: nil)
            if case .failure(let e) = recorded.result, e.kind.endsEveryRead { throw e }
            return ISODumpRecorder.image(from: recorded.bundle)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            try PrivateFile.write(try encoder.encode(image), to: out)
        } catch {
            throw TransitError(.config, "cannot write \(out): \(error)")
        }
        standardError("transit: wrote \(out)")
    }
}

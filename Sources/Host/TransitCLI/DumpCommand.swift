import CardSimulation
import Foundation
import TransitFiles
import TransitModel
import TransitTransport
import TransitEngine

extension TransitCommand {
    /// `transit dump --out FILE`: everything public on the card, as a card image `--card` reads back.
    func dump(_ a: Arguments) throws {
        guard let out = a.value(.out) else { throw TransitError(.usage, L10n.words("dump needs --out FILE")) } // the table requires it
        try Self.refuseUnwritable(out == "-" ? nil : out) // - is standard output
        let engine = try readEngine(a)
        let image = try withChannel(a) { channel in
            // A FeliCa card is dumped here, not through the engine: the read's one deadline is made here.
            let deadline = engine.clock.deadline(in: engine.limits.readTimeout)
            let dialect = try Self.dialect(a.value(.dialect))
            let keys = engine.keys.adding((channel as? ClassicKeySource)?.classicKeys ?? ClassicKeyRing())
            let session = CardSession(channel: channel, dialect: dialect, deadline: deadline, keys: keys)
            session.log = verboseLog(a)
            // A MIFARE Classic or Ultralight card is dumped here too: every sector the keys open.
            if let storage = session.technologyFromATR, storage == .mifareClassic || storage == .mifareUltralight {
                do {
                    try session.identify()
                    let image = try StorageDumper(session: session, withKeys: out != "-").dump()
                    session.finish(after: nil)
                    return image
                } catch let e as TransitError {
                    session.finish(after: e)
                    throw e
                }
            }
            // A FeliCa card is dumped here; an ISO card is read by the plugins, whose exchanges make its image.
            if session.technologyFromATR != .iso7816, try session.identify() == .felica {
                do {
                    let image = try FeliCaDumper(session: session).dump()
                    session.finish(after: nil)
                    return image
                } catch let e as TransitError {
                    session.finish(after: e)
                    throw e
                }
            }
            let recorded = engine.read(channel, dialect: dialect)
            if case .failure(let e) = recorded.result, e.kind.endsEveryRead { throw e }
            return ISODumpRecorder.image(from: recorded.bundle)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        if out == "-" { // standard output: DEL, C1 and format controls of the reader's name escaped, as all JSON there
            finalOutput(JSONOutput.escapingUnsafeScalars(String(decoding: (try? encoder.encode(image)) ?? Data(), as: UTF8.self)))
            return
        }
        do {
            try PrivateFile.write(try encoder.encode(image), to: out)
        } catch {
            throw TransitError(.config, L10n.words("cannot write %1$s: %2$s", .init(out), L10n.Words(error: error)))
        }
        standardError("transit: " + L10n.tr("wrote %1$s", out))
    }
}

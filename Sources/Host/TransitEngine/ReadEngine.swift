import CardProtocol
import Foundation
import ReaderABI
import TransitModel
import TransitTransport

/// The one read of a card: `scan`, `watch`, `replay`, `verify`, `dump` and the tests all read
/// through it. It records every exchange for the log bundle, has the runner probe the plugins,
/// reads a card another client reset once more from the start (within the same deadline), and
/// remembers the dialect a reader turned out to speak.
package final class ReadEngine {
    package let runner: PluginRunner
    package let limits: ReadLimits
    package let dialects: DialectMemory
    /// The clock a read's deadline is made on (a test's own in the tests).
    package let clock: MonotonicClock
    /// Policy log lines (stderr with --verbose).
    package var log: (String) -> Void = { _ in }
    /// The MIFARE Classic keys each read may try (`--keys` files and the keys folder), besides the
    /// generic ones; a card image's trailers add their own for its reads.
    package var keys = ClassicKeyRing()
    /// `transit replay` of a MIFARE Classic read: the log's key record, in place of keys.
    package var replayedKeys: ClassicKeyRecord?

    package init(runner: PluginRunner, limits: ReadLimits = ReadLimits(), dialects: DialectMemory = .shared,
                 clock: MonotonicClock = SystemClock.shared) {
        self.runner = runner; self.limits = limits; self.dialects = dialects; self.clock = clock
    }

    /// The reading (or the error that ended the read) and the bundle that records it. `dialect`
    /// forces one; else `firstGuess`, else the one the reader spoke last, else its profile's, goes first.
    /// The read has one deadline, `--read-timeout` from now: a read again after a reset ends by it too.
    package func read(_ channel: ReaderChannel, dialect: FeliCaDialect? = nil, firstGuess: FeliCaDialect? = nil)
        -> (result: Result<CardReading, TransitError>, bundle: LogBundle) {
        let guess = firstGuess ?? dialects.dialect(for: channel.readerName)
        let started = clock.now
        var request = ProbeRequest(forcedDialect: dialect, firstGuess: guess, limits: limits,
                                   deadline: Deadline(limits.readTimeout, after: started))
        request.keys = keys.adding((channel as? ClassicKeySource)?.classicKeys ?? ClassicKeyRing())
        request.replayedKeys = replayedKeys
        var outcome = once(channel, request)
        if case .failure(let e) = outcome.result, e.kind == .cardReset {
            log("\(e.message); reading it again from the start")
            outcome = once(channel, request)
        }
        dialects.learn(reader: channel.readerName, kept: outcome.dialect, refused: outcome.refused)
        summarise(outcome.bundle, seconds: clock.seconds(since: started))
        return (outcome.result, outcome.bundle)
    }

    /// `--verbose`'s last lines: each plugin's outcome in probe order, the dialect that worked,
    /// the exchanges and the time.
    private func summarise(_ b: LogBundle, seconds: Double) {
        if !b.plugins.isEmpty { log("plugins, in probe order: " + b.plugins.map { "\($0.name) \($0.outcome.phrase)" }.joined(separator: "; ")) }
        let refused = b.refusedDialects.map { " (refused first: \($0.joined(separator: ", ")))" } ?? ""
        let by = b.plugins.last { $0.outcome == .read }.map { "read by \($0.name)" } ?? b.outcome
        log("\(by): \(b.exchanges.count) exchange\(b.exchanges.count == 1 ? "" : "s") with the reader, dialect \(b.dialect)\(refused), "
            + "\(Int((seconds * 1000).rounded())) ms")
    }

    /// One probe: its result, the bundle that records it, and the dialects as the probe typed them.
    private func once(_ channel: ReaderChannel, _ request: ProbeRequest)
        -> (result: Result<CardReading, TransitError>, bundle: LogBundle, dialect: FeliCaDialect?, refused: [FeliCaDialect]) {
        let recorder = RecordingChannel(channel)
        let report = runner.probe(recorder, request)
        let result = report.result
        var bundle = LogBundle(tool: Version.banner, abiVersion: Int(TRANSIT_ABI_VERSION), reader: channel.readerName,
                               readerProfile: ReaderProfile.matching(channel.readerName).name, maxCommand: channel.maxCommand,
                               dialect: report.dialect?.rawValue ?? "none",
                               refusedDialects: report.refusedDialects.isEmpty ? nil : report.refusedDialects.map(\.rawValue),
                               atr: HexFormat.string(channel.atr), uid: recorder.uid, initialAID: recorder.initialAID,
                               plugins: report.outcomes, exchanges: recorder.exchanges, outcome: "read")
        bundle.retries = channel.retries
        bundle.classicKeys = report.classicKeys
        switch result {
        case .success(let r): bundle.result = r
        case .failure(let e):
            bundle.outcome = e.kind.reported
            bundle.error = e
        }
        return (result, bundle, report.dialect, report.refusedDialects)
    }
}

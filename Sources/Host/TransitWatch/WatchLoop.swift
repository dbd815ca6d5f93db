import Foundation
import TransitEngine
import TransitModel
import TransitTransport

/// What `transit watch` runs until Ctrl-C ends the process: every source's readers watched for
/// taps (`ReaderSource.watch`: pcscd's woken by pcscd, the USB readers each polled on a
/// thread of its own, one plugged in later found at the next look at the bus), each tap read on
/// its reader's own lane (`WatchLanes`). A slow or stuck reader never delays a tap on another; a
/// pcscd restart is waited out, and said only when no USB reader is watched.
package struct WatchLoop {
    /// Parts of the names of the readers watched (`--reader`); every reader when empty.
    package let filters: [String]
    /// `--dialect`, for the readers whose taps take one (pcscd's).
    package let dialect: FeliCaDialect?
    package let exchangeTimeout: Double
    /// A read engine for a new lane: each lane reads with its own.
    package let engine: () throws -> ReadEngine
    /// A tap's reading, or the error that ended it, by reader name.
    package let report: (String, Result<CardReading, TransitError>) -> Void
    /// A reader that failed, in words.
    package let problem: (String) -> Void
    /// `--verbose` lines of the USB readers.
    package let log: (String) -> Void
    /// The kinds of reader watched, each turn in this order.
    package let sources: [ReaderSource]

    /// How long a turn sleeps when no source's watch waited on its readers.
    package static let idlePause = 0.5

    package init(filters: [String], dialect: FeliCaDialect?, exchangeTimeout: Double, engine: @escaping () throws -> ReadEngine,
                 report: @escaping (String, Result<CardReading, TransitError>) -> Void, problem: @escaping (String) -> Void,
                 log: @escaping (String) -> Void, sources: [ReaderSource] = ReaderSources.all) {
        self.filters = filters; self.dialect = dialect; self.exchangeTimeout = exchangeTimeout; self.engine = engine
        self.report = report; self.problem = problem; self.log = log; self.sources = sources
    }

    /// Watches until the process ends; throws only when a lane's engine cannot be made.
    package func run() throws -> Never {
        let lanes = WatchLanes(dialect: dialect, engine: engine, report: report, problem: problem)
        let watches = sources.map { $0.watch(filters: filters, exchangeTimeout: exchangeTimeout, log: log, handler: lanes) }
        while true {
            // Every source brought up to date first: a pcscd that is down is said only when no
            // USB reader found at this very look is watched.
            for watch in watches { try watch.prepare() }
            var waited = false
            for watch in watches {
                let quiet = watches.contains { $0 !== watch && $0.watching }
                if try watch.next(quietWithoutService: quiet) { waited = true }
            }
            if !waited { Thread.sleep(forTimeInterval: Self.idlePause) }
        }
    }
}

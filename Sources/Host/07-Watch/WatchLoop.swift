import Foundation
import TransitEngine
import TransitModel
import TransitPCSC
import TransitTransport
import TransitUSB

/// What `transit watch` runs until Ctrl-C ends the process: pcscd's readers watched for taps
/// (`ReaderWatcher`), each tap read on its reader's own lane (`ReaderLane`), and the RC-S380s on
/// USB polled, each on a thread of its own (`USBReaderLane`); one plugged in later is found at the
/// next look at the bus. A slow or stuck reader never delays a tap on another; a pcscd restart is
/// waited out, and said only when no USB reader is watched.
package struct WatchLoop {
    /// Parts of the names of the readers watched (`--reader`); every reader when empty.
    package let filters: [String]
    /// `--dialect`, for pcscd's readers.
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

    package init(filters: [String], dialect: FeliCaDialect?, exchangeTimeout: Double, engine: @escaping () throws -> ReadEngine,
                 report: @escaping (String, Result<CardReading, TransitError>) -> Void, problem: @escaping (String) -> Void,
                 log: @escaping (String) -> Void) {
        self.filters = filters; self.dialect = dialect; self.exchangeTimeout = exchangeTimeout; self.engine = engine
        self.report = report; self.problem = problem; self.log = log
    }

    /// Watches until the process ends; throws only when a lane's engine cannot be made.
    package func run() throws -> Never {
        var watcher = ReaderWatcher(filters: filters)
        var lanes = [String: ReaderLane]()
        var usbLanes = [String: USBReaderLane]()
        var busLooked = Date.distantPast
        let (report, problem, dialect, exchangeTimeout) = (self.report, self.problem, self.dialect, self.exchangeTimeout)
        while true {
            if Date().timeIntervalSince(busLooked) >= USBReaderLane.busInterval {
                busLooked = Date()
                usbLanes = usbLanes.filter { $0.value.running }
                for reader in RCS380Reader.connected(matching: filters) where usbLanes[reader.name] == nil {
                    reader.log = log
                    let lane = USBReaderLane(reader: reader, engine: try engine(), exchangeTimeout: exchangeTimeout,
                                             report: report, problem: problem)
                    usbLanes[reader.name] = lane
                    lane.start()
                }
            }
            for tap in watcher.nextTaps(onProblem: problem, quietWithoutPCSCD: !usbLanes.isEmpty) {
                let lane = try lanes[tap.reader] ?? ReaderLane(reader: tap.reader, engine: engine())
                lanes[tap.reader] = lane
                lane.read { engine in
                    let result: Result<CardReading, TransitError>
                    do {
                        result = engine.read(try PCSCContext().connect(tap.reader, exchangeTimeout: exchangeTimeout), dialect: dialect).result
                    } catch {
                        result = .failure(TransitError(error, while: "connecting to \(tap.reader)"))
                    }
                    report(tap.reader, result)
                }
            }
        }
    }
}

import Foundation
import TransitEngine
import TransitModel
import TransitUSB

/// One RC-S380 of a watch, on a thread of its own: polled for a card about four times a second,
/// each new card read once (one left on the reader is not read again until it has gone; a damaged
/// answer to the Polling is not its going), and a
/// reader that fails said once; one unplugged ends its lane, to be found again if it comes back.
package final class USBReaderLane: @unchecked Sendable {
    /// Seconds between looks at the bus for RC-S380s plugged in.
    package static let busInterval = 5.0
    package let reader: RCS380Reader
    private let engine: ReadEngine
    private let exchangeTimeout: Double
    private let report: (String, Result<CardReading, TransitError>) -> Void
    private let problem: (String) -> Void
    private let lock = NSLock()
    private var alive = true

    package init(reader: RCS380Reader, engine: ReadEngine, exchangeTimeout: Double,
         report: @escaping (String, Result<CardReading, TransitError>) -> Void, problem: @escaping (String) -> Void) {
        self.reader = reader; self.engine = engine; self.exchangeTimeout = exchangeTimeout; self.report = report; self.problem = problem
    }

    /// False once the lane has ended (its reader unplugged).
    package var running: Bool { lock.lock(); defer { lock.unlock() }; return alive }

    package func start() {
        Thread.detachNewThread { [self] in
            serve()
            lock.lock(); alive = false; lock.unlock()
        }
    }

    private func serve() {
        var present: [UInt8]?
        var lastProblem: String?
        while true {
            do {
                switch try reader.look(by: Deadline(secondsFromNow: exchangeTimeout)) {
                case .card(let card) where card.idm != present:
                    present = card.idm
                    report(reader.name, engine.read(try reader.channel(card, exchangeTimeout: exchangeTimeout)).result)
                case .card, .damaged:
                    break // the same card, or one whose answer came back damaged: not a new tap, not gone
                case .none:
                    present = nil
                }
                lastProblem = nil
            } catch {
                present = nil
                let e = TransitError(error, while: "watching \(reader.name)")
                if e.message != lastProblem { problem("\(e.message)\(e.kind == .noReader ? "" : "; watching it again")") }
                lastProblem = e.message
                reader.close()
                if e.kind == .noReader { return } // unplugged: found again at the next look at the bus
            }
            Thread.sleep(forTimeInterval: CardFinder.usbPollInterval)
        }
    }
}

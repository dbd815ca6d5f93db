import Foundation
import TransitEngine
import TransitModel
import TransitUSB

/// One RC-S380 of a watch, on a thread of its own: polled for a card about four times a second,
/// each new card read once (one left on the reader is not read again until it has gone; a damaged
/// answer to the Polling is not its going), and a
/// reader that fails said once for each kind of failure (`failureKind`); one unplugged ends its
/// lane, to be found again if it comes back.
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
                let kind = Self.failureKind(e)
                if kind != lastProblem { problem("\(e.message)\(e.kind == .noReader ? "" : "; watching it again")") }
                lastProblem = kind
                reader.close()
                if e.kind == .noReader { return } // unplugged: found again at the next look at the bus
            }
            Thread.sleep(forTimeInterval: USBCardSearch.pollInterval)
        }
    }

    /// What a failure is, without what it quotes: its kind and its words, less what is in
    /// parentheses and every word with a digit (the bytes, counts and codes a reader's garbage
    /// fills in). A reader that fails every look with other garbage is said once, not at every
    /// look (issue 36 §4: 44 lines in 12 s); a failure of another kind is said again.
    package static func failureKind(_ e: TransitError) -> String {
        var words = "", depth = 0
        for c in e.message {
            if c == "(" { depth += 1 } else if c == ")" { depth = max(0, depth - 1) } else if depth == 0 { words.append(c) }
        }
        let kept = words.split(whereSeparator: \.isWhitespace).filter { !$0.contains(where: \.isNumber) && !$0.allSatisfy(\.isHexDigit) }
        return e.kind.rawValue + ": " + kept.joined(separator: " ")
    }
}

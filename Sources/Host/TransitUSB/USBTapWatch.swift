import Foundation
import Synchronization
import TransitModel
import TransitTransport

/// The USB readers watched for taps: the bus looked at every `busInterval` (one plugged in
/// later is found at the next look), each reader polled on a thread of its own about four times a
/// second (`USBCardSearch.pollInterval`), each new card read once on the reader's lane while the
/// poll waits (one left on the reader is not read again until it has gone; a damaged answer to the
/// Polling is not its going), and a reader that fails said once for each kind of failure
/// (`failureKind`); one unplugged ends its poll, to be found again if it comes back.
package final class USBTapWatch: TapWatch {
    /// Seconds between looks at the bus for USB readers plugged in.
    package static let busInterval = 5.0
    private let filters: [String], exchangeTimeout: Double, log: (String) -> Void
    private let handler: TapHandler
    private var polls = [String: Poll]()
    /// When the bus was last looked at, on the monotonic clock (a wall clock set back must not stop the looks).
    private var busLooked: Deadline?

    package init(filters: [String], exchangeTimeout: Double, log: @escaping (String) -> Void, handler: TapHandler) {
        self.filters = filters; self.exchangeTimeout = exchangeTimeout; self.log = log; self.handler = handler
    }

    /// True while a reader is polled (as of the last look at the bus).
    package var watching: Bool { !polls.isEmpty }

    package func prepare() throws {
        guard busLooked.map({ Deadline.now.seconds(since: $0) >= Self.busInterval }) ?? true else { return }
        busLooked = .now
        for (name, poll) in polls where !poll.running {
            polls[name] = nil
            handler.close(name)
        }
        for reader in USBReaders.connected(matching: filters) where polls[reader.name] == nil {
            reader.log = log
            try handler.open(reader.name)
            let poll = Poll(reader: reader, exchangeTimeout: exchangeTimeout, handler: handler)
            polls[reader.name] = poll
            poll.start()
        }
    }

    /// Its taps come on the polls' threads: nothing to wait on here.
    package func next(quietWithoutService: Bool) -> Bool { false }

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

    /// One USB reader polled on a thread of its own until it is unplugged.
    // Unchecked for `reader` alone, which is not Sendable: once started, only the poll's thread uses it.
    private final class Poll: @unchecked Sendable {
        private let reader: any USBReader
        private let exchangeTimeout: Double
        private let handler: TapHandler
        private let alive = Mutex(true)

        init(reader: any USBReader, exchangeTimeout: Double, handler: TapHandler) {
            self.reader = reader; self.exchangeTimeout = exchangeTimeout; self.handler = handler
        }

        /// False once the poll has ended (its reader unplugged).
        var running: Bool { alive.withLock { $0 } }

        func start() {
            Thread.detachNewThread { [self] in
                serve()
                alive.withLock { $0 = false }
            }
        }

        private func serve() {
            var present: [UInt8]?
            var lastProblem: String?
            while true {
                do {
                    switch try reader.look(by: Deadline(secondsFromNow: exchangeTimeout)) {
                    case .card(let card) where card.identity != present:
                        present = card.identity
                        try read(try reader.channel(card, exchangeTimeout: exchangeTimeout))
                        // A type A card left on the reader would answer the next look's SENS_REQ
                        // only after falling back to IDLE, and be read again: halted, it stays
                        // silent until it leaves the field (ISO/IEC 14443-3 6.3.3).
                        if case .typeA = card { reader.halt(by: Deadline(secondsFromNow: exchangeTimeout)) }
                    case .card, .damaged:
                        break // the same card, or one whose answer came back damaged: not a new tap, not gone
                    case .none:
                        present = nil
                    }
                    lastProblem = nil
                } catch {
                    present = nil
                    let e = TransitError(error, while: "watching \(reader.name)")
                    let kind = USBTapWatch.failureKind(e)
                    if kind != lastProblem { handler.problem("\(e.message)\(e.kind == .noReader ? "" : "; watching it again")") }
                    lastProblem = kind
                    reader.close()
                    if e.kind == .noReader { return } // unplugged: found again at the next look at the bus
                }
                Thread.sleep(forTimeInterval: USBCardSearch.pollInterval)
            }
        }

        /// The card read on the reader's lane; the poll waits for the read, which uses the reader.
        private func read(_ channel: ReaderChannel) throws {
            let done = DispatchSemaphore(value: 0)
            try handler.read(CardTap(reader: reader.name, takesDialect: false) { channel }, done: { done.signal() })
            done.wait()
        }
    }
}

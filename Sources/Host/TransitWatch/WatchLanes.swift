import Foundation
import TransitEngine
import TransitModel
import TransitTransport

/// A watch's lanes by reader name (`ReaderLane`, each with its own read engine), as the sources'
/// watches hand them taps — from the watch loop's thread and from the threads USB readers are
/// polled on. A lane reads its tap's channel (`--dialect` where the tap takes one) and reports it.
// Unchecked: `lanes` only under `lock`; its closures run on the lanes' threads, which WatchCommand's are written for.
final class WatchLanes: TapHandler, @unchecked Sendable {
    private let dialect: FeliCaDialect?
    private let engine: () throws -> ReadEngine
    private let report: (String, Result<CardReading, TransitError>) -> Void
    private let say: (String) -> Void
    /// Guards `lanes`; never held while an engine is made or a tap read.
    private let lock = NSLock()
    private var lanes = [String: ReaderLane]()

    init(dialect: FeliCaDialect?, engine: @escaping () throws -> ReadEngine,
         report: @escaping (String, Result<CardReading, TransitError>) -> Void, problem: @escaping (String) -> Void) {
        self.dialect = dialect; self.engine = engine; self.report = report; say = problem
    }

    func open(_ reader: String) throws { _ = try lane(reader) }

    func read(_ tap: CardTap, done: @escaping () -> Void) throws {
        let (report, dialect) = (self.report, self.dialect)
        try lane(tap.reader).read { engine in
            let result: Result<CardReading, TransitError>
            do {
                result = engine.read(try tap.channel(), dialect: tap.takesDialect ? dialect : nil).result
            } catch {
                result = .failure(TransitError(error, while: "connecting to \(tap.reader)"))
            }
            report(tap.reader, result)
            done()
        } dropped: { done() }
    }

    func close(_ reader: String) {
        lock.lock(); lanes[reader] = nil; lock.unlock()
    }

    func problem(_ line: String) { say(line) }

    /// The reader's lane, made with a new read engine when it has none.
    private func lane(_ reader: String) throws -> ReaderLane {
        lock.lock()
        let known = lanes[reader]
        lock.unlock()
        if let known { return known }
        let made = ReaderLane(reader: reader, engine: try engine())
        lock.lock()
        defer { lock.unlock() }
        if let raced = lanes[reader] { return raced }
        lanes[reader] = made
        return made
    }
}

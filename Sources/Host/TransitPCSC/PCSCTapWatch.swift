import Foundation
import TransitModel
import TransitTransport

/// pcscd's readers watched for taps (`ReaderWatcher`): each wait on the loop's thread, up to about
/// half a second, woken by pcscd when a card comes; each tap connected to as its read starts, on
/// its reader's lane. A pcscd restart is waited out, and said only when no other source's readers
/// are watched (`quietWithoutService`).
final class PCSCTapWatch: TapWatch {
    private var watcher: ReaderWatcher
    private let exchangeTimeout: Double
    private let handler: TapHandler

    init(filters: [String], exchangeTimeout: Double, handler: TapHandler) {
        watcher = ReaderWatcher(filters: filters); self.exchangeTimeout = exchangeTimeout; self.handler = handler
    }

    var watching: Bool { !watcher.watched.isEmpty }

    func prepare() {}

    func next(quietWithoutService: Bool) throws -> Bool {
        let exchangeTimeout = self.exchangeTimeout
        for tap in watcher.nextTaps(onProblem: handler.problem, quietWithoutPCSCD: quietWithoutService) {
            let reader = tap.reader
            try handler.read(CardTap(reader: reader, takesDialect: true) {
                try PCSCContext().connect(reader, exchangeTimeout: exchangeTimeout)
            }, done: {})
        }
        return true
    }
}

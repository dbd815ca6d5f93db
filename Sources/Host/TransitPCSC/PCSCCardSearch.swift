import Foundation
import TransitModel
import TransitTransport

/// pcscd's readers searched for a card: one context for the search, made again after pcscd comes
/// back; a change on the candidates wakes the wait (SCardGetStatusChange).
final class PCSCCardSearch: CardSearch {
    private let filter: String?, exchangeTimeout: Double
    private var context: PCSCContext?
    private var candidates = [String]()

    init(filter: String?, exchangeTimeout: Double) { self.filter = filter; self.exchangeTimeout = exchangeTimeout }

    func prepare() {}
    var hasReaders: Bool { !candidates.isEmpty }
    var pollInterval: Double? { nil }

    func look() throws -> SearchLook {
        if context == nil {
            do {
                context = try PCSCContext()
            } catch let e as TransitError where e.pcscCode == PCSCStatus.noService.code {
                return SearchLook(serviceRunning: false)
            }
        }
        guard let pcsc = context else { return SearchLook(serviceRunning: false) }
        let look = try pcsc.look(readerFilter: filter)
        candidates = look.candidates
        var out = SearchLook(all: look.all, candidates: look.candidates)
        if let ready = look.ready { out.found = FoundCard(channel: try pcsc.connect(ready, exchangeTimeout: exchangeTimeout), giveBack: {}) }
        return out
    }

    func waitForChange(_ seconds: Double) -> Bool {
        guard let pcsc = context, !candidates.isEmpty else { return false }
        pcsc.waitForChange(candidates, timeoutMs: UInt(seconds * 1000))
        return true
    }

    func reset() { context = nil; candidates = [] }
    func close() {}
}

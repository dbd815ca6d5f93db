import Foundation
import TransitModel
import TransitTransport

/// The USB readers searched for a card: the bus looked at again each second (a reader plugged
/// in during `--wait` is read), each reader opened once and looked at by its driver about four
/// times a second; every reader
/// opened is given back but the one with the card.
package final class USBCardSearch: CardSearch {
    /// How often a USB reader is polled while a command waits.
    package static let pollInterval = 0.25
    /// How often the bus is looked at again while a command waits.
    package static let busInterval = 1.0

    private let filter: String?, exchangeTimeout: Double, log: (String) -> Void
    private var readers = [any USBReader]()
    /// When the bus was last looked at (monotonic); nil before the first look.
    private var busLooked: Deadline?
    private var handedOut: (any USBReader)?

    package init(filter: String?, exchangeTimeout: Double, log: @escaping (String) -> Void) {
        self.filter = filter; self.exchangeTimeout = exchangeTimeout; self.log = log
    }

    package func prepare() {
        guard busLooked.map({ Deadline.now.seconds(since: $0) >= Self.busInterval }) ?? true else { return }
        busLooked = .now
        let known = Set(readers.map(\.name))
        for reader in USBReaders.connected(matching: filter.map { [$0] } ?? []) where !known.contains(reader.name) {
            reader.log = log
            readers.append(reader)
        }
    }

    package var hasReaders: Bool { !readers.isEmpty }
    package var pollInterval: Double? { readers.isEmpty ? nil : Self.pollInterval }

    package func look() throws -> SearchLook {
        let names = readers.map(\.name)
        var out = SearchLook(all: names, candidates: names,
                             note: names.isEmpty ? nil : Self.note(readers.map(\.found.model)))
        for reader in readers {
            do {
                guard let card = try reader.sense(by: Deadline(secondsFromNow: exchangeTimeout)) else { continue }
                for other in readers where other !== reader { other.close() }
                let channel = try reader.channel(card, exchangeTimeout: exchangeTimeout)
                handedOut = reader
                out.found = FoundCard(channel: channel, giveBack: { reader.close() })
                return out
            } catch {
                out.problem = error
            }
        }
        return out
    }

    /// What the readers searched read, from their table lines: "the RC-S380 reads FeliCa cards
    /// and MIFARE Ultralight tickets only: …"; for readers of several families, each one's.
    package static func note(_ models: [USBReaderModel]) -> String {
        let families = USBReaderTable.families(models)
        let said = families.compactMap { family in models.first { $0.family == family } }.map { model in
            let count = models.filter { $0.family == model.family }.count
            return "\(count == 1 ? "the \(model.family) reads" : "\(model.family)s read") \(model.chipset.readsOnly)"
        }
        return said.joined(separator: "; ")
    }

    package func waitForChange(_ seconds: Double) -> Bool { false }
    package func reset() {}

    package func close() {
        for reader in readers where reader !== handedOut { reader.close() }
    }
}

import Foundation
import TransitModel
import TransitTransport

/// The RC-S380s on USB searched for a card: the bus looked at again each second (a reader plugged
/// in during `--wait` is read), each reader opened once and polled — a Polling at each bit rate,
/// then a type A sense when no FeliCa card answered — about four times a second; every reader
/// opened is given back but the one with the card.
package final class USBCardSearch: CardSearch {
    /// How often an RC-S380 is polled while a command waits.
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
                             note: names.isEmpty ? nil : Self.note(names))
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

    /// What the readers searched read: the RC-S380 FeliCa cards and MIFARE Ultralight tickets,
    /// an RC-S330/360/370 FeliCa cards.
    private static func note(_ names: [String]) -> String {
        let rcs380s = names.filter { $0.contains("RC-S380") }.count
        if rcs380s == names.count {
            return "\(names.count == 1 ? "the RC-S380 reads" : "RC-S380s read") FeliCa cards and MIFARE Ultralight tickets only: Suica, ICOCA, Edy, WAON, nanaco, Octopus…; Compass, Ventra…"
        }
        if rcs380s == 0 {
            return "\(names.count == 1 ? "the RC-S330/360/370 reads" : "RC-S330/360/370s read") FeliCa cards only: Suica, ICOCA, Edy, WAON, nanaco, Octopus…"
        }
        return "these Sony readers read FeliCa cards (Suica, ICOCA, Edy, WAON, nanaco, Octopus…), the RC-S380 MIFARE Ultralight tickets too"
    }

    package func waitForChange(_ seconds: Double) -> Bool { false }
    package func reset() {}

    package func close() {
        for reader in readers where reader !== handedOut { reader.close() }
    }
}

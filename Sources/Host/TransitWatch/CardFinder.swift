import Foundation
import TransitEngine
import TransitModel
import TransitTransport

/// Where a read finds its card: the first reader with one, among pcscd's readers and the Sony
/// USB readers (read through libusb, with no pcscd), looked at again until `--wait` runs out.
/// A user with only a USB reader needs no pcscd; one with only PC/SC readers sees no difference.
package struct CardFinder {
    /// A part of the reader's name (`--reader`), case-insensitive.
    package let filter: String?
    /// `--wait`: seconds to wait for a reader and a card, 0 to look once.
    package let wait: Double
    package let exchangeTimeout: Double
    /// `--verbose` lines.
    package let log: (String) -> Void
    /// The kinds of reader looked at, in order: a card on an earlier one wins.
    package let sources: [ReaderSource]
    /// The clock the wait's deadline passes on and its pauses sleep by.
    package let clock: MonotonicClock

    /// How long a wait sleeps between looks when no reader must be polled and none can wake it.
    package static let idlePause = 0.2

    package init(filter: String?, wait: Double, exchangeTimeout: Double, log: @escaping (String) -> Void,
                 sources: [ReaderSource] = ReaderSources.all, clock: MonotonicClock = SystemClock.shared) {
        self.filter = filter; self.wait = wait; self.exchangeTimeout = exchangeTimeout; self.log = log; self.sources = sources
        self.clock = clock
    }

    /// The card's channel, and what gives its reader back once the read is done. Whatever ends
    /// the look, every reader the searches opened but the card's is given back. `deadline` (on
    /// `clock`) ends the wait.
    package func find(deadline: Deadline, speaker: WaitSpeaker) throws -> (channel: ReaderChannel, done: () -> Void) {
        let searches = sources.map { $0.search(filter: filter, exchangeTimeout: exchangeTimeout, log: log) }
        defer { searches.forEach { $0.close() } }
        var looks = [SearchLook](repeating: SearchLook(), count: searches.count)
        while true {
            searches.forEach { $0.prepare() }
            for (i, search) in searches.enumerated() {
                do {
                    looks[i] = try search.look()
                } catch let e as TransitError where e.kind != .cancelled && searches.contains(where: { $0 !== search && $0.hasReaders }) {
                    // pcscd went away (or restarts) while a USB reader is watched too: look again later.
                    search.reset()
                    looks[i] = SearchLook(serviceRunning: false)
                }
                if let found = looks[i].found { return (found.channel, found.giveBack) }
            }
            if clock.hasPassed(deadline) { throw failure(looks) }
            let waitingOn = looks.flatMap(\.candidates)
            if looks.contains(where: { !$0.serviceRunning }) && looks.allSatisfy({ $0.all.isEmpty }) {
                speaker.say(L10n.tr("for pcscd to start"))
            } else {
                speaker.say(waitingOn.isEmpty ? L10n.tr("for a reader")
                    : waitingOn.count == 1 ? L10n.tr("for a card on %1$s", TerminalText.escape(waitingOn[0]))
                    : L10n.trn("for a card on %1$s reader", "for a card on %1$s readers", waitingOn.count, String(waitingOn.count)))
            }
            // pcscd's readers wake the wait at once when a card comes; a USB reader is polled.
            let pause = min(searches.compactMap(\.pollInterval).min() ?? Self.idlePause, max(0.01, clock.secondsLeft(until: deadline)))
            if !searches.contains(where: { $0.waitForChange(pause) }) { clock.sleep(until: clock.deadline(in: pause)) }
        }
    }

    /// Why no card was found, most useful first: a reader that could not be used (no access, busy:
    /// `communication`, said whatever other reader there is), no reader of any kind
    /// (`NoReaderFound`), none that matches, no card.
    private func failure(_ looks: [SearchLook]) -> TransitError {
        for (i, look) in looks.enumerated() {
            guard let problem = look.problem else { continue }
            let others = looks.indices.filter { $0 != i }.flatMap { looks[$0].candidates }
            if problem.kind == .communication || others.isEmpty { return problem }
        }
        let all = looks.flatMap(\.all), candidates = looks.flatMap(\.candidates)
        if all.isEmpty { return NoReaderFound(pcscdRunning: looks.allSatisfy(\.serviceRunning)).error }
        if candidates.isEmpty, let filter {
            return TransitError(.noReader, L10n.words("no reader matches \"%1$s\" (readers: %2$s)", .init(filter), .init(all.joined(separator: ", "))))
        }
        if candidates.isEmpty {
            return TransitError(.noReader, L10n.words("only SAM interfaces are connected (%1$s); name one with --reader", .init(all.joined(separator: ", "))))
        }
        // A source's notes, as it said them.
        var notes = L10n.Words(looks.compactMap(\.note).map { " (\($0))" }.joined())
        // The readers looked at without a note of their own, each with its table line.
        let profiled = looks.filter { $0.note == nil }.flatMap(\.candidates).map { (name: $0, profile: ReaderProfile.matching($0)) }
        // A reader whose line says it reads no type B card: a Calypso card on it is never seen.
        let noTypeB = profiled.filter { $0.profile.readsTypeB == false }.map(\.name)
        if !noTypeB.isEmpty {
            notes = notes + L10n.wordsn(" (%1$s reads no ISO 14443 type B card: Navigo, MOBIB and most Calypso cards are not seen there)",
                                        " (%1$s read no ISO 14443 type B card: Navigo, MOBIB and most Calypso cards are not seen there)",
                                        noTypeB.count, .init(noTypeB.joined(separator: ", ")))
        }
        // A reader that never hands over a MIFARE Classic or Ultralight card (a phone): said once.
        let unseen = Set(profiled.compactMap(\.profile.storageCardsUnseen))
        for note in unseen.sorted() { notes = notes + .init(" (") + ReaderProfile.words(note) + .init(")") }
        let lead = candidates.count == 1 ? L10n.words("no card on %1$s", .init(candidates[0])) : L10n.words("no card on any reader")
        return TransitError(.noCard, lead + notes
                            + (wait > 0 ? L10n.words(" after %1$s s", .init(String(Int(wait)))) : L10n.words("; hold a card on the reader or use --wait SECONDS")))
    }
}

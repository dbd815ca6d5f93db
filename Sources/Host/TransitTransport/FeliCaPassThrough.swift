import CardProtocol
import TransitModel
/// Carries FeliCa frames through one reader: in the dialects its `ReaderProfile` lists, in order,
/// until one works; inside a Part 3 transparent session where the profile asks for one; never in a
/// dialect the profile marks unsafe. Once a dialect has carried a frame (or the card's silence)
/// it is kept for the card.
package final class FeliCaPassThrough {
    package let profile: ReaderProfile
    package let readerName: String
    /// The dialect frames travel in now; nil when the reader passes none.
    package private(set) var dialect: FeliCaDialect?
    /// Dialects that did not work on the first exchange, in the order tried, and why.
    package private(set) var refused = [(dialect: FeliCaDialect, why: String)]()
    /// True once `dialect` carried a frame or the card's silence.
    package private(set) var confirmed = false
    private let order: [FeliCaDialect]
    private let forced: FeliCaDialect?
    /// Manage Session: not asked yet, taken (to be ended), or refused by the reader.
    private enum Session { case notAsked, open, refused }
    private var session = Session.notAsked
    /// Receives the pass-through's log lines (a dialect replaced, the session).
    package var log: (String) -> Void = { _ in }

    /// `forced` (`--dialect`) is the only one tried; otherwise `firstGuess` (the dialect this reader
    /// used before) goes first when the profile allows it, then the profile's order.
    package init(profile: ReaderProfile, readerName: String, forced: FeliCaDialect?, firstGuess: FeliCaDialect?) {
        self.profile = profile; self.readerName = readerName; self.forced = forced
        if let forced {
            order = [forced]
        } else if let firstGuess, profile.unsafe[firstGuess] == nil {
            order = [firstGuess] + profile.dialects.filter { $0 != firstGuess }
        } else {
            order = profile.dialects
        }
        dialect = order.first
        // A reader of transit's own carries its dialect by construction: nothing to confirm.
        confirmed = profile.ownDriver && dialect == profile.dialects.first
    }

    /// The dialect a read in this reader begins with (for a read that failed before any exchange).
    package static func firstDialect(readerName: String, forced: FeliCaDialect?, firstGuess: FeliCaDialect?) -> FeliCaDialect? {
        FeliCaPassThrough(profile: .matching(readerName), readerName: readerName, forced: forced, firstGuess: firstGuess).dialect
    }

    /// The card's frame, or nil when it stayed silent. `send` is one exchange with the reader.
    package func exchange(_ frame: [UInt8], _ send: ([UInt8]) throws -> [UInt8]) throws -> [UInt8]? {
        if let forced, let why = profile.unsafe[forced] {
            throw TransitError(.usage, L10n.words("--dialect %1$s is never sent to %2$s: %3$s", .init(forced.rawValue), .init(readerName), ReaderProfile.words(why)))
        }
        while let dialect {
            if dialect == .part3 { try openSession(send) }
            guard let apdu = FeliCaFraming.wrap(frame, dialect) else {
                throw TransitError(.communication, L10n.words("a FeliCa frame of %1$s bytes does not fit one %2$s command", .init(String(frame.count)), .init(dialect.rawValue)))
            }
            let answer = try send(apdu)
            // Until a dialect has worked, a 63 00 or a PN532 error tells nothing of the card (a reader
            // given another's wrapper hands it to the card, which ignores it): try the next dialect.
            let tentative = forced == nil && !confirmed
            if tentative, FeliCaFraming.saysNothingOfTheCard(answer, dialect) {
                try next(because: "answer \(HexFormat.string(answer.suffix(5))): the card stayed silent or the reader does not take it")
                continue
            }
            let outcome = try FeliCaFraming.unwrap(answer, dialect)
            switch outcome {
            case .frame(let card):
                confirmed = true
                return card
            case .silent:
                confirmed = true
                return nil
            case .refused(let why) where confirmed:
                throw TransitError(.communication, L10n.words("the reader refused the FeliCa pass-through in %1$s (%2$s), which it had carried", .init(dialect.rawValue), .init(why)))
            case .refused(let why):
                try next(because: why)
            }
        }
        throw noPassThrough()
    }

    /// Ends a transparent session this read opened (Manage Session 82 00). Nothing is sent when none
    /// is open; an answer or failure changes nothing (the read is over).
    package func finish(_ send: ([UInt8]) throws -> [UInt8]) {
        guard session == .open else { return }
        session = .notAsked
        _ = try? send(FeliCaFraming.endSession)
    }

    /// Opens the profile's transparent session before the first Transparent Exchange. A reader that
    /// refuses it gets the exchanges without one.
    private func openSession(_ send: ([UInt8]) throws -> [UInt8]) throws {
        guard profile.transparentSession, session == .notAsked else { return }
        let answer = try send(FeliCaFraming.startSession)
        if FeliCaFraming.sessionStarted(answer) {
            session = .open
            log("reader: transparent session started (Part 3 Manage Session)")
        } else {
            session = .refused
            log("reader: refused the transparent session (answer \(HexFormat.string(answer))); exchanging without one")
        }
    }

    /// Moves to the next dialect after `dialect` did not work, or throws when none is left.
    private func next(because why: String) throws {
        guard let failed = dialect else { return }
        refused.append((failed, why))
        let following = order.first { d in !refused.contains { $0.dialect == d } }
        if let forced, following == nil {
            throw TransitError(.communication, L10n.words("the reader refused the FeliCa pass-through in %1$s (%2$s); try another --dialect", .init(forced.rawValue), .init(why)))
        }
        if let following { log("reader: the \(failed.rawValue) pass-through did not work (\(why)); trying \(following.rawValue)") }
        dialect = following
    }

    /// The error of a reader through which no dialect carried a frame: it names the reader, what
    /// was tried, and what to use instead. Never `tagNotSupported`: the card may be perfectly known.
    private func noPassThrough() -> TransitError {
        let tried = refused.map { "\($0.dialect.rawValue): \($0.why)" }.joined(separator: "; ")
        let what = tried.isEmpty ? L10n.words("no FeliCa pass-through is known for %1$s (%2$s)", .init(profile.name), .init(profile.source))
            : L10n.words("it refused every dialect tried (%1$s)", .init(tried))
        return TransitError(.readerUnsupported, L10n.words("""
            %1$s passes no FeliCa commands: %2$s. Read FeliCa cards on a reader that passes them, such as an ACS ACR1252U or a Sony RC-S300 (docs/readers.md)
            """, .init(readerName), what))
    }
}

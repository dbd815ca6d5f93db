import CardProtocol
import Foundation
import TransitModel
import TransitTransport

/// A 106 kbit/s type A card an RC-S380 selected, made to look to the rest of the host like a
/// storage card on a PC/SC reader: the PC/SC Part 3 ATR of a MIFARE Classic or Ultralight
/// (`TypeA.atr`), `FF CA 00 00 00` answered with the UID, and Read Binary `FF B0 00 <page> <Le>`
/// sent to the card as one Type 2 READ (`30 <page>`, four pages) through one InCommRF. So the
/// host's storage-card path (`CardSession`, `StorageCardReader`) reads an Ultralight here as on
/// an ACR122U, and a Classic ends where the reader table says the RC-S380 cannot open its sectors
/// (`ReaderProfile.rcs380`'s `classicRefusal`), before any command reaches the card. Nothing that writes is
/// ever sent: every other APDU is refused here.
package final class RCS380TypeAChannel: ReaderChannel {
    package let reader: RCS380
    /// The card, as the sense selected it.
    package let target: RCS380.TypeATarget
    /// "SONY RC-S380/S (USB 1:13)": its table line's `profile` matches it.
    package let readerName: String
    /// Seconds one exchange may take (`--exchange-timeout`).
    package let exchangeTimeout: Double
    /// The time a card is given to answer a READ. A Type 2 tag answers within a few milliseconds;
    /// 0.1 s is the FeliCa channel's floor (`RCS380Channel.frameTimeout`).
    package let frameTimeout: Double
    /// READs sent again after a damaged answer (`RCS380.tries`), counted in the log bundle.
    package private(set) var retryCount = 0
    /// `--verbose` lines: each retry.
    package var log: (String) -> Void

    package init(reader: RCS380, target: RCS380.TypeATarget, readerName: String, exchangeTimeout: Double = ReadLimits().exchangeTimeout,
                 frameTimeout: Double = 0.1, log: @escaping (String) -> Void = { _ in }) {
        self.reader = reader; self.target = target; self.readerName = readerName; self.log = log
        self.exchangeTimeout = exchangeTimeout; self.frameTimeout = frameTimeout
    }

    /// The card's ATR; an ISO 14443-4 or NFC-DEP card (never handed out by `RCS380Reader`) gets
    /// PC/SC Part 3's form for an ISO card with no historical bytes, `3B 80 80 01 01`.
    package var atr: [UInt8] { TypeA.atr(kind: target.kind, sak: target.sak) ?? [0x3B, 0x80, 0x80, 0x01, 0x01] }

    package var retries: Int? { retryCount }

    /// `FF CA` and `FF B0` as a PC/SC reader answers them for a storage card; any other `FF`
    /// command "function not supported" (`6A 81`, PC/SC Part 3 3.2.2.1), anything else "class not
    /// supported" (`6E 00`).
    package func transmit(_ apdu: [UInt8], by deadline: Deadline) throws(TransitError) -> [UInt8] {
        guard apdu.count >= 4, apdu[0] == 0xFF else { return [0x6E, 0x00] }
        switch apdu[1] {
        case 0xCA: return getData(apdu)
        case 0xB0 where target.kind == .type2: return try readBinary(apdu, by: deadline)
        default: return [0x6A, 0x81]
        }
    }

    private var clock: MonotonicClock { reader.port.clock }

    /// GET DATA (PC/SC Part 3, 3.2.2.1.3): P1 00 is the UID the anticollision gave; anything else
    /// is not supported (`6A 81`). An Le below the UID's length is told the right one (`6C xx`).
    private func getData(_ apdu: [UInt8]) -> [UInt8] {
        guard apdu[2] == 0x00, apdu[3] == 0x00, apdu.count <= 5 else { return [0x6A, 0x81] }
        if apdu.count == 5, apdu[4] != 0x00, Int(apdu[4]) < target.uid.count { return [0x6C, UInt8(target.uid.count)] }
        return target.uid + [0x90, 0x00]
    }

    /// Read Binary of an Ultralight (PC/SC Part 3 3.2.2.1.8; ACR122T API v2.02 §5.4 examples 2–3):
    /// P1 00, P2 the page, Le 10 or 00 for four pages, 04 for one (at most 16 bytes). One READ:
    /// the tag's 16 bytes `90 00`; its NAK (the page is past its memory) `63 00`, a reader's
    /// failure as ACS readers answer it.
    private func readBinary(_ apdu: [UInt8], by deadline: Deadline) throws(TransitError) -> [UInt8] {
        guard apdu[2] == 0x00, apdu.count == 5 else { return [0x6A, 0x81] }
        let wanted = apdu[4] == 0x00 ? 16 : Int(apdu[4])
        guard wanted <= 16, wanted % 4 == 0, wanted > 0 else { return [0x6C, 0x10] }
        guard !clock.hasPassed(deadline) else { throw overDeadline() }
        let read = TypeA.read(page: apdu[3])
        let reception: RCS380.Reception
        do throws(TransitError) {
            reception = try tried(read, by: deadline) { (left: Double) throws(TransitError) -> RCS380.Reception in
                try reader.exchangeTypeA(read, timeout: min(frameTimeout, exchangeTimeout, left), deadline: deadline)
            }
        } catch {
            if clock.hasPassed(deadline), error.kind == .communication { throw overDeadline() }
            throw error
        }
        switch reception {
        case .frame(let answer) where answer.count == 16:
            return Array(answer.prefix(wanted)) + [0x90, 0x00]
        case .frame(let answer) where answer.count <= 1:
            // A 4-bit NAK (NXP MF0ICU1 §9.3: an address past the memory): the card refused.
            return [0x63, 0x00]
        case .frame(let answer):
            throw TransitError(.malformedResponse, "the card answered READ of page \(apdu[3]) with \(answer.count) bytes, not 16")
        case .silence:
            // A Type 2 tag in the field answers every READ, with its data or a NAK (MF0ICU1 §9.3):
            // silence after the tries is the card gone.
            throw TransitError(.sessionLost, L10n.words("the card was removed during the read"))
        case .radioError(let status) where status.isDamage:
            throw TransitError(.communication, USBFeliCaChannel.damaged(readerName, "\(status)", tries: lastTries))
        case .radioError(let status):
            throw TransitError(.communication, L10n.words("%1$s reported %2$s receiving the card's answer", .init(readerName), .init("\(status)")))
        }
    }

    /// How often the last READ went.
    private var lastTries = 0

    /// Sends a READ with `send` (given the seconds left) and again while its answer comes back
    /// damaged or not at all, up to `RCS380.tries` in all, never past `deadline`: a READ changes
    /// nothing on the card. Each retry is logged and counted.
    private func tried(_ frame: [UInt8], by deadline: Deadline,
                       _ send: (Double) throws(TransitError) -> RCS380.Reception) throws(TransitError) -> RCS380.Reception {
        let sent = try sendAgainWhile(Self.worthAgain, tries: RCS380.tries, by: deadline, on: clock, retrying: { count, reception in
            retryCount += 1
            log("\(readerName): the card's answer to READ of page \(frame.count > 1 ? frame[1] : 0) came back \(Self.word(reception)); sending it again (try \(count) of \(RCS380.tries))")
        }, send)
        lastTries = sent.tries
        return sent.reception
    }

    private static func worthAgain(_ reception: RCS380.Reception) -> Bool {
        switch reception {
        case .silence: return true
        case .radioError(let status): return status.isDamage
        case .frame: return false
        }
    }

    private static func word(_ reception: RCS380.Reception) -> String {
        if case .radioError(let status) = reception { return "damaged (\(status))" }
        return "empty (silence)"
    }

    private func overDeadline() -> TransitError {
        TransitError(.communication, L10n.words("the read did not finish within its deadline (%1$s was still answering)", .init(readerName)))
    }
}

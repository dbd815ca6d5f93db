import CardProtocol
import Foundation
import TransitModel
import TransitTransport

/// A FeliCa card sensed on a USB reader (an RC-S380, an RC-S330/360/370: any `FeliCaRadio`), made
/// to look to the rest of the host like a card on a PC/SC reader of the bare-frame dialect (`FeliCaDialect.bareFrame`): a storage-card FeliCa ATR, `FF CA 00 00
/// 00` answered with the IDm, and every other APDU a FeliCa frame (its length byte first) sent
/// with one exchange of the chip's (InCommRF, InCommunicateThru) and answered `<frame> 90 00`, or `63 00` when the card stays silent. So
/// plugins, the worker, the log bundle and `transit replay` see nothing new.
package final class USBFeliCaChannel: ReaderChannel {
    package let reader: any FeliCaRadio
    /// The card, as the sense found it.
    package let target: FeliCaTarget
    /// "SONY RC-S380/S (USB 1:13)": its table line's `profile` matches it.
    package let readerName: String
    /// Seconds one exchange may take (`--exchange-timeout`); the card's own time is far shorter.
    package let exchangeTimeout: Double
    /// The shortest time a card is given to answer a frame other than a Polling: twice the 50 ms
    /// transit asks PC/SC readers for (`FeliCaFraming.part3Timer`), more when the card's PMm says
    /// its read takes longer (`FeliCaTiming`).
    package let frameTimeout: Double
    /// Presence checks made (a Polling after a silence or a radio error), counted in the reader's commands too.
    package private(set) var presenceChecks = 0
    /// Frames sent again after a damaged answer (`tries`), counted in the log bundle.
    package private(set) var retryCount = 0
    /// `--verbose` lines: each retry.
    package var log: (String) -> Void
    /// How often the last frame went (`tried`).
    private var lastTries = 0

    package init(reader: any FeliCaRadio, target: FeliCaTarget, readerName: String, exchangeTimeout: Double = ReadLimits().exchangeTimeout,
                 frameTimeout: Double = 0.1, log: @escaping (String) -> Void = { _ in }) {
        self.reader = reader; self.target = target; self.readerName = readerName; self.log = log
        self.exchangeTimeout = exchangeTimeout; self.frameTimeout = frameTimeout
    }

    /// The reader's name for a model on USB bus `bus`, device `address` (`USBReaderModel.readerName`).
    package static func readerName(model: USBReaderModel, bus: UInt8, address: UInt8) -> String {
        model.readerName(bus: bus, address: address)
    }

    /// A FeliCa card's ATR as PC/SC Part 3 builds it for a storage card (3.1.3.2.3): `3B 8F 80 01`,
    /// then the historical bytes `80 4F 0C`, the PC/SC RID `A0 00 00 03 06`, standard byte SS 11
    /// (FeliCa), card name `00 3B` (FeliCa), four RFU bytes, then TCK, the XOR of T0 through the
    /// last historical byte (ISO/IEC 7816-3, 8.2.5). pcsc-tools' smartcard_list has this ATR, TCK
    /// 42, as "RFID - FeliCa (generic)"; `ATRVerdict` reads it as FeliCa.
    package static let atr: [UInt8] = {
        let body: [UInt8] = [0x3B, 0x8F, 0x80, 0x01, 0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06, 0x11, 0x00, 0x3B, 0x00, 0x00, 0x00, 0x00]
        return body + [body.dropFirst().reduce(0, ^)]
    }()

    package var atr: [UInt8] { Self.atr }

    package var retries: Int? { retryCount }

    /// Answers `FF CA` from the sense, passes a frame to the card, refuses anything else as a
    /// reader refuses what it does not know (`6D 00`, `6E 00`: `FeliCaFraming.refusals`). A frame
    /// and its retries and presence check end by `deadline`, the read's.
    package func transmit(_ apdu: [UInt8], by deadline: Deadline) throws(TransitError) -> [UInt8] {
        if apdu.count >= 4, apdu[0] == 0xFF, apdu[1] == 0xCA { return getData(apdu) }
        // A frame's first byte is its own length; as an APDU it stands where CLA does.
        guard apdu.count >= 2, Int(apdu[0]) == apdu.count else {
            return apdu.first == 0xFF ? [0x6D, 0x00] : [0x6E, 0x00]
        }
        return try frame(apdu, by: deadline)
    }

    /// The reader's clock, on which its waits pass.
    private var clock: MonotonicClock { reader.clock }

    /// GET DATA (PC/SC Part 3, 3.2.2.1.3): P1 00 is the UID, here the IDm the Polling gave (the
    /// chip has no GET DATA of its own); anything else is not supported (`6A 81`). An Le below
    /// the IDm's 8 bytes is told the right one (`6C 08`).
    private func getData(_ apdu: [UInt8]) -> [UInt8] {
        guard apdu[2] == 0x00, apdu[3] == 0x00, apdu.count <= 5 else { return [0x6A, 0x81] }
        if apdu.count == 5, apdu[4] != 0x00, Int(apdu[4]) < target.idm.count { return [0x6C, UInt8(target.idm.count)] }
        return target.idm + [0x90, 0x00]
    }

    /// Times a frame other than a Polling goes to a card that stays silent though a Polling finds
    /// it still there, before its silence is the answer (`63 00`): the first silence may be the
    /// card's answer lost on the way (status 01, or a chip that never answered), which nfcpy's
    /// Type 3 layer meets by sending the command again (nfcpy tt3.py; rcs956-facts.md §4). Two, not
    /// `Self.tries`: a card is silent too to a command it does not take (the Edy of a phone to
    /// a Request Service under a derived IDm), and each try costs its timeout and a Polling.
    package static let silentTries = 2

    private func frame(_ frame: [UInt8], by deadline: Deadline) throws(TransitError) -> [UInt8] {
        var silences = 0
        while true {
            guard !clock.hasPassed(deadline) else { throw overDeadline() }
            let reception: FeliCaReception
            do throws(TransitError) {
                reception = try tried(frame, by: deadline) { (left: Double) throws(TransitError) -> FeliCaReception in
                    let timeout = min(FeliCaTiming.timeout(for: frame, pmm: target.pmm, floor: frameTimeout), exchangeTimeout, left)
                    return try reader.exchange(frame, timeout: timeout, deadline: deadline)
                }
            } catch {
                if clock.hasPassed(deadline), error.kind == .communication { throw overDeadline() }
                throw error
            }
            guard case .silence = reception, frame[1] != 0x00 else { return try answer(reception, to: frame, by: deadline) }
            // A Polling for a system the card lacks goes unanswered (above); any other silence may
            // be the card gone, which one Polling tells, or its answer lost: sent again while
            // `silentTries` and the read's deadline allow.
            try checkPresence(by: deadline)
            silences += 1
            guard silences < Self.silentTries, clock.secondsLeft(until: deadline) > 0 else { return [0x63, 0x00] }
            retryCount += 1
            log(L10n.tr("%1$s: the card did not answer command %2$s though it is still there; sending it again (try %3$s of %4$s)",
                        readerName, frame.count >= 2 ? HexFormat.string([frame[1]]) : "?", String(silences + 1), String(Self.silentTries)))
        }
    }

    /// What the channel answers for `reception`, the card's answer to `frame` (silence here is a
    /// Polling's, or a card's that stayed silent on every try).
    private func answer(_ reception: FeliCaReception, to frame: [UInt8], by deadline: Deadline) throws(TransitError) -> [UInt8] {
        switch reception {
        case .frame(let answer):
            return answer + [0x90, 0x00]
        case .silence:
            return [0x63, 0x00]
        case .radioError(let status) where status.isDamage:
            // The card is there (something came back): never "removed", however often.
            throw TransitError(.communication, Self.damaged(readerName, "\(status)", tries: lastTries))
        case .radioError(let status):
            try checkPresence(by: deadline)
            throw TransitError(.communication, L10n.words("%1$s reported %2$s receiving the card's answer", .init(readerName), .init("\(status)")))
        }
    }

    /// Sends a frame with `send` (given the seconds left of the read) and sends it again while
    /// its answer comes back damaged (`InCommRFStatus.isDamage`), up to `Self.tries` in all and
    /// never past the read's `deadline`. Every FeliCa command transit sends may be repeated: they
    /// read, or poll. Each retry is logged and counted (`retries`, in the log bundle).
    private func tried(_ frame: [UInt8], by deadline: Deadline,
                       _ send: (Double) throws(TransitError) -> FeliCaReception) throws(TransitError) -> FeliCaReception {
        let sent = try sendAgainWhile(Self.isDamaged, tries: Self.tries, by: deadline, on: clock, retrying: { count, reception in
            retryCount += 1
            log("\(readerName): the card's answer to \(Self.command(frame)) came back damaged (\(Self.status(reception))); sending it again (try \(count) of \(Self.tries))")
        }, send)
        lastTries = sent.tries
        return sent.reception
    }

    /// True for an answer that came back damaged (`InCommRFStatus.isDamage`): worth sending again.
    private static func isDamaged(_ reception: FeliCaReception) -> Bool {
        if case .radioError(let status) = reception { return status.isDamage }
        return false
    }

    /// The chip's status of a damaged answer, for the log.
    private static func status(_ reception: FeliCaReception) -> String {
        if case .radioError(let status) = reception { return "\(status)" }
        return "?"
    }

    /// "3 times", "once": how often the last frame went.
    /// "… received the card's answer damaged (…) 3 times: hold the card still …", as the Type A channel says it too.
    package static func damaged(_ readerName: String, _ status: String, tries: Int) -> L10n.Words {
        L10n.wordsn("%1$s received the card's answer damaged (%2$s) once (the read's deadline came): hold the card still, flat on the reader, and read again",
                    "%1$s received the card's answer damaged (%2$s) %3$s times: hold the card still, flat on the reader, and read again", tries,
                    .init(readerName), .init(status), .init(String(tries)))
    }

    /// "command 06": a frame's command code, for the log.
    private static func command(_ frame: [UInt8]) -> String {
        frame.count >= 2 ? "command " + HexFormat.string([frame[1]]) : "a frame"
    }

    /// Throws `sessionLost` when no card, or another card, answers a Polling for any system; a
    /// Polling whose answer stays damaged is a card there, `communication`.
    private func checkPresence(by deadline: Deadline) throws(TransitError) {
        presenceChecks += 1
        let polling = FeliCaCommand.polling(systemCode: 0xFFFF, requestCode: 0x01)
        let reception = try tried(polling, by: deadline) { (left: Double) throws(TransitError) -> FeliCaReception in
            try reader.presencePolling(bitRate: target.bitRate, timeout: min(Self.pollingTimeout, left), deadline: deadline)
        }
        if case .radioError(let status) = reception, status.isDamage {
            throw TransitError(.communication, L10n.wordsn("%1$s received the card's answer to a Polling damaged (%2$s) once (the read's deadline came)",
                                                          "%1$s received the card's answer to a Polling damaged (%2$s) %3$s times", lastTries,
                                                          .init(readerName), .init("\(status)"), .init(String(lastTries))))
        }
        guard FeliCaTarget(polled: reception, bitRate: target.bitRate)?.idm == target.idm else {
            throw TransitError(.sessionLost, L10n.words("the card was removed during the read"))
        }
    }

    private func overDeadline() -> TransitError {
        TransitError(.communication, L10n.words("the read did not finish within its deadline (%1$s was still answering)", .init(readerName)))
    }

    /// Tries a card command gets while its answer comes back damaged: nfcpy sends each Type 3
    /// command three times (nfcpy tt3.py, its Type 3 exchange; docs/research/port100.md §"Sequences").
    package static let tries = 3
    /// A presence check's Polling timeout: nfcpy's 10 ms (docs/research/port100.md §"Sequences", V5).
    package static let pollingTimeout = 0.010
}

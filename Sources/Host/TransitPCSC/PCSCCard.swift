import CPCSCLite
import Foundation
import TransitModel
import TransitTransport

/// A card connected through pcscd, held in a PC/SC transaction for the whole read so that no other
/// client's commands interleave with ours. Every call has a deadline: a reader that stops answering
/// ends the read with `communication` instead of freezing it.
package final class PCSCCard: ReaderChannel {
    private let handle: SCARDHANDLE
    private var pci: SCARD_IO_REQUEST
    package let readerName: String
    /// The ATR of the connected card, from `SCardStatus` on this handle.
    package private(set) var atr: [UInt8] = []
    /// The largest command the reader takes, as its driver reports it (nil: it does not say).
    package private(set) var maxCommand: Int?
    /// Seconds one exchange may take.
    package let exchangeTimeout: Double
    /// Set when a call did not return in time: the handle is never used or released again.
    package private(set) var abandoned = false
    private var inTransaction = false
    /// Asked whether the card is still there when an exchange fails.
    private let context: PCSCContext

    /// Connects to the card on `reader`, takes the transaction and reads the ATR.
    package init(context: PCSCContext, reader: String, exchangeTimeout: Double) throws {
        self.context = context
        readerName = reader
        self.exchangeTimeout = exchangeTimeout
        let ctx = context.handle
        let connected: (LONG, SCARDHANDLE, DWORD)? = context.calls.run(by: Deadline(secondsFromNow: exchangeTimeout), {
            var card: SCARDHANDLE = 0, proto: DWORD = 0
            let rv = SCardConnect(ctx, reader, DWORD(SCARD_SHARE_SHARED), DWORD(SCARD_PROTOCOL_T0) | DWORD(SCARD_PROTOCOL_T1), &card, &proto)
            return (rv, card, proto)
        }, late: { rv, card, _ in Self.giveBack(PCSCStatus(rv) == .success ? card : nil, ctx) })
        guard let (rv, card, proto) = connected else {
            context.abandon()
            throw Self.stopped(reader, exchangeTimeout)
        }
        guard PCSCStatus(rv) == .success else {
            if PCSCStatus(rv).meansCardGone || PCSCStatus(rv) == .unresponsiveCard {
                throw TransitError(.noCard, L10n.words("no card on %1$s", .init(reader)))
            }
            throw PCSCStatus(rv).error(L10n.words("connecting to the card"))
        }
        handle = card
        pci = SCARD_IO_REQUEST(dwProtocol: UInt(proto), cbPciLength: UInt(MemoryLayout<SCARD_IO_REQUEST>.size))
        try beginTransaction()
        atr = try status()
        maxCommand = try maxInput()
    }

    deinit {
        guard !abandoned else { return }
        if inTransaction { SCardEndTransaction(handle, DWORD(SCARD_LEAVE_CARD)) }
        SCardDisconnect(handle, DWORD(SCARD_LEAVE_CARD))
    }

    /// Takes the card for this client; a card another client reset is reconnected first (pcsc-lite
    /// answers SCARD_W_RESET_CARD until the handle reconnects). pcsc-lite waits while another client
    /// holds the card: past the deadline that is said as such.
    private func beginTransaction() throws(TransitError) {
        for attempt in 0 ..< 2 {
            let rv = try call(orElse: TransitError(.communication, L10n.words("another application holds the card on %1$s (it did not let go within %2$s)",
                                                                              .init(readerName), Self.secondsWords(exchangeTimeout)))) { [handle] in
                SCardBeginTransaction(handle)
            }
            if rv == .success { inTransaction = true; return }
            guard rv == .resetCard, attempt == 0 else { throw rv.error(L10n.words("taking the card")) }
            try reconnect()
        }
    }

    /// Re-establishes the handle after another client reset the card (the card stays powered).
    private func reconnect() throws(TransitError) {
        var proto: DWORD = 0
        let rv = try call { [handle] in
            SCardReconnect(handle, DWORD(SCARD_SHARE_SHARED), DWORD(SCARD_PROTOCOL_T0) | DWORD(SCARD_PROTOCOL_T1), DWORD(SCARD_LEAVE_CARD), &proto)
        }
        guard rv == .success else { throw rv.error(L10n.words("reconnecting to the card")) }
        pci.dwProtocol = UInt(proto)
    }

    /// The ATR of the card on this handle.
    private func status() throws -> [UInt8] {
        let answer: (PCSCStatus, [UInt8])? = context.calls.run(by: Deadline(secondsFromNow: exchangeTimeout), { [handle] in
            var atr = [UInt8](repeating: 0, count: 33)
            var atrLength = DWORD(atr.count), state: DWORD = 0, proto: DWORD = 0, nameLength: DWORD = 0
            let rv = SCardStatus(handle, nil, &nameLength, &state, &proto, &atr, &atrLength)
            return (PCSCStatus(rv), Array(atr.prefix(Int(min(atrLength, 33)))))
        }, late: giveBack)
        guard let (rv, atr) = answer else { abandon(); throw Self.stopped(readerName, exchangeTimeout) }
        guard rv == .success else { throw rv.error(L10n.words("reading the card's status")) }
        return atr
    }

    /// SCARD_ATTR_MAXINPUT: libccid answers dwMaxCCIDMessageLength − 10 as a 4-byte little-endian
    /// number (ccid src/ifdhandler.c); a driver without it (vpcd) answers an error: nil.
    private func maxInput() throws -> Int? {
        let answer: (PCSCStatus, [UInt8])? = context.calls.run(by: Deadline(secondsFromNow: exchangeTimeout), { [handle] in
            var value = [UInt8](repeating: 0, count: 8)
            var length = DWORD(value.count)
            let rv = SCardGetAttrib(handle, CPCSC_ATTR_MAXINPUT, &value, &length)
            return (PCSCStatus(rv), Array(value.prefix(Int(min(length, 8)))))
        }, late: giveBack)
        guard let (rv, bytes) = answer else { abandon(); throw Self.stopped(readerName, exchangeTimeout) }
        return rv == .success ? Self.maxInput(attribute: bytes) : nil
    }

    /// The attribute's value: 4 (or 8) bytes, least significant first; nil for any other size or
    /// a value no reader has (below 16 bytes, above an extended APDU's 65,544).
    package static func maxInput(attribute bytes: [UInt8]) -> Int? {
        guard bytes.count == 4 || bytes.count == 8 else { return nil }
        let value = bytes.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return (16 ... 65_544).contains(value) ? Int(value) : nil
    }

    /// One exchange, given `exchangeTimeout` or what is left of the read's `deadline` when that is
    /// less (at least 10 ms).
    package func transmit(_ apdu: [UInt8], by deadline: Deadline) throws(TransitError) -> [UInt8] {
        guard !abandoned else { throw Self.stopped(readerName, exchangeTimeout) }
        let left = max(0.01, deadline.secondsLeft)
        let exchange: (PCSCStatus, [UInt8])? = context.calls.run(by: Deadline(secondsFromNow: min(exchangeTimeout, left)), { [handle, pci] in
            var pci = pci
            var buffer = [UInt8](repeating: 0, count: 65_538)
            var length = DWORD(buffer.count)
            let rv = SCardTransmit(handle, &pci, apdu, DWORD(apdu.count), nil, &buffer, &length)
            return (PCSCStatus(rv), Array(buffer.prefix(Int(min(length, DWORD(buffer.count))))))
        }, late: giveBack)
        guard let (status, answer) = exchange else {
            abandon()
            if left < exchangeTimeout {
                throw TransitError(.communication, L10n.words("the read did not finish within its deadline (%1$s was still answering)", .init(readerName)))
            }
            throw Self.stopped(readerName, exchangeTimeout)
        }
        if status == .resetCard {
            // Another client reset the card between our exchanges: reconnect, and let the read start again.
            try reconnect()
            try beginTransaction()
            throw TransitError(.cardReset, L10n.words("another application reset the card during the read"))
        }
        // A card leaving mid-exchange shows first as a failed or empty answer, and only a moment later
        // (at pcscd's next presence poll) as a removed card: ask before calling it a communication error.
        if status.meansCardGone || ((status != .success || answer.count < 2) && context.cardLeft(readerName)) {
            throw TransitError(.sessionLost, L10n.words("the card was removed during the read"))
        }
        guard status == .success else { throw status.error(L10n.words("sending a command")) }
        return answer
    }

    /// Runs a call that returns a status within the exchange deadline; past it, throws `orElse`.
    private func call(orElse late: TransitError? = nil, _ body: @escaping () -> LONG) throws(TransitError) -> PCSCStatus {
        guard let rv = context.calls.run(by: Deadline(secondsFromNow: exchangeTimeout), body, late: giveBack) else {
            abandon()
            throw late ?? Self.stopped(readerName, exchangeTimeout)
        }
        return PCSCStatus(rv)
    }

    /// Run on an abandoned call's thread when the call returns after all: the handle's transaction,
    /// the handle and the context are given back to pcscd (nothing else touches them any more).
    private func giveBack<T>(_: T) { Self.giveBack(handle, context.handle) }

    private static func giveBack(_ handle: SCARDHANDLE?, _ context: SCARDCONTEXT) {
        if let handle {
            SCardEndTransaction(handle, DWORD(SCARD_LEAVE_CARD)) // fails harmlessly when the transaction was not taken
            SCardDisconnect(handle, DWORD(SCARD_LEAVE_CARD))
        }
        SCardReleaseContext(context)
    }

    private func abandon() {
        abandoned = true
        context.abandon()
    }

    package static func stopped(_ reader: String, _ seconds: Double) -> TransitError {
        TransitError(.communication, L10n.words("the reader stopped answering (%1$s, nothing within %2$s)", .init(reader), Self.secondsWords(seconds)))
    }

    package static func seconds(_ s: Double) -> String { ReadLimits.seconds(s) }
    package static func secondsWords(_ s: Double) -> L10n.Words { ReadLimits.secondsWords(s) }
}

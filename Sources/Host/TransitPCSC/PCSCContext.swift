import CPCSCLite
import Foundation
import TransitModel
import TransitTransport

/// A connection to pcscd: lists readers and waits for a card.
package final class PCSCContext {
    package private(set) var handle: SCARDCONTEXT = 0
    /// Set when a call on this context never returned: the context is then never used or released
    /// again (libpcsclite holds its lock for the blocked call).
    package private(set) var abandoned = false
    private var thread: CallThread?

    package init() throws {
        let rv = SCardEstablishContext(DWORD(SCARD_SCOPE_SYSTEM), nil, nil, &handle)
        guard PCSCStatus(rv) == .success else { throw PCSCStatus(rv).error(L10n.words("connecting to pcscd")) }
    }

    deinit {
        if !abandoned { SCardReleaseContext(handle) }
        thread?.close()
    }

    /// The one thread the calls on this context's cards run on, with their deadlines; started at the first.
    package var calls: CallThread {
        if let thread { return thread }
        let started = CallThread(name: "pcsc")
        thread = started
        return started
    }

    /// Gives the context up after a call on it did not return in time.
    package func abandon() {
        abandoned = true
        Abandonment.mark()
    }

    /// The readers pcscd knows, in its order.
    package func readers() throws -> [String] {
        var lastError: TransitError?
        // A reader plugged in between the two calls makes the buffer too small: ask again.
        for _ in 0 ..< 3 {
            var length: DWORD = 0
            var rv = SCardListReaders(handle, nil, nil, &length)
            if PCSCStatus(rv) == .noReadersAvailable { return [] }
            guard PCSCStatus(rv) == .success else { throw PCSCStatus(rv).error(L10n.words("listing readers")) }
            var buffer = [CChar](repeating: 0, count: Int(length))
            rv = SCardListReaders(handle, nil, &buffer, &length)
            if PCSCStatus(rv) == .noReadersAvailable { return [] }
            guard PCSCStatus(rv) == .success else { lastError = PCSCStatus(rv).error(L10n.words("listing readers")); continue }
            // A multi-string: names separated by NUL, ended by an empty name.
            return buffer.split(separator: 0).map { String(decoding: $0.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        }
        throw lastError ?? TransitError(.communication, L10n.words("listing readers failed"))
    }

    /// The state and ATR of each reader right now.
    package func states(_ names: [String], timeoutMs: DWORD = 0) throws -> [ReaderState] {
        guard !names.isEmpty else { return [] }
        var states = [SCARD_READERSTATE]()
        let rv = withReaderStates(names.map { ($0, DWORD(SCARD_STATE_UNAWARE)) }) { s in
            let rv = SCardGetStatusChange(handle, timeoutMs, &s, DWORD(s.count))
            states = s
            return rv
        }
        guard PCSCStatus(rv) == .success || PCSCStatus(rv) == .timeout else { throw PCSCStatus(rv).error(L10n.words("reading reader states")) }
        return zip(names, states).map { name, s in
            let present = s.dwEventState & DWORD(SCARD_STATE_PRESENT) != 0 && s.dwEventState & DWORD(SCARD_STATE_MUTE) == 0
            let atr = withUnsafeBytes(of: s.rgbAtr) { Array($0.prefix(Int(min(s.cbAtr, 33)))) }
            return ReaderState(reader: name, present: present, atr: atr, eventState: s.dwEventState & ~DWORD(SCARD_STATE_CHANGED))
        }
    }

    /// The readers pcscd knows now, those `filter` selects (by a part of their name, case-insensitive;
    /// a SAM interface only when named), and the first of them with a card.
    package func look(readerFilter filter: String?) throws -> (all: [String], candidates: [String], ready: String?) {
        let all = try readers()
        let candidates = ReaderProfile.selected(all, by: filter.map { [$0] } ?? [])
        return (all, candidates, try states(candidates).first(where: { $0.present })?.reader)
    }

    /// Sleeps until a reader's card comes or goes, a reader is plugged in or out, or `timeoutMs`.
    package func waitForChange(_ names: [String], states current: [ReaderState]? = nil, timeoutMs: DWORD) {
        guard let current = current ?? (try? states(names)) else { return }
        // "\\?PnP?\Notification" wakes the wait when readers come and go (pcsclite's PnP reader).
        // pcsclite keeps the number of readers in the PnP reader's upper 16 bits.
        let readerCount = DWORD((try? readers().count) ?? 0)
        // The state as pcscd last told it (a mute card included), so the wait sleeps until it changes.
        let watched = current.map { ($0.reader, $0.eventState) } + [("\\\\?PnP?\\Notification", readerCount << 16)]
        _ = withReaderStates(watched) { SCardGetStatusChange(handle, timeoutMs, &$0, DWORD($0.count)) }
    }

    /// Connects to the card on `reader`; every call on it has `exchangeTimeout` seconds.
    package func connect(_ reader: String, exchangeTimeout: Double) throws -> PCSCCard {
        return try PCSCCard(context: self, reader: reader, exchangeTimeout: exchangeTimeout)
    }

    /// True when the card on `reader` is gone, or goes within `graceMs` (pcscd polls presence).
    package func cardLeft(_ reader: String, graceMs: DWORD = 1500) -> Bool {
        guard !abandoned else { return false }
        guard let now = try? states([reader]).first else { return true }
        guard now.present else { return true }
        var gone = false
        let rv = withReaderStates([(reader, DWORD(SCARD_STATE_PRESENT))]) { s in
            let rv = SCardGetStatusChange(handle, graceMs, &s, 1)
            gone = s[0].dwEventState & DWORD(SCARD_STATE_PRESENT) == 0
            return rv
        }
        return PCSCStatus(rv) == .success && gone
    }
}

extension PCSCContext {
    /// Runs `body` on SCARD_READERSTATE entries for (reader name, current state) pairs; the C strings
    /// the entries point to live exactly as long as the call.
    package func withReaderStates<R>(_ readers: [(String, DWORD)], _ body: (inout [SCARD_READERSTATE]) -> R) -> R {
        let names = readers.map { strdup($0.0) }
        defer { names.forEach { free($0) } }
        var states = zip(names, readers).map { name, r -> SCARD_READERSTATE in
            var s = SCARD_READERSTATE()
            s.szReader = UnsafePointer(name)
            s.dwCurrentState = r.1
            return s
        }
        return body(&states)
    }
}

/// A reader and its card as pcscd reports them.
package struct ReaderState {
    package let reader: String
    /// A card is there and answered its reset.
    package let present: Bool
    package let atr: [UInt8]
    /// pcscd's event state; its upper 16 bits count insertions and removals.
    package let eventState: DWORD

    /// Changes each time a card comes or goes.
    package var eventCount: DWORD { eventState >> 16 }
}

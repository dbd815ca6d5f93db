import CPCSCLite
import Foundation

/// A connection to pcscd: lists readers and waits for a card.
final class PCSCContext {
    private(set) var handle: SCARDCONTEXT = 0

    init() throws {
        let rv = SCardEstablishContext(PCSC.scopeSystem, nil, nil, &handle)
        guard PCSCStatus(rv) == .success else { throw PCSCStatus(rv).error("connecting to pcscd") }
    }

    deinit { SCardReleaseContext(handle) }

    /// Ends a wait in another thread (SCardCancel); used by the Ctrl-C handler.
    func cancel() { SCardCancel(handle) }

    /// The readers pcscd knows, in its order.
    func readers() throws -> [String] {
        var length: DWORD = 0
        var rv = SCardListReaders(handle, nil, nil, &length)
        if PCSCStatus(rv) == .noReadersAvailable { return [] }
        guard PCSCStatus(rv) == .success else { throw PCSCStatus(rv).error("listing readers") }
        var buffer = [CChar](repeating: 0, count: Int(length))
        rv = SCardListReaders(handle, nil, &buffer, &length)
        if PCSCStatus(rv) == .noReadersAvailable { return [] }
        guard PCSCStatus(rv) == .success else { throw PCSCStatus(rv).error("listing readers") }
        // A multi-string: names separated by NUL, ended by an empty name.
        return buffer.split(separator: 0).map { String(decoding: $0.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
    }

    /// The state and ATR of each reader right now.
    func states(_ names: [String], timeoutMs: DWORD = 0) throws -> [(reader: String, present: Bool, atr: [UInt8])] {
        guard !names.isEmpty else { return [] }
        let cNames = names.map { strdup($0) }
        defer { cNames.forEach { free($0) } }
        var states = cNames.map { name -> SCARD_READERSTATE in
            var s = SCARD_READERSTATE()
            s.szReader = UnsafePointer(name)
            s.dwCurrentState = PCSC.stateUnaware
            return s
        }
        let rv = SCardGetStatusChange(handle, timeoutMs, &states, DWORD(states.count))
        guard PCSCStatus(rv) == .success || PCSCStatus(rv) == .timeout else { throw PCSCStatus(rv).error("reading reader states") }
        return zip(names, states).map { name, s in
            let present = s.dwEventState & PCSC.statePresent != 0 && s.dwEventState & PCSC.stateMute == 0
            let atr = withUnsafeBytes(of: s.rgbAtr) { Array($0.prefix(Int(min(s.cbAtr, 33)))) }
            return (name, present, atr)
        }
    }

    /// The reader to use: the first whose name contains `filter` (case-insensitive), else the first
    /// with a card. Waits up to `wait` seconds for a reader and a card.
    func waitForCard(readerFilter filter: String?, wait: Double, cancellation: Cancellation) throws -> String {
        let deadline = Date().addingTimeInterval(wait)
        while true {
            if cancellation.isCancelled { throw TransitError(.cancelled, "cancelled") }
            let all = try readers()
            let candidates = filter.map { f in all.filter { $0.lowercased().contains(f.lowercased()) } } ?? all
            if let ready = try states(candidates).first(where: { $0.present }) { return ready.reader }
            if Date() >= deadline {
                if all.isEmpty { throw TransitError(.noReader, "no reader is connected") }
                if candidates.isEmpty {
                    throw TransitError(.noReader, "no reader matches \"\(filter ?? "")\" (readers: \(all.joined(separator: ", ")))")
                }
                throw TransitError(.noCard, "no card on \(candidates.count == 1 ? candidates[0] : "any reader")"
                                   + (wait > 0 ? " after \(Int(wait)) s" : "; hold a card on the reader or use --wait SECONDS"))
            }
            // Sleep on the readers' state so a tap wakes us at once; Ctrl-C cancels the wait.
            if candidates.isEmpty {
                Thread.sleep(forTimeInterval: 0.2)
            } else {
                waitForChange(candidates, timeoutMs: 200)
            }
        }
    }

    /// Sleeps until a reader's card comes or goes, a reader is plugged in or out, or `timeoutMs`.
    func waitForChange(_ names: [String], states current: [(reader: String, present: Bool, atr: [UInt8])]? = nil,
                       timeoutMs: DWORD) {
        guard let current = current ?? (try? states(names)) else { return }
        // "\\?PnP?\Notification" wakes the wait when readers come and go (pcsclite's PnP reader).
        let cNames = current.map { strdup($0.reader) } + [strdup("\\\\?PnP?\\Notification")]
        defer { cNames.forEach { free($0) } }
        // pcsclite keeps the number of readers in the PnP reader's upper 16 bits.
        let readerCount = DWORD((try? readers().count) ?? 0)
        var states = cNames.enumerated().map { i, name -> SCARD_READERSTATE in
            var r = SCARD_READERSTATE()
            r.szReader = UnsafePointer(name)
            r.dwCurrentState = i < current.count ? (current[i].present ? PCSC.statePresent : 0x0010) : readerCount << 16
            return r
        }
        _ = SCardGetStatusChange(handle, timeoutMs, &states, DWORD(states.count))
    }

    /// Connects to the card on `reader`.
    func connect(_ reader: String) throws -> PCSCCard {
        var card: SCARDHANDLE = 0
        var proto: DWORD = 0
        let rv = SCardConnect(handle, reader, PCSC.shareShared, PCSC.protocolT0 | PCSC.protocolT1, &card, &proto)
        guard PCSCStatus(rv) == .success else {
            if PCSCStatus(rv).meansCardGone || PCSCStatus(rv) == .unresponsiveCard {
                throw TransitError(.noCard, "no card on \(reader)")
            }
            throw PCSCStatus(rv).error("connecting to the card")
        }
        let atr = try states([reader]).first?.atr ?? []
        return PCSCCard(context: self, handle: card, protocol: proto, readerName: reader, atr: atr)
    }

    /// True when the card on `reader` is gone, or goes within `graceMs` (pcscd polls presence).
    func cardLeft(_ reader: String, graceMs: DWORD = 1500) -> Bool {
        guard let now = try? states([reader]).first else { return true }
        guard now.present else { return true }
        let name = strdup(reader)
        defer { free(name) }
        var state = SCARD_READERSTATE()
        state.szReader = UnsafePointer(name)
        state.dwCurrentState = PCSC.statePresent
        let rv = SCardGetStatusChange(handle, graceMs, &state, 1)
        return PCSCStatus(rv) == .success && state.dwEventState & PCSC.statePresent == 0
    }
}

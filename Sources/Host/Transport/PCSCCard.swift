import CPCSCLite

/// A card connected through pcscd.
final class PCSCCard: ReaderChannel {
    private let handle: SCARDHANDLE
    private var pci: SCARD_IO_REQUEST
    let readerName: String
    let atr: [UInt8]
    private var buffer = [UInt8](repeating: 0, count: 65_538)

    /// Asked whether the card is still there when an exchange fails.
    private let context: PCSCContext

    init(context: PCSCContext, handle: SCARDHANDLE, protocol proto: DWORD, readerName: String, atr: [UInt8]) {
        self.context = context
        self.handle = handle
        pci = SCARD_IO_REQUEST(dwProtocol: UInt(proto), cbPciLength: UInt(MemoryLayout<SCARD_IO_REQUEST>.size))
        self.readerName = readerName
        self.atr = atr
    }

    deinit { SCardDisconnect(handle, PCSC.leaveCard) }

    func transmit(_ apdu: [UInt8]) throws -> [UInt8] {
        var length = DWORD(buffer.count)
        let rv = apdu.withUnsafeBufferPointer { cmd in
            buffer.withUnsafeMutableBufferPointer { out in
                SCardTransmit(handle, &pci, cmd.baseAddress, DWORD(cmd.count), nil, out.baseAddress, &length)
            }
        }
        let status = PCSCStatus(rv)
        let answer = Array(buffer[0 ..< Int(min(length, DWORD(buffer.count)))])
        // A card leaving mid-exchange shows first as a failed or empty answer, and only a moment later
        // (at pcscd's next presence poll) as a removed card: ask before calling it a communication error.
        if status.meansCardGone || ((status != .success || answer.count < 2) && context.cardLeft(readerName)) {
            throw TransitError(.sessionLost, "the card was removed during the read")
        }
        guard status == .success else { throw status.error("sending a command") }
        return answer
    }
}

import CPCSCLite

/// A card connected through pcscd.
final class PCSCCard: ReaderChannel {
    private let handle: SCARDHANDLE
    private var pci: SCARD_IO_REQUEST
    let readerName: String
    let atr: [UInt8]
    private var buffer = [UInt8](repeating: 0, count: 65_538)

    init(handle: SCARDHANDLE, protocol proto: DWORD, readerName: String, atr: [UInt8]) {
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
        guard status == .success else {
            // A transmit that fails because the card went away can come back as a generic error;
            // ask pcscd whether the card is still there before calling it a communication error.
            if !status.meansCardGone, !cardPresent() { throw TransitError(.sessionLost, "the card was removed during the read") }
            throw status.error("sending a command")
        }
        return Array(buffer[0 ..< Int(min(length, DWORD(buffer.count)))])
    }

    private func cardPresent() -> Bool {
        var state: DWORD = 0, proto: DWORD = 0, atrLength: DWORD = 33, nameLength: DWORD = 0
        var atrBuffer = [UInt8](repeating: 0, count: 33)
        let rv = SCardStatus(handle, nil, &nameLength, &state, &proto, &atrBuffer, &atrLength)
        // pcscd answers SCARD_W_REMOVED_CARD (or another card-gone code) once the card has left.
        return PCSCStatus(rv) == .success
    }
}

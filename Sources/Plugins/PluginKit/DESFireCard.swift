/// A MIFARE DESFire card over the APDU link: native commands wrapped as ISO 7816-4 APDUs, chained
/// answers (`91 AF`) collected up to a bound, and the status words mapped to `PluginError`s
/// (Metrodroid DesfireProtocol; docs/research/calypso-desfire-china.md §"DESFire transport"): `91 00` done, `91 AF` more frames,
/// `91 A0` application not found (on select: not this card), `91 AE` authentication error and
/// `91 9D` permission denied (a locked file: absent), `91 F0` file not found (absent).
public struct DESFireCard {
    public let link: CardLink
    /// The most frames one answer may take: 64 frames of up to 59 bytes hold any file a transit
    /// application keeps (Clipper's largest is 512 bytes, 9 frames); a card chaining longer is malformed.
    public static let maxFrames = 64

    public init(_ link: CardLink) { self.link = link }

    /// Selects an application by its 3-byte AID in wire order (Opal `31 45 53`). A card that answers
    /// `91 A0`, or any non-DESFire status word (an ISO card's `6D00`, `6E00`), is not this card.
    public func selectApplication(_ aid: [UInt8]) throws {
        guard aid.count == 3 else { throw PluginError.internal("a DESFire AID has 3 bytes, not \(aid.count)") }
        let answer = try link.transmit(DESFireCommand.selectApplication.apdu(aid))
        guard answer.sw == 0x9100 else {
            if answer.sw == 0x91A0 || answer.sw >> 8 != 0x91 { throw PluginError.notThisCard }
            throw PluginError.cardRefused("DESFire select of \(Hex.string(aid)) answered \(answer.swHex)")
        }
    }

    /// Read Data of a standard or backup file: `offset` and `length` in bytes (0: to the end). Nil when
    /// the file is locked or absent.
    public func readData(file: UInt8, offset: Int = 0, length: Int = 0) throws -> Bytes? {
        try fileAnswer(.readData, [file] + Self.le3(offset) + Self.le3(length))
    }

    /// Read Records of a record file: from record `offset` (0: the newest) `count` records (0: all).
    /// Nil when the file is locked or absent; the answer is the records back to back.
    public func readRecords(file: UInt8, offset: Int = 0, count: Int = 0) throws -> Bytes? {
        try fileAnswer(.readRecords, [file] + Self.le3(offset) + Self.le3(count))
    }

    /// Get Value of a value file: a signed 32-bit little-endian value. Nil when locked or absent.
    public func value(file: UInt8) throws -> Int32? {
        guard let data = try fileAnswer(.getValue, [file]) else { return nil }
        guard data.count == 4 else { throw PluginError.malformedResponse("DESFire value of \(data.count) bytes") }
        return Int32(bitPattern: UInt32(try data.le(0, 4)))
    }

    /// Get File Settings. Nil when the file is absent or its settings are locked.
    public func fileSettings(file: UInt8) throws -> DESFireFileSettings? {
        try fileAnswer(.getFileSettings, [file]).map(DESFireFileSettings.init)
    }

    /// A file command's data, nil for a locked or missing file.
    private func fileAnswer(_ command: DESFireCommand, _ data: [UInt8]) throws -> Bytes? {
        let (status, bytes) = try exchange(command, data)
        switch status {
        case 0x9100: return bytes
        case 0x91AE, 0x919D, 0x91F0: return nil
        default: throw PluginError.cardRefused("DESFire \(Hex.string([command.rawValue])) of file \(Hex.string([data.first ?? 0])) answered \(Hex.string(status))")
        }
    }

    /// Sends a command and collects a chained answer: the final status word and all frames' data.
    public func exchange(_ command: DESFireCommand, _ data: [UInt8]) throws -> (status: UInt16, data: Bytes) {
        var answer = try link.transmit(command.apdu(data))
        var collected = answer.data.storage
        var frames = 1
        while answer.sw == 0x91AF {
            guard frames < Self.maxFrames else {
                throw PluginError.malformedResponse("DESFire answer chained past \(Self.maxFrames) frames")
            }
            answer = try link.transmit(DESFireCommand.additionalFrame.apdu())
            collected += answer.data.storage
            frames += 1
        }
        return (answer.sw, Bytes(collected))
    }

    static func le3(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF)] }
}

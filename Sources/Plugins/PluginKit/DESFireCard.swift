/// A MIFARE DESFire card over the APDU link: native commands wrapped as ISO 7816-4 APDUs, chained
/// answers (`91 AF`) collected up to a bound, and the status words mapped to `PluginError`s
/// (Metrodroid DesfireProtocol; docs/research/calypso-desfire-china.md §"DESFire transport"): `91 00` done, `91 AF` more frames,
/// `91 A0` application not found (on select: not this card), `91 AE` authentication error and
/// `91 9D` permission denied (a locked file: absent), `91 F0` file not found (absent).
///
/// `file(_:as:)` reads a file as real cards hold it (issue 43): by the type the layout documents,
/// and when the card refuses that command for the file's type (`91 7E` length error, `91 9E`
/// parameter error: Read Data of a record file, as in FareBot's published Clipper dump) by the type
/// Get File Settings reports; a record file that holds no records is empty (its settings say 0,
/// or Read Records answers `91 BE` boundary error, NXP's DESFire EV1 datasheet); a file whose read
/// needs a key (`91 AE`, `91 9D`) or that is missing (`91 F0`) is absent.
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

    /// What a file holds, read by its type.
    public enum FileContent: Equatable, Sendable {
        /// A standard or backup file's bytes.
        case data(Bytes)
        /// A record file's records, each `size` bytes, in the order the card answered them.
        case records([Bytes])
        /// A value file's value.
        case value(Int32)

        /// The bytes: a data file's, a record file's records back to back, a value's 4 bytes little-endian.
        public var bytes: Bytes {
            switch self {
            case .data(let b): return b
            case .records(let r): return Bytes(r.flatMap(\.storage))
            case .value(let v):
                let u = UInt32(bitPattern: v)
                return Bytes([UInt8(u & 0xFF), UInt8(u >> 8 & 0xFF), UInt8(u >> 16 & 0xFF), UInt8(u >> 24)])
            }
        }

        /// The records of a record file; a data file's bytes cut into `size`-byte records (a layout that
        /// keeps records in a standard file, as Clipper's refills may be); none for a value.
        public func records(size: Int) -> [Bytes] {
            switch self {
            case .records(let r): return r
            case .data(let b):
                guard size > 0 else { return [] }
                return stride(from: 0, to: b.count - b.count % size, by: size).compactMap { try? b.slice($0, size) }
            case .value: return []
            }
        }
    }

    /// How the layout documents a file: the command tried first.
    public enum FileKind: Sendable { case data, records, value }

    /// Reads `file` by the type the layout documents (`expected`), falling back to the type Get File
    /// Settings reports when the card refuses that command for the file's type. Nil when the file is
    /// absent, locked (`91 AE`, `91 9D`) or otherwise refused: the caller decides whether the card can
    /// be read without it.
    public func file(_ file: UInt8, as expected: FileKind) throws -> FileContent? {
        switch expected {
        case .records:
            guard let settings = try fileSettings(file: file) else { return try byCommand(file, .records, settings: nil) }
            return try bySettings(file, settings)
        case .data, .value:
            let (status, bytes) = try exchange(expected == .data ? .readData : .getValue,
                                               expected == .data ? [file] + Self.le3(0) + Self.le3(0) : [file])
            switch status {
            case 0x9100:
                if expected == .data { return .data(bytes) }
                return try Self.value(bytes).map(FileContent.value)
            case 0x917E, 0x919E:
                // The command does not fit the file's type: ask the card what the file is.
                link.log("DESFire file \(Hex.string([file])) refused \(expected == .data ? "Read Data" : "Get Value") (\(Hex.string(status))): reading it by its settings")
                guard let settings = try fileSettings(file: file) else { return nil }
                return try bySettings(file, settings)
            default:
                return absent(file, status)
            }
        }
    }

    /// Reads a file by the type its settings report.
    private func bySettings(_ file: UInt8, _ settings: DESFireFileSettings) throws -> FileContent? {
        switch settings.type {
        case .standard, .backup: return try byCommand(file, .data, settings: settings)
        case .value: return try byCommand(file, .value, settings: settings)
        case .linearRecord, .cyclicRecord:
            if settings.records == 0 { return .records([]) }
            return try byCommand(file, .records, settings: settings)
        }
    }

    /// One read command; nil when the card refuses it.
    private func byCommand(_ file: UInt8, _ kind: FileKind, settings: DESFireFileSettings?) throws -> FileContent? {
        switch kind {
        case .data:
            let (status, bytes) = try exchange(.readData, [file] + Self.le3(0) + Self.le3(0))
            return status == 0x9100 ? .data(bytes) : absent(file, status)
        case .value:
            let (status, bytes) = try exchange(.getValue, [file])
            return status == 0x9100 ? try Self.value(bytes).map(FileContent.value) : absent(file, status)
        case .records:
            let (status, bytes) = try exchange(.readRecords, [file] + Self.le3(0) + Self.le3(0))
            switch status {
            case 0x9100:
                // Without settings (locked to Get File Settings) the records are one run of bytes.
                guard let size = settings?.size, size > 0 else { return .records(bytes.isEmpty ? [] : [bytes]) }
                return .records(FileContent.data(bytes).records(size: size))
            case 0x91BE:
                // Boundary error: the record file holds no record (NXP's DESFire EV1 datasheet, Read Records).
                return .records([])
            default: return absent(file, status)
            }
        }
    }

    private func absent(_ file: UInt8, _ status: UInt16) -> FileContent? {
        link.log("DESFire file \(Hex.string([file])) answered \(Hex.string(status)): absent")
        return nil
    }

    /// A Get Value answer: 4 bytes, signed, little-endian; anything else is malformed.
    static func value(_ data: Bytes) throws -> Int32? {
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

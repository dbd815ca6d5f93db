/// A DESFire file's settings (Get File Settings, `F5`): type, communication mode, access rights
/// and the type's sizes. Access rights are two bytes on the wire, `RW|Change` then `Read|Write`
/// nibbles; key E is "free" (FareBot's Flipper dumps: Clipper `20 E2`, ORCA `32 E4`, Opal `31 E3`).
public struct DESFireFileSettings: Equatable, Sendable {
    public enum FileType: UInt8, Sendable {
        case standard = 0x00, backup = 0x01, value = 0x02, linearRecord = 0x03, cyclicRecord = 0x04
    }

    public let type: FileType
    public let communication: UInt8
    public let readKey: UInt8, writeKey: UInt8, readWriteKey: UInt8, changeKey: UInt8
    /// Data files: the size in bytes. Record files: the record size.
    public let size: Int?
    /// Record files: the records held now.
    public let records: Int?

    /// Anyone may read: the Read or Read&Write key is E.
    public var freeRead: Bool { readKey == 0xE || readWriteKey == 0xE }

    public init(_ b: Bytes) throws {
        guard let type = FileType(rawValue: try b.u8(0)) else {
            throw PluginError.malformedResponse("DESFire file type \(Hex.string([try b.u8(0)]))")
        }
        self.type = type
        communication = try b.u8(1)
        let first = try b.u8(2), second = try b.u8(3)
        readWriteKey = first >> 4; changeKey = first & 0x0F
        readKey = second >> 4; writeKey = second & 0x0F
        switch type {
        case .standard, .backup: size = Int(try b.le(4, 3)); records = nil
        case .value: size = nil; records = nil
        case .linearRecord, .cyclicRecord: size = Int(try b.le(4, 3)); records = Int(try b.le(10, 3))
        }
    }
}

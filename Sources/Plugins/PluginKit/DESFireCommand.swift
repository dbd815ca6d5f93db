/// The MIFARE DESFire native commands a reader of open files needs, and only those: each is wrapped
/// as an ISO 7816-4 APDU `90 INS 00 00 [Lc data] 00` (NXP's ISO wrapping; HSL's public API document
/// `CardOperations.java`, e.g. select `90 5A 00 00 03 11 20 EF 00`; Metrodroid DesfireProtocol).
/// Read-only by construction: no case writes, and `apdu(ins:data:)` refuses any other INS.
public enum DESFireCommand: UInt8, CaseIterable, Sendable {
    case getVersion = 0x60
    case getApplicationIDs = 0x6A
    case selectApplication = 0x5A
    case getFileIDs = 0x6F
    case getFileSettings = 0xF5
    case readData = 0xBD
    case readRecords = 0xBB
    case getValue = 0x6C
    /// The next frame of a chained answer (`91 AF`).
    case additionalFrame = 0xAF

    /// INS bytes that change a card, refused by name: Credit 0C, Limited Credit 1C, Debit DC, Write
    /// Data 3D, Write Record 3B, Clear Record File EB, Commit Transaction C7, Abort Transaction A7,
    /// Change Key C4, Change Key Settings 54, Change File Settings 5F, Set Configuration 5C, Format
    /// PICC FC, Create Application CA, Delete Application DA, Create Std/Backup/Value/Linear/Cyclic
    /// File CD/CB/CC/C1/C0, Delete File DF (MIFARE DESFire EV1 command set as libfreefare's
    /// mifare_desfire.c and Metrodroid's DesfireProtocol name them). Any other INS not listed above
    /// is refused too: the allow-list is what keeps the card unchanged, this list names the refusal.
    public static let cardChanging: [UInt8: String] = [
        0x0C: "Credit", 0x1C: "Limited Credit", 0xDC: "Debit", 0x3D: "Write Data", 0x3B: "Write Record",
        0xEB: "Clear Record File", 0xC7: "Commit Transaction", 0xA7: "Abort Transaction", 0xC4: "Change Key",
        0x54: "Change Key Settings", 0x5F: "Change File Settings", 0x5C: "Set Configuration", 0xFC: "Format PICC",
        0xCA: "Create Application", 0xDA: "Delete Application", 0xCD: "Create Std Data File", 0xCB: "Create Backup Data File",
        0xCC: "Create Value File", 0xC1: "Create Linear Record File", 0xC0: "Create Cyclic Record File", 0xDF: "Delete File",
    ]

    /// The wrapped APDU of this command.
    public func apdu(_ data: [UInt8] = []) -> [UInt8] {
        [0x90, rawValue, 0x00, 0x00] + (data.isEmpty ? [] : [UInt8(data.count)] + data) + [0x00]
    }

    /// The wrapped APDU of a raw INS: only the read commands above; anything else is refused
    /// (`PluginError.internal`), the card-changing ones by name.
    public static func apdu(ins: UInt8, data: [UInt8] = []) throws -> [UInt8] {
        guard let command = DESFireCommand(rawValue: ins) else {
            let name = cardChanging[ins].map { " (\($0))" } ?? ""
            throw PluginError.internal("DESFire INS \(Hex.string([ins]))\(name) is not a read command: refused")
        }
        return command.apdu(data)
    }
}

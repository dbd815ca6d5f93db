/// An ISO 7816 response: data and status word.
public struct APDUResponse: Equatable, Sendable {
    public let data: Bytes
    public let sw: UInt16
    public var isSuccess: Bool { sw == 0x9000 }
    public var swHex: String { Hex.string(sw) }

    /// The answer's data when the card said 9000; otherwise `cardRefused` naming the command and the
    /// status word (`"GET BALANCE answered 6A88"`), as OpenSC's `sc_check_sw` does for its drivers.
    /// Once an application is selected, a refusal ends the read (docs/specification.md §"Detection fallback").
    @discardableResult
    public func require(_ command: String) throws -> Bytes {
        guard isSuccess else { throw PluginError.cardRefused("\(command) answered \(swHex)") }
        return data
    }

    /// Splits a raw answer; fewer than two bytes is malformed.
    public init(_ raw: [UInt8]) throws {
        guard raw.count >= 2 else { throw PluginError.malformedResponse("APDU answer of \(raw.count) bytes has no status word") }
        data = Bytes(raw.dropLast(2))
        sw = UInt16(raw[raw.count - 2]) << 8 | UInt16(raw[raw.count - 1])
    }
}

/// Command APDU builders (ISO/IEC 7816-4). Each takes the class byte, 00 (interindustry) unless
/// told: Calypso cards may take only 94 (docs/research/calypso-desfire-china.md §"Calypso reading").
public enum APDU {
    /// SELECT by DF name (AID): `CLA A4 04 00 Lc AID 00`.
    public static func selectAID(_ aid: [UInt8], cla: UInt8 = 0x00) -> [UInt8] {
        [cla, 0xA4, 0x04, 0x00, UInt8(aid.count)] + aid + [0x00]
    }

    /// SELECT by file identifier: `CLA A4 00 00 02 FID`.
    public static func selectFile(_ fid: UInt16, cla: UInt8 = 0x00) -> [UInt8] {
        [cla, 0xA4, 0x00, 0x00, 0x02, UInt8(fid >> 8), UInt8(fid & 0xFF)]
    }

    /// READ RECORD of record `number` in the file with short identifier `sfi`: `CLA B2 P1 P2 Le`,
    /// P2 = SFI·8 + 4 (record P1), or SFI·8 + 5 with `toLast`, every record from P1 to the last
    /// (ISO/IEC 7816-4:2005 §7.3.3, P2's b3–b1 100 and 101).
    public static func readRecord(_ number: UInt8, sfi: UInt8, length: UInt8 = 0, cla: UInt8 = 0x00, toLast: Bool = false) -> [UInt8] {
        [cla, 0xB2, number, sfi << 3 | (toLast ? 0x05 : 0x04), length]
    }

    /// READ BINARY of the file with short identifier `sfi` (selected by it): `CLA B0 P1 P2 Le`,
    /// P1 = 80 + SFI (b8 set, b7–b6 00, b5–b1 the SFI), P2 the offset, Le 00 for the whole file
    /// (ISO/IEC 7816-4:2005 §7.2.3).
    public static func readBinary(sfi: UInt8, offset: UInt8 = 0, length: UInt8 = 0, cla: UInt8 = 0x00) -> [UInt8] {
        [cla, 0xB0, 0x80 | (sfi & 0x1F), offset, length]
    }
}

extension CardLink {
    /// Sends an APDU and splits the answer.
    public func transmit(_ command: [UInt8]) throws -> APDUResponse {
        try APDUResponse(apdu(command))
    }
}

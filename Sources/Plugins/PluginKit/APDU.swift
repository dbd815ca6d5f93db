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

/// Command APDU builders.
public enum APDU {
    /// SELECT by DF name (AID): `00 A4 04 00 Lc AID 00`.
    public static func selectAID(_ aid: [UInt8]) -> [UInt8] {
        [0x00, 0xA4, 0x04, 0x00, UInt8(aid.count)] + aid + [0x00]
    }

    /// SELECT by file identifier: `00 A4 00 00 02 FID`.
    public static func selectFile(_ fid: UInt16) -> [UInt8] {
        [0x00, 0xA4, 0x00, 0x00, 0x02, UInt8(fid >> 8), UInt8(fid & 0xFF)]
    }

    /// READ RECORD of record `number` in the file with short identifier `sfi`.
    public static func readRecord(_ number: UInt8, sfi: UInt8, length: UInt8 = 0) -> [UInt8] {
        [0x00, 0xB2, number, sfi << 3 | 0x04, length]
    }
}

extension CardLink {
    /// Sends an APDU and splits the answer.
    public func transmit(_ command: [UInt8]) throws -> APDUResponse {
        try APDUResponse(apdu(command))
    }
}

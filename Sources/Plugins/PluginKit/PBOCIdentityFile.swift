/// File 0x15 of a PBOC application (JR/T 0025), the card's identity: card type, city, card number
/// and validity, at least 28 bytes. The SELECT answer may carry a copy (tag 9F0C in the proprietary
/// template A5: NFSee BasicInfoFile, T-Union Master t_union_decode_app_meta); otherwise it is read
/// by its short identifier. Shared by T-Union and the city cards (Metrodroid ChinaCard; facts only).
public enum PBOCIdentityFile {
    /// The file's short identifier.
    public static let sfi: UInt8 = 0x15
    /// Tag of the FCI's copy of the file.
    public static let fileCopyTag: [UInt8] = [0x9F, 0x0C]
    /// The shortest file that holds the card number and validity.
    public static let minimumLength = 28

    /// The FCI's copy of the file, when the FCI parses and the copy is long enough; an FCI that does
    /// not parse (some cards' templates overrun) has none.
    public static func copy(in fci: Bytes) -> Bytes? {
        guard let copy = try? TLV.find(fileCopyTag, in: fci), copy.count >= minimumLength else { return nil }
        return copy
    }

    /// The whole file by READ BINARY (Le 00; a card that wants the exact length answers 6C xx and the
    /// host asks again with it). A status word is a refusal; a short file is malformed.
    public static func readWhole(_ card: CardLink) throws -> Bytes {
        let answer = try card.transmit(APDU.readBinary(sfi: sfi))
        try answer.require("reading file 0x15")
        guard answer.data.count >= minimumLength else { throw PluginError.malformedResponse("file 0x15 of \(answer.data.count) bytes") }
        return answer.data
    }

    /// The FCI's copy, or else the file read whole.
    public static func read(_ card: CardLink, fci: Bytes) throws -> Bytes {
        try copy(in: fci) ?? readWhole(card)
    }
}

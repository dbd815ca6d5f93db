import PluginKit

/// File 0x15 of a PBOC application: the FCI's copy (tag 9F0C in template A5, NFSee BasicInfoFile),
/// or a READ BINARY by SFI. Read whole (Le 00); a card that wants the exact length answers 6C xx
/// (ISO 7816-4) and the host (`CardSession`) asks once more with it.
enum IdentityFile {
    static let fileCopyTag: [UInt8] = [0x9F, 0x0C]

    static func read(_ card: CardLink, fci: Bytes) throws -> Bytes {
        if let copy = try? TLV.find(fileCopyTag, in: fci), copy.count >= 28 { return copy }
        let answer = try card.transmit(readBinary(0))
        try answer.require("reading file 0x15")
        guard answer.data.count >= 28 else { throw PluginError.malformedResponse("file 0x15 of \(answer.data.count) bytes") }
        return answer.data
    }

    static func readBinary(_ length: UInt8) -> [UInt8] { APDU.readBinary(sfi: 0x15, length: length) }
}

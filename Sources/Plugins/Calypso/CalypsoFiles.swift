import PluginKit

/// A selected Calypso application and the few commands that read it: SELECT and READ RECORD only
/// (no session, no stored value, nothing that writes). Facts: docs/research/calypso-desfire-china.md, §"Calypso reading" to §"Calypso exchanges".
/// - CLA 00 first, 94 when the card answers 6E00 (class not supported): Proxmark3 PR #3281 made 00
///   first and 94 the fallback; cardpeek uses 94 for Navigo. The class found is kept for the read.
/// - READ RECORD with P2 = SFI·8+5 reads every record from P1 (Keyple `CmdCardReadRecords`: each
///   record as number, length, data); a card that refuses it gets one record a command (P2 = SFI·8+4).
/// - Some cards answer an empty 9000 to Le 00: the read then asks for the known length, 29 (1D).
///   A card that names the length it wants (6C xx) is asked again by the host (`CardSession`).
/// - An optional file the card lacks answers 6A82: absent, not an error.
final class CalypsoFiles {
    let card: CardLink
    /// The class byte the card takes: 00 or 94.
    private(set) var cla: UInt8 = 0x00
    private var multipleRecords = true
    private var knownLength = false

    /// Calypso's record size: 29 bytes (docs/research/calypso-desfire-china.md §"Calypso files").
    static let recordLength: UInt8 = 0x1D
    /// The ticketing DF name `1TIC.ICA`, selected by partial name (Metrodroid CALYPSO_FILENAMES).
    static let ticketingDF: [UInt8] = Array("1TIC.ICA".utf8)
    /// Navigo Rev 3 / HCE: the full DF name, for cards that refuse the partial one (Metroflip, Proxmark3
    /// PR #3280/#3281 logs).
    static let navigoRev3AID: [UInt8] = [0xA0, 0x00, 0x00, 0x04, 0x04, 0x01, 0x25, 0x09, 0x01, 0x01]

    init(_ card: CardLink) { self.card = card }

    /// Selects the ticketing application; its FCI. notThisCard when no name is selectable.
    func select() throws -> Bytes {
        for aid in [Self.ticketingDF, Self.navigoRev3AID] {
            var answer = try card.transmit(APDU.selectAID(aid, cla: cla))
            if answer.sw == 0x6E00, cla == 0x00 {
                cla = 0x94
                answer = try card.transmit(APDU.selectAID(aid, cla: cla))
            }
            if answer.isSuccess { return answer.data }
        }
        throw PluginError.notThisCard
    }

    /// The records of `sfi` from record 1 on (at most `limit`), or nil when the card lacks the file.
    func records(_ sfi: UInt8, limit: Int) throws -> [Bytes]? {
        if multipleRecords, !knownLength {
            let answer = try card.transmit(APDU.readRecord(1, sfi: sfi, cla: cla, toLast: true))
            switch answer.sw {
            case 0x9000 where answer.data.isEmpty:
                card.log("READ RECORD with Le 00 answered nothing: asking for 29 bytes a record")
                knownLength = true
            case 0x9000: return Array(try Self.split(answer.data).prefix(limit))
            case 0x6A82: return nil
            case 0x6A83: return []
            case 0x6A86, 0x6B00, 0x6D00, 0x6A81, 0x6700:
                card.log("READ RECORD of all records answered \(answer.swHex): one record a command")
                multipleRecords = false
            default: throw PluginError.cardRefused("READ RECORD of SFI \(Hex.string([sfi])) answered \(answer.swHex)")
            }
        }
        var out = [Bytes]()
        while out.count < limit {
            switch try record(UInt8(out.count + 1), sfi: sfi) {
            case .record(let r): out.append(r)
            case .absent where out.isEmpty: return nil
            case .absent, .end: return out
            }
        }
        return out
    }

    /// What READ RECORD of one record gave.
    enum Record { case record(Bytes), end, absent }

    /// Record `n` of `sfi`: past the last one (6A83) `end`, a missing file (6A82) `absent`.
    func record(_ n: UInt8, sfi: UInt8) throws -> Record {
        var le: UInt8 = knownLength ? Self.recordLength : 0x00
        for _ in 0 ..< 2 {
            let answer = try card.transmit(APDU.readRecord(n, sfi: sfi, length: le, cla: cla))
            switch answer.sw {
            case 0x9000 where answer.data.isEmpty && le == 0:
                card.log("READ RECORD with Le 00 answered nothing: asking for 29 bytes a record")
                knownLength = true
                le = Self.recordLength
            case 0x9000: return .record(answer.data)
            case 0x6A83: return .end
            case 0x6A82: return .absent
            default: throw PluginError.cardRefused("READ RECORD \(n) of SFI \(Hex.string([sfi])) answered \(answer.swHex)")
            }
        }
        throw PluginError.malformedResponse("READ RECORD \(n) of SFI \(Hex.string([sfi])) gave no record")
    }

    /// A multi-record answer: record number, length, bytes, repeated (Keyple `CmdCardReadRecords`).
    static func split(_ data: Bytes) throws -> [Bytes] {
        var out = [Bytes](), at = 0
        while at < data.count {
            let length = Int(try data.u8(at + 1))
            out.append(try data.slice(at + 2, length))
            at += 2 + length
        }
        return out
    }
}

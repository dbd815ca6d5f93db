/// Selecting ISO 7816 applications by AID, with the detection rule of
/// docs/specification.md §"Detection fallback" for AID-based families:
/// only "no AID of this family is selectable" moves on to the next plugin.
public enum ISOApplication {
    /// The first AID of `aids` the card selects, with its FCI; throws `notThisCard` when the card
    /// rejects every one with a status word (applicationNotFound). Transport failures are thrown.
    public static func selectFirst(_ card: CardLink, _ aids: [[UInt8]], cla: UInt8 = 0x00) throws -> (aid: [UInt8], fci: Bytes) {
        for aid in aids {
            let answer = try card.transmit(APDU.selectAID(aid, cla: cla))
            if answer.isSuccess { return (aid, answer.data) }
        }
        throw PluginError.notThisCard
    }

    /// READ RECORD 1, 2, … of `sfi` until the card answers 6A83 (record not found) or `limit` records;
    /// one command a record. Any other status word, 6A82 (no such file) included, is a refusal: once
    /// an application is selected, every failure ends the read (docs/specification.md §"Detection fallback").
    public static func readRecords(_ card: CardLink, sfi: UInt8, limit: Int, cla: UInt8 = 0x00) throws -> [Bytes] {
        var out = [Bytes]()
        while out.count < limit {
            let answer = try card.transmit(APDU.readRecord(UInt8(out.count + 1), sfi: sfi, cla: cla))
            if answer.sw == 0x6A83 { break }
            out.append(try answer.require("READ RECORD \(out.count + 1) of SFI \(Hex.string([sfi]))"))
        }
        return out
    }
}

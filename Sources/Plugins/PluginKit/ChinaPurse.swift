/// The PBOC e-purse (JR/T 0025) that China's transit cards share, T-Union and the city cards alike:
/// GET BALANCE and the SFI 0x18 transaction log (Metrodroid ChinaCard / ChinaTrip, NFSee read.js
/// ReadPBOCBalanceATCAndTrans, NFCard; facts only). Read-only: the purse's preamble commands
/// (INITIALIZE FOR LOAD 80 50, and 80 52 / 80 54 / 80 58) change the card and are never built here.
public enum ChinaPurse {
    /// GET BALANCE of the e-purse: P1 00, P2 02 (P2 01 would be the e-deposit), Le 4.
    public static let getBalance: [UInt8] = [0x80, 0x5C, 0x00, 0x02, 0x04]
    /// The transaction log: SFI 0x18, up to 10 records of 23 bytes, record 1 newest.
    public static let logSFI: UInt8 = 0x18
    public static let logLimit = 10

    /// A purse value in fen: 4 bytes big-endian without the top bit (not part of the amount).
    public static func amount(_ answer: APDUResponse) throws -> Int64 {
        guard answer.data.count == 4 else { throw PluginError.malformedResponse("GET BALANCE returned \(answer.data.count) bytes") }
        return Int64(try answer.data.be(0, 4) & 0x7FFF_FFFF)
    }

    /// GET BALANCE of the selected purse; a status word is a refusal (the read depends on it).
    public static func balance(_ card: CardLink) throws -> Int64 {
        let answer = try card.transmit(getBalance)
        try answer.require("GET BALANCE")
        return try amount(answer)
    }

    /// The log's records, one READ RECORD each, newest first.
    public static func log(_ card: CardLink) throws -> [Bytes] {
        try ISOApplication.readRecords(card, sfi: logSFI, limit: logLimit)
    }
}

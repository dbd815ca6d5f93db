import PluginKit

/// A city card found by its AID: where file 0x15 keeps its number and validity, and how its purse counts.
struct CityCard: Sendable {
    let aid: [UInt8]
    /// The card name and printed number from file 0x15.
    let identity: @Sendable (Bytes) throws -> (name: String, number: String, metadata: [String: String])
    /// Offset of the issue and expiry dates (BCD YYYYMMDD) in file 0x15, when the card keeps them there.
    var validityAt: Int? = 20
    /// The purse's own application, selected after file 0x15 is read (Lingnan Pass).
    var purseAID: [UInt8]?
    var currency = "CNY"
    /// The card's purse value to the balance in minor units.
    var balanceRule: @Sendable (Int64) -> Int64 = { $0 }
    /// The log's amount unit in minor units.
    var amountScale: UInt64 = 1

    /// File 0x15 (from the FCI's copy or read), the purse and its log.
    func read(_ card: CardLink, fci: Bytes) throws -> CardResult {
        let file = try PBOCIdentityFile.read(card, fci: fci)
        let (name, number, metadata) = try identity(file)
        if let purseAID {
            let answer = try card.transmit(APDU.selectAID(purseAID))
            try answer.require("SELECT of the purse application")
        }
        let purse = try ChinaPurse.balance(card)
        let validity = try validityAt.map { (BCD.civilTime(try file.slice($0, 4), utcOffset: Zone.china),
                                             BCD.civilTime(try file.slice($0 + 4, 4), utcOffset: Zone.china)) }
        return CardResult(cardName: name, serialNumber: number, balance: balanceRule(purse), currency: currency,
                          validFrom: validity?.0, validUntil: validity?.1, metadata: metadata,
                          transactions: try ChinaPurse.log(card).compactMap { try PBOCLogRecord.decode($0, amountScale: amountScale) })
    }

    /// Shenzhen Tong, `PAY.SZT`. Serial: bytes 16–19. Sources disagree on their order: Metrodroid
    /// (NewShenzhenTransitData, citing NFCard's ShenzhenTong) reads them little-endian and prints a
    /// check digit that makes the digit sum a multiple of 10; NFSee reads them big-endian without one.
    /// Little-endian is chosen: it is the older reading (NFCard's, kept by Metrodroid) and the only one
    /// that accounts for the check digit printed on the card; the big-endian reading is kept in the
    /// metadata so a user can compare it with the card's face.
    static let shenzhen = CityCard(aid: Array("PAY.SZT".utf8), identity: { f in
        let le = try f.le(16, 4), be = try f.be(16, 4)
        return ("Shenzhen Tong", "\(le)(\(checkDigit(le)))", ["serialBigEndianReading": String(be)])
    })

    /// City Union (城市一卡通互联), `A0 00 00 00 03 86 98 07 01`: city code bytes 2–3 (BCD, `2000`
    /// Shanghai), serial bytes 16–19, validity 20–27. Metrodroid (CityUnionTransitData) prints the serial
    /// as a decimal number, big-endian for Shanghai and little-endian elsewhere; NFSee prints bytes 12–19
    /// as hex digits. Metrodroid's is chosen: Shanghai's cards print a decimal number that bytes 12–19 as
    /// hex do not give (their leading bytes are not the printed digits). Chongqing (4000) keeps its
    /// number in MF file 05 (NFSee): not read; the file 0x15 serial is shown.
    static let cityUnion = CityCard(aid: [0xA0, 0x00, 0x00, 0x00, 0x03, 0x86, 0x98, 0x07, 0x01], identity: { f in
        let city = try f.slice(2, 2).hex
        let serial = city == shanghai ? try f.be(16, 4) : try f.le(16, 4)
        return (city == shanghai ? "Shanghai Public Transportation Card" : "City Union", String(serial), ["cityCode": city])
    })
    static let shanghai = "2000"

    /// Wuhan Tong, `AP1.WHCTC`: number bytes 12–19 (hex digits), validity 20–27 in file 0x15 (NFSee).
    /// Metrodroid reads files 0A and 05 instead; file 0x15 is chosen because every other city card is
    /// read from it (one READ BINARY, or none when the FCI carries it) and both sources agree it exists.
    static let wuhan = CityCard(aid: Array("AP1.WHCTC".utf8), identity: { f in ("Wuhan Tong", try f.slice(12, 8).hex, [:]) })

    /// Lingnan Pass / Yang Cheng Tong, `PAY.APPY` then `PAY.TICL` for the purse; number bytes 11–15 of
    /// file 0x15 under PAY.APPY (NFSee only; no validity known).
    static let lingnan = CityCard(aid: Array("PAY.APPY".utf8), identity: { f in ("Lingnan Pass", try f.slice(11, 5).hex, [:]) },
                                  validityAt: nil, purseAID: Array("PAY.TICL".utf8))

    /// Macau Pass, AID `B0 C4 C3 C5 CD A8 C7 AE B0 FC`: number bytes 35–39 of file 0x15, validity 20–27;
    /// its own balance rule: the purse counts 0.1 MOP, offset by 10 MOP, so balance = raw × 10 − 1000 in
    /// 0.01 MOP, and log amounts × 10 (NFSee ReadMacauPass; its mock card's three records).
    static let macau = CityCard(aid: [0xB0, 0xC4, 0xC3, 0xC5, 0xCD, 0xA8, 0xC7, 0xAE, 0xB0, 0xFC],
                                identity: { f in ("Macau Pass", try f.slice(35, 5).hex, [:]) },
                                currency: "MOP", balanceRule: { $0 * 10 - 1000 }, amountScale: 10)

    /// The digit that makes the digit sum a multiple of 10 (Metrodroid NewShenzhenTransitData).
    static func checkDigit(_ n: UInt64) -> UInt64 {
        var sum: UInt64 = 0, rest = n
        while rest > 0 { sum += rest % 10; rest /= 10 }
        return (10 - sum % 10) % 10
    }
}

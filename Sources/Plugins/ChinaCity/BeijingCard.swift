import PluginKit

/// Beijing's non-interoperable BMAC card (北京一卡通): its identity is MF file SFI 04, read while the MF
/// is current, then DF 1001 holds the purse (NFSee read.js ReadTransBeijing and its probe; Metrodroid
/// BeijingTransitData). SFI 04: card number bytes 0–7 (hex digits as printed), issue date 24–27,
/// expiry 28–31 (BCD). NFSee takes the card as Beijing's only when the file starts `10 00`.
enum BeijingCard {
    static let readMFFile04 = APDU.readBinary(sfi: 0x04, length: 0x20)
    static let selectPurseDF = APDU.selectFile(0x1001)
    static let numberPrefix: [UInt8] = [0x10, 0x00]
    /// SELECT of the MF by its reserved identifier 3F00 (ISO/IEC 7816-4, 5.1.1 and 7.1.1).
    static let selectMF = APDU.selectFile(0x3F00)

    /// The reading, or nil when the card is not a Beijing card (then the MF is still current).
    static func read(_ card: CardLink) throws -> CardResult? {
        let mf = try card.transmit(readMFFile04)
        guard mf.isSuccess, mf.data.count >= 32, mf.data.storage.starts(with: numberPrefix) else { return nil }
        guard try card.transmit(selectPurseDF).isSuccess else { return nil }
        // From here DF 1001 is current: whatever ends the read, the MF is selected again.
        let reading: CardResult
        do {
            let balance = try ChinaPurse.balance(card)
            reading = CardResult(cardName: "Beijing Yikatong", serialNumber: try mf.data.slice(0, 8).hex, balance: balance, currency: "CNY",
                                 validFrom: BCD.civilTime(try mf.data.slice(24, 4), utcOffset: Zone.china),
                                 validUntil: BCD.civilTime(try mf.data.slice(28, 4), utcOffset: Zone.china),
                                 transactions: try ChinaPurse.log(card).compactMap { try PBOCLogRecord.decode($0) })
        } catch PluginError.cancelled {
            throw PluginError.cancelled
        } catch {
            try restoreMF(card)
            throw error
        }
        try restoreMF(card)
        return reading
    }

    /// Makes the MF current again, as the card was found: the current DF outlives a read while the
    /// card stays in the field (ISO/IEC 7816-4, 5.3.1; pcscd leaves the card unreset between clients),
    /// and the next read of the card — a second `transit scan`, or another application's — starts
    /// with the MF file above; done after a failed read too. Best-effort: a failure is logged.
    private static func restoreMF(_ card: CardLink) throws {
        do {
            let answer = try card.transmit(selectMF)
            if !answer.isSuccess { card.log("the MF was not selected again (\(answer.swHex)); the next read may not find the card") }
        } catch PluginError.cancelled {
            throw PluginError.cancelled
        } catch {
            card.log("the MF was not selected again (\(error)); the next read may not find the card")
        }
    }
}

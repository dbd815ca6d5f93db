import PluginKit

/// CharlieCard (Boston, MBTA), MIFARE Classic 1K. Facts from Metrodroid transit/charlie
/// (CharlieCardTransitData, CharlieCardTrip) and, for the card type, end of validity and passes,
/// Flipper Zero applications/main/nfc/plugins/supported_cards/charliecard.c (layout facts only):
/// - recognised by the key that opened sector 0: md5("charlie" ‖ key ‖ "charlie") is one of
///   Metrodroid's two digests (CharlieCardTransitData FACTORY.earlyCheck), or one plugins.conf adds;
/// - number: "5-" and sector 0 block 0 bytes 0–3 (big-endian) in decimal (Metrodroid formatSerial);
/// - balance sector: sector 2 when its block 0 bits 81–96 exceed sector 3's, else sector 3
///   (Metrodroid); there block 0 bytes 6–8 = issue time, block 1 bytes 0–1 >> 6 = card type,
///   block 1 bytes 1–3 & 0x1FFFFF = end of validity in 8-minute steps (Flipper), block 1
///   bytes 5–6 = balance as a price;
/// - a price: 16 bits big-endian, bit 15 a minus sign, the rest half-cents (Metrodroid getPrice);
/// - history: 12 slots of 7 bytes, slot i in sector 6 + i/6, block (i/2) mod 3, byte 7·(i mod 2):
///   bytes 0–2 time, bytes 3–4 gate (>> 3) and flags (& 7), bytes 5–6 price; an empty slot's first
///   4 bytes are zero (Metrodroid); a negative price is a top-up (Metrodroid; Flipper reads flag
///   bit 0 instead, and the two agree but on zero-fare pass rides, which stay trips here);
/// - passes (Flipper, marked "speculative" there): sectors 4–5 block 0, bytes 0 and 7, 6 bytes;
///   `00 20 00 00 00 00` is an empty slot; bytes 0–1 >> 6 = product, bytes 1–3 & 0x1FFFFF = end in
///   8-minute steps.
/// Times count minutes from 2003-01-01 00:00 EST (05:00 UTC, Metrodroid CHARLIE_EPOCH), shown in
/// Boston time with US summer time.
enum CharlieCardPlugin: CardFamilyPlugin {
    static let name = "charliecard"
    static let technology: CardTechnology = .mifareClassic
    static let options = [PluginOption.keyDigests]

    /// Salted MD5 digests of sector 0's keys (Metrodroid CharlieCardTransitData.kt, FACTORY.earlyCheck).
    static let shippedDigests = ["63ee95c7340fceb524cae7aab66fb1f9", "2114a2414d6b378e36a4e9540d1adc9f"]
    static let salt = "charlie"
    /// 2003-01-01T05:00Z as seconds since 1970 (Metrodroid CHARLIE_EPOCH: UTC 2003 + 5 × 60 minutes).
    static let epochUTC: Int64 = 1_041_397_200
    /// Card and pass types (Flipper charliecard.c charliecard_types, partial).
    /// Marked for the family's catalog (`PluginWords`).
    static let typeNames: [UInt64: String] = [
        367: PluginWords.mark("Adult", in: "charliecard"),
        366: PluginWords.mark("SV Adult", in: "charliecard"),
        418: PluginWords.mark("Student", in: "charliecard"),
        419: PluginWords.mark("Senior", in: "charliecard"),
        420: PluginWords.mark("TAP", in: "charliecard"),
        417: PluginWords.mark("Blind", in: "charliecard"),
        426: PluginWords.mark("Child", in: "charliecard"),
        410: PluginWords.mark("Employee ID Without Passback", in: "charliecard"),
        414: PluginWords.mark("Employee ID With Passback", in: "charliecard"),
        415: PluginWords.mark("Retiree", in: "charliecard"),
        416: PluginWords.mark("Police/Fire", in: "charliecard"),
        135: PluginWords.mark("30 Day Local Bus Pass", in: "charliecard"),
        136: PluginWords.mark("30 Day Inner Express Bus Pass", in: "charliecard"),
        137: PluginWords.mark("30 Day Outer Express Bus Pass", in: "charliecard"),
        138: PluginWords.mark("30 Day LinkPass", in: "charliecard"),
        139: PluginWords.mark("30 Day Senior LinkPass", in: "charliecard"),
        148: PluginWords.mark("30 Day TAP LinkPass", in: "charliecard"),
        150: PluginWords.mark("Monthly Student LinkPass", in: "charliecard"),
        424: PluginWords.mark("Monthly TAP LinkPass", in: "charliecard"),
        425: PluginWords.mark("Monthly Senior LinkPass", in: "charliecard"),
        421: PluginWords.mark("Senior TAP/Permit", in: "charliecard"),
        422: PluginWords.mark("Senior TAP/Permit 30 Days", in: "charliecard"),
    ]

    static func read(_ card: CardLink) throws -> CardResult {
        guard card.classicSectorCount >= 16,
              try card.classicKeyMatches(sector: 0, salt: salt, digests: card.classicKeyDigests(shipped: shippedDigests)) == true,
              let s0 = try card.classicSectorBytes(0) else { throw PluginError.notThisCard }
        var sectors: [Int: Bytes] = [:]
        for n in 2 ... 8 { sectors[n] = try card.classicSectorBytes(n) }
        let needed = [2, 3, 6, 7].filter { sectors[$0] == nil }
        guard needed.isEmpty, let s2 = sectors[2], let s3 = sectors[3], let s6 = sectors[6], let s7 = sectors[7] else {
            throw PluginError.locked("CharlieCard sectors \(needed.map(String.init).joined(separator: ", ")) are locked")
        }
        let serial = try s0.block(0).be(0, 4)
        let useSector2 = try counter(s2) > counter(s3)
        let balanceSector = useSector2 ? s2 : s3
        let b0 = try balanceSector.block(0), b1 = try balanceSector.block(1)
        let type = try b1.be(0, 2) >> 6
        let issued = time(minutes: try b0.be(6, 3)), end = time(minutes: (try b1.be(1, 3) & 0x1F_FFFF) * 8)
        var metadata = ["issued": issued?.iso8601 ?? "", "validUntilTime": end?.iso8601 ?? "",
                        "cardType": typeNames[type] ?? "type \(type)", "cardTypeCode": String(type),
                        "balanceSector": useSector2 ? "2" : "3"]
        if let s8 = sectors[8] {
            let second = try s8.block(0).be(0, 4)
            if second != 0, second != 0xFFFF_FFFF { metadata["secondNumber"] = "A" + zeroPadded(second, 10) }
        }
        var passes: [Pass] = []
        if let s4 = sectors[4], let s5 = sectors[5] {
            passes = try [s4, s5].flatMap { s in try [0, 7].compactMap { try pass(try s.block(0).slice($0, 6)) } }
        } else {
            metadata["passes"] = PluginWords.mark("not read: sectors 4–5 are locked", in: "charliecard")
        }
        var history: [(minutes: UInt64, transaction: Transaction)] = []
        for i in 0 ..< 12 {
            let slot = try (i / 6 == 0 ? s6 : s7).block(i / 2 % 3).slice(7 * (i % 2), 7)
            guard try slot.be(0, 4) != 0 else { continue }
            history.append(try transaction(slot))
        }
        history.sort { $0.minutes > $1.minutes }
        return CardResult(family: name, cardName: "CharlieCard", serialNumber: "5-\(serial)",
                          balance: try price(b1, at: 5), currency: "USD",
                          validFrom: issued?.dateOnly,
                          validUntil: end?.dateOnly,
                          metadata: metadata, transactions: history.map(\.transaction), passes: passes)
    }

    /// The balance sectors' write counter: block 0 bits 81–96 (Metrodroid CharlieCardTransitData.parse).
    static func counter(_ sector: Bytes) throws -> UInt64 {
        var bits = BitReader(try sector.block(0))
        _ = try bits.read(64)
        _ = try bits.read(17)
        return try bits.read(16)
    }

    /// A price in cents: bit 15 a minus sign, bits 0–14 half-cents (Metrodroid getPrice).
    static func price(_ b: Bytes, at offset: Int) throws -> Int64 {
        let raw = try b.be(offset, 2)
        let halfCents = Int64(raw & 0x7FFF)
        return (raw & 0x8000 != 0 ? -halfCents : halfCents) / 2
    }

    static func transaction(_ slot: Bytes) throws -> (minutes: UInt64, transaction: Transaction) {
        let minutes = try slot.be(0, 3), gateField = try slot.be(3, 2)
        let amount = try price(slot, at: 5)
        let gate = gateField >> 3, flags = gateField & 7
        let t = Transaction(type: amount < 0 ? .topup : .trip, amount: UInt64(amount.magnitude), date: time(minutes: minutes),
                            entryStation: "gate \(gate)", metadata: ["gate": String(gate), "flags": String(flags)],
                            rawType: String(flags), rawPayload: slot.hex)
        return (minutes, t)
    }

    /// A pass slot, or nil when empty (Flipper pass_parse: `00 20 00 00 00 00`; all zeros too).
    static func pass(_ slot: Bytes) throws -> Pass? {
        if slot.storage == [0x00, 0x20, 0, 0, 0, 0] || slot.isAllZero { return nil }
        let product = try slot.be(0, 2) >> 6
        return Pass(name: typeNames[product], tariff: String(product),
                    validUntil: time(minutes: (try slot.be(1, 3) & 0x1F_FFFF) * 8),
                    metadata: ["layout": PluginWords.mark("speculative (Flipper charliecard.c)", in: "charliecard"), "raw": slot.hex])
    }

    /// Boston time `minutes` after 2003-01-01 00:00 EST, with the US summer-time rule of its year.
    static func time(minutes: UInt64) -> CivilTime? {
        guard minutes < 1 << 32 else { return nil }
        let utc = epochUTC + Int64(minutes) * 60
        guard let estYear = CivilTime(seconds: utc - 5 * 3600, sinceYear: 1970, month: 1, day: 1, utcOffset: 0)?.year else { return nil }
        return (estYear < 2007 ? SummerTimeZone.newYork1987to2006 : SummerTimeZone.newYork).civilTime(utcSeconds: utc)
    }

    static func zeroPadded(_ v: UInt64, _ width: Int) -> String {
        let s = String(v)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }
}

@_cdecl("transit_plugin_entry_v1")
public func transitPluginEntry(_ hostVersion: UInt32) -> UnsafeRawPointer? { PluginExport.entry(CharlieCardPlugin.self, hostVersion) }

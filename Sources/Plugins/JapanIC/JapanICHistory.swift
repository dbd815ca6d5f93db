import PluginKit

/// Decodes 090F history blocks (16 bytes each, newest first). Layout and codes from Metrodroid
/// SuicaTrip / SuicaUtil (facts only; docs/research/felica-iso.md §"Japan IC history service"):
///   0 console type · 1 process type · 4–5 date (7 bits year − 2000, 4 bits month, 5 bits day)
///   6–9 entry and exit station (line, station), or bus line and stop codes, or for product sales a
///       time in 6–7 (5 bits hour, 6 bits minute, 5 unknown bits) · 10–11 balance little-endian
///   12 unknown · 13–14 the record's sequence number (big-endian; metadata `sequence`, which lets an
///   archive tell records apart) · 15 regions (entry bits 7–6, exit bits 5–4).
/// A charge or a ticket bought at a station's machine keeps that station in 6–7: tanitanin/
/// ICHistoryReader HistoryInfo.cs (facts only) gives 6–7 as the entry station, 8–9 as "0000 for a
/// new card or a charge", and for tickets bought 6–7 the station and 8–9 a ticket machine number
/// ("mostly 00 00, rarely 01 01"), never an exit. docs/specification.md §"Japan IC history" reads the same for ticket-machine
/// consoles (03, 07, 08, 12–15: entryStation only); its "charges carry no stations" holds where
/// 6–7 are 0000 (no station) or the charge is a shop's (a product-sale console, whose 6–7 are a time).
enum JapanICHistory {
    /// Process types that add to the balance (docs/specification.md §"Japan IC history": 02h charge, 07h new issue, 14h/15h auto-charge at
    /// entry/exit, 17h bus auto-charge, 1Fh bus charge, 48h bonus charge, 49h register charge).
    static let topUpProcesses: Set<UInt8> = [0x02, 0x07, 0x14, 0x15, 0x17, 0x1F, 0x48, 0x49]
    /// Consoles of product sales: C7 POS terminal, C8 vending machine (Metrodroid SuicaTrip).
    static let productSaleConsoles: Set<UInt8> = [0xC7, 0xC8]
    /// Ticket machines and fare adjustment machines: entry station only (docs/specification.md §"Japan IC history"; Metrodroid isTVM).
    static let ticketMachineConsoles: Set<UInt8> = [0x03, 0x07, 0x08, 0x12, 0x13, 0x14, 0x15]
    static let busConsole: UInt8 = 0x05
    /// The plain charge (チャージ): the machine's station in 6–7, 0000 in 8–9 (no exit).
    static let plainCharge: UInt8 = 0x02
    /// A magnetic ticket bought with the card's balance (磁気券購入, Metrodroid SuicaUtil process 03):
    /// a purchase at the station of the machine.
    static let ticketPurchase: UInt8 = 0x03
    /// A new card issued (新規): it starts at zero, so its amount is its balance.
    static let newIssue: UInt8 = 0x07
    /// Auto-charges at a gate's entry and exit (14h, 15h): the gate's station, no journey.
    static let gateAutoCharges: Set<UInt8> = [0x14, 0x15]
    /// Every auto-charge (オートチャージ: at a gate, 14h and 15h; on a bus, 17h): metadata `event`
    /// `auto-charge`, what SFCard Viewer's memo notes as ｵｰﾄﾁｬｰｼﾞ.
    static let autoCharges: Set<UInt8> = [0x14, 0x15, 0x17]

    static func decode(_ blocks: [Bytes]) throws -> [Transaction] {
        // Slots with a zero date are empty and skipped (Metrodroid SuicaTransitData).
        let used = try blocks.filter { try $0.be(4, 2) != 0 }
        return try used.enumerated().map { index, block in
            let older = index + 1 < used.count ? try used[index + 1].le(10, 2) : nil
            var t = try transaction(block, olderBalance: older)
            // The oldest record of a new card (process 07) starts from zero: it added its balance.
            if older == nil, try block.u8(1) == newIssue { t.amount = try block.le(10, 2) }
            return t
        }
    }

    static func transaction(_ b: Bytes, olderBalance: UInt64?) throws -> Transaction {
        let console = try b.u8(0), process = try b.u8(1)
        let balance = try b.le(10, 2)
        let isProductSale = productSaleConsoles.contains(console)
        var t = Transaction(type: kind(console: console, process: process), rawType: Hex.string([console, process]),
                            rawPayload: b.hex, balance: Int64(balance))
        // Amount = difference to the next older record's balance; the oldest record has none.
        if let olderBalance {
            t.amount = balance > olderBalance ? balance - olderBalance : olderBalance - balance
            // A record whose balance went up added money, whatever its process says: a cancelled
            // purchase (C7h/4Ah, 800 → 1000) is a refund, never a deduction (issue 12).
            if balance > olderBalance, t.type != .topup {
                t.type = .topup
                t.metadata[MetadataKey.event] = MetadataKey.refundEvent
            }
        }
        if autoCharges.contains(process), t.type == .topup { t.metadata[MetadataKey.event] = MetadataKey.autoChargeEvent }
        t.date = try date(b, withTime: isProductSale)
        t.metadata[MetadataKey.sequence] = String(try b.be(13, 2))

        let region = try b.u8(15)
        if console == busConsole {
            t.metadata[MetadataKey.busLineCode] = try b.slice(6, 2).hex
            t.metadata[MetadataKey.busStopCode] = try b.slice(8, 2).hex
        } else if isProductSale {
            // Product sales carry no stations (docs/specification.md §"Japan IC history"): 6–7 are the time of the sale. A charge (02h)
            // or a ticket bought (03h) at a station's machine, auto-charges at a gate (14h, 15h)
            // and a new card issued at a ticket machine (07h) keep their station.
        } else {
            // Station code 0000 is no station.
            if try b.be(6, 2) != 0 {
                t.entryStation = try b.slice(6, 2).hex
                t.metadata[MetadataKey.entryRegion] = String(region >> 6 & 0x03)
            }
            // A charge's 8–9 are 0000 and a ticket's a machine number: neither is an exit.
            if !ticketMachineConsoles.contains(console), !gateAutoCharges.contains(process), process != plainCharge, process != ticketPurchase,
               try b.be(8, 2) != 0 {
                t.exitStation = try b.slice(8, 2).hex
                t.metadata[MetadataKey.exitRegion] = String(region >> 4 & 0x03)
            }
        }
        return t
    }

    static func kind(console: UInt8, process: UInt8) -> TransactionType {
        if topUpProcesses.contains(process) { return .topup }
        if productSaleConsoles.contains(console) || process == ticketPurchase { return .purchase }
        return .trip
    }

    /// The record's date (and for product sales its time); nil when out of range.
    static func date(_ b: Bytes, withTime: Bool) throws -> CivilTime? {
        let raw = try b.be(4, 2)
        let year = 2000 + Int(raw >> 9), month = Int(raw >> 5 & 0x0F), day = Int(raw & 0x1F)
        guard withTime else { return CivilTime(year: year, month: month, day: day, utcOffset: Zone.japan) }
        let time = try b.be(6, 2)
        return CivilTime(year: year, month: month, day: day, hour: Int(time >> 11), minute: Int(time >> 5 & 0x3F),
                         utcOffset: Zone.japan)
    }
}

import PluginKit

/// One Troika ticket block: the 48 data bytes of a Classic sector (8 or 4) or Ultralight pages
/// 4–15. Bit fields MSB first, positions from Metrodroid transit/troika/ (TroikaBlock.kt for the
/// header; TroikaPurseE3.kt, TroikaPurseE5.kt, TroikaLayoutE2.kt, TroikaLayoutA.kt,
/// TroikaLayoutD.kt, TroikaLayout2.kt for the layouts): bits 0–9 the Troika mark, 4–19 the ticket
/// type, 20–51 the printed number, 52–55 the layout, 56–60 layout E's sub-layout.
struct TroikaBlock {
    /// One validation (a tap; Troika keeps no tap-out), newest first in `validations`.
    struct Validation {
        var time: CivilTime
        var mode: String?
        var validator: Int?
        var fare: String?
    }

    static let byteCount = 48

    let number: String
    let ticketType: Int
    /// "E/3", "E/5", "E/2", "A", "D", "2" or the raw layout.
    let layout: String
    /// Kopecks, for the purses (E/3, E/5).
    var balance: Int64?
    /// The purse's end of validity.
    var expiry: CivilTime?
    var validations: [Validation] = []
    /// E/5: the last top-up (the card keeps its time, not its amount).
    var lastRefill: CivilTime?
    var pass: Pass?
    var metadata: [String: String] = [:]

    /// Whether the first 10 bits are one of Troika's marks 0x117, 0x108, 0x106
    /// (Metrodroid TroikaBlock.check, used for sectors 8 and 4 and Ultralight page 4).
    static func isTroika(_ data: [UInt8]) -> Bool {
        guard data.count >= 2 else { return false }
        let mark = Int(data[0]) << 2 | Int(data[1]) >> 6
        return [0x117, 0x108, 0x106].contains(mark)
    }

    init(_ data: [UInt8]) throws {
        guard data.count >= Self.byteCount else {
            throw PluginError.malformedResponse("a Troika block of \(data.count) bytes, not \(Self.byteCount)")
        }
        let f = Fields(data)
        ticketType = try f(4, 16)
        number = Self.printed(try f(20, 32))
        let layoutCode = try f(52, 4)
        metadata["ticketType"] = String(ticketType, radix: 16)
        switch layoutCode {
        case 0xE:
            switch try f(56, 5) {
            case 2: layout = "E/2"; try readE2(f)
            case 3: layout = "E/3"; try readE3(f)
            case 5: layout = "E/5"; try readE5(f)
            case let sub: layout = "E/\(sub)"; pass = Pass(name: Self.name(ticketType), tariff: String(ticketType, radix: 16))
            }
        case 0xA: layout = "A"; try readA(f)
        case 0xD: layout = "D"; try readD(f)
        case 0x2: layout = "2"; try read2(f)
        default: layout = String(layoutCode, radix: 16); pass = Pass(name: Self.name(ticketType), tariff: String(ticketType, radix: 16))
        }
        metadata["layout"] = layout
    }

    // MARK: Layouts

    /// E/3, the older purse: expiry 61–76 (days since 1992), validator 128–143, validation 144–166
    /// (minutes since 2016), transfer 171–177 (minutes after it), transport 178–179 and 180–187,
    /// balance 188–209 (kopecks), fare 210–211 (1 single ride, 2 ninety minutes).
    private mutating func readE3(_ f: Fields) throws {
        expiry = TroikaClock.date(epochYear: 1992, days: try f(61, 16))
        balance = Int64(try f(188, 22))
        let fare: String? = switch try f(210, 2) {
        case 1: PluginWords.mark("single ride", in: "troika")
        // TRANSLATORS: a fare: rides within 90 minutes of the first.
        case 2: PluginWords.mark("90 minutes", in: "troika")
        default: nil
        }
        let transport = Transport.coded(leading: try f(178, 2), long: try f(180, 8))
        validations = Self.validations(at: TroikaClock.dateTime(epochYear: 2016, days: 0, minutes: try f(144, 23)),
                                       transfers: [try f(171, 7)], validator: try f(128, 16), transport: transport, fare: fare)
    }

    /// E/5, the purse since 2019: expiry 61–73 (days since 2019), last top-up 84–106 (minutes since
    /// 2019), top-up count 107–116, validation 128–150 (minutes since 2019), transfers 151–157 and
    /// 158–164, balance 167–185 (kopecks), validator 186–201, trips paid from the purse 216–222.
    private mutating func readE5(_ f: Fields) throws {
        expiry = TroikaClock.date(epochYear: 2019, days: try f(61, 13))
        balance = Int64(try f(167, 19))
        lastRefill = TroikaClock.dateTime(epochYear: 2019, days: 0, minutes: try f(84, 23))
        metadata["refills"] = String(try f(107, 10))
        metadata["purseTrips"] = String(try f(216, 7))
        validations = Self.validations(at: TroikaClock.dateTime(epochYear: 2019, days: 0, minutes: try f(128, 23)),
                                       transfers: [try f(151, 7), try f(158, 7)], validator: try f(186, 16), transport: .unknown, fare: nil)
    }

    /// E/2, newer multi-ride passes: expiry 71–86 (days since 1992), start 97–112 (days since
    /// 1992), length 131–150 (minutes), transfer 154–161, transport 163–164 (1 metro, 2 monorail,
    /// 3 ground), trips left 167–176, validator 177–192, validation 196–215 (minutes before the end).
    private mutating func readE2(_ f: Fields) throws {
        let start = try f(97, 16), length = try f(131, 20)
        let transport: Transport = switch try f(163, 2) { case 1: .metro; case 2: .monorail; case 3: .ground; default: .none }
        validations = Self.validations(at: TroikaClock.dateTime(epochYear: 1992, days: start, minutes: length - (try f(196, 20))),
                                       transfers: [try f(154, 8)], validator: try f(177, 16), transport: .fixed(transport), fare: nil)
        pass = Self.pass(ticketType, from: TroikaClock.dateTime(epochYear: 1992, days: start, minutes: 0),
                         end: TroikaClock.dateTime(epochYear: 1992, days: start, minutes: length - 1),
                         expiry: TroikaClock.dateTime(epochYear: 1992, days: try f(71, 16), minutes: 0),
                         lengthMinutes: length, tripsLeft: try f(167, 10))
    }

    /// A, newer single and double rides: start 67–75 (days since 2016), length 76–94 (minutes),
    /// validation 96–114 (minutes into the start day), transfer 119–125, transport 126–127 and
    /// 152–159, trips left 128–135, validator 136–151.
    private mutating func readA(_ f: Fields) throws {
        let start = try f(67, 9), length = try f(76, 19)
        validations = Self.validations(at: TroikaClock.dateTime(epochYear: 2016, days: start, minutes: try f(96, 19)),
                                       transfers: [try f(119, 7)], validator: try f(136, 16),
                                       transport: Transport.coded(leading: try f(126, 2), long: try f(152, 8)), fare: nil)
        pass = Self.pass(ticketType, from: TroikaClock.dateTime(epochYear: 2016, days: start, minutes: 0),
                         end: TroikaClock.dateTime(epochYear: 2016, days: start, minutes: length - 1),
                         expiry: nil, lengthMinutes: length, tripsLeft: try f(128, 8))
    }

    /// D, older multi-ride passes: end 64–79 and start 128–143 (days since 1992), length 144–151
    /// (days), transfer 155–159 (fives of minutes), transport 160–161 and 251–252, trips left
    /// 166–175, validator 176–191, validation 224–239 (day since 1992) and 240–250 (minute).
    private mutating func readD(_ f: Fields) throws {
        let lengthDays = try f(144, 8)
        validations = Self.validations(at: TroikaClock.dateTime(epochYear: 1992, days: try f(224, 16), minutes: try f(240, 11)),
                                       transfers: [try f(155, 5) * 5], validator: try f(176, 16),
                                       transport: Transport.coded(leading: try f(160, 2), long: try f(251, 2)), fare: nil)
        pass = Self.pass(ticketType, from: TroikaClock.date(epochYear: 1992, days: try f(128, 16)),
                         end: TroikaClock.date(epochYear: 1992, days: try f(64, 16)),
                         expiry: nil, lengthMinutes: lengthDays * 1440, tripsLeft: try f(166, 10))
    }

    /// 2, an empty holder or an old ticket: expiry 56–71, validation 141–156 (day) and 130–140
    /// (minute), start 157–172 and end 173–188 (days since 1992), validator 205–220.
    private mutating func read2(_ f: Fields) throws {
        validations = Self.validations(at: TroikaClock.dateTime(epochYear: 1992, days: try f(141, 16), minutes: try f(130, 11)),
                                       transfers: [], validator: try f(205, 16), transport: .unknown, fare: nil)
        guard ![0x5D3D, 0x5D3E, 0x5D48, 0x2135, 0x2141].contains(ticketType) else { return }  // empty holders (TroikaLayout2.kt)
        pass = Self.pass(ticketType, from: TroikaClock.date(epochYear: 1992, days: try f(157, 16)),
                         end: TroikaClock.date(epochYear: 1992, days: try f(173, 16)),
                         expiry: TroikaClock.date(epochYear: 1992, days: try f(56, 16)), lengthMinutes: nil, tripsLeft: nil)
    }

    // MARK: Shared parts

    /// The validation and the transfers made on it (minutes after it), newest first; none without a time.
    private static func validations(at time: CivilTime?, transfers: [Int], validator: Int, transport: Transport,
                                    fare: String?) -> [Validation] {
        guard let time else { return [] }
        var out = [Validation]()
        for (index, after) in (transfers.filter { $0 != 0 }.sorted(by: >) + [0]).enumerated() {
            guard let at = TroikaClock.adding(after, to: time) else { continue }
            let newest = index == 0
            out.append(Validation(time: at, mode: transport.mode(newest: newest), validator: newest ? validator : nil, fare: fare))
        }
        return out
    }

    /// The pass a ticket block holds; a validity of a day or more ends on a date (TroikaSubscription.kt).
    private static func pass(_ ticketType: Int, from: CivilTime?, end: CivilTime?, expiry: CivilTime?, lengthMinutes: Int?,
                             tripsLeft: Int?) -> Pass {
        let byDay = (lengthMinutes ?? 0) >= 1440
        let until = end ?? expiry
        return Pass(name: name(ticketType), tariff: String(ticketType, radix: 16),
                    validFrom: byDay ? from?.dateOnly : from, validUntil: byDay ? until?.dateOnly : until,
                    remainingTrips: tripsLeft.map { UInt32($0) })
    }

    /// The ticket's name (Metrodroid TroikaBlock.getHeader and its strings), marked for the
    /// family's catalog (`PluginWords`); an unknown type's name holds its code, the pass's tariff,
    /// as `%1$s`.
    static func name(_ ticketType: Int) -> String {
        switch ticketType {
        case 0x5D3D, 0x5D3E, 0x5D48, 0x2135: return PluginWords.mark("Empty ticket holder", in: "troika")
        // TRANSLATORS: the card of a volunteer patrol member (druzhinnik), Moscow.
        case 0x183D, 0x2129: return PluginWords.mark("Druzhinnik card", in: "troika")
        case 0x5D9A, 0x5D9B: return PluginWords.mark("Single ride", in: "troika")
        case 0x5D9C: return PluginWords.mark("2 rides", in: "troika")
        case 0x5DA0: return PluginWords.mark("20 rides", in: "troika")
        case 0x5DB1: return PluginWords.mark("Troika purse", in: "troika")
        case 0x5DD3: return PluginWords.mark("60 rides", in: "troika")
        // TRANSLATORS: %1$s is the ticket type's code in hex (5d9d).
        default: return PluginWords.fill(PluginWords.mark("Troika ticket %1$s", in: "troika"), String(ticketType, radix: 16))
        }
    }

    /// The 32-bit number as printed: ten digits grouped 4 3 3 (Metrodroid TroikaBlock.formatSerial).
    static func printed(_ serial: Int) -> String {
        let digits = String(serial)
        let padded = String(repeating: "0", count: max(0, 10 - digits.count)) + digits
        let chars = Array(padded)
        let cut = chars.count - 6
        return String(chars[..<cut]) + " " + String(chars[cut ..< cut + 3]) + " " + String(chars[(cut + 3)...])
    }
}

/// How a validation's vehicle is stored.
private enum Transport {
    case metro, monorail, ground, mcc, none, unknown
    /// Layouts E/3, A, D: a leading code (0 none, 1 the long code's list, 2 ground) and a long code
    /// of 2-bit entries from bit 6 down (1 metro, 2 monorail, 3 MCC) (TroikaBlock.getTransportType).
    case coded(leading: Int, long: Int)
    /// Layout E/2's direct code.
    indirect case fixed(Transport)

    /// The mode of the newest validation, or of the earlier ones on the same trip.
    func mode(newest: Bool) -> String? {
        switch self {
        case .metro: return PluginWords.mark("metro", in: "troika")
        case .monorail: return PluginWords.mark("monorail", in: "troika")
        // TRANSLATORS: a mode of transport: bus, trolleybus or tram.
        case .ground: return PluginWords.mark("ground transport", in: "troika")
        case .mcc: return PluginWords.mark("Moscow Central Circle", in: "troika")
        case .none, .unknown: return nil
        case .fixed(let t): return t.mode(newest: newest)
        case .coded(let leading, let long):
            switch leading {
            case 0: return nil
            case 2: return newest ? PluginWords.mark("ground transport", in: "troika") : nil
            case 1:
                let kinds: [Transport] = stride(from: 6, through: 0, by: -2).compactMap { (shift: Int) -> Transport? in
                    switch long >> shift & 3 { case 1: return .metro; case 2: return .monorail; case 3: return .mcc; default: return nil }
                }
                guard let first = kinds.first, let last = kinds.last else { return nil }
                if kinds.count == 1 && !newest { return nil }
                return (newest ? last : first).mode(newest: newest)
            default: return nil
            }
        }
    }
}

/// Bounds-checked MSB-first bit fields of a block.
private struct Fields {
    let bytes: Bytes
    init(_ data: [UInt8]) { bytes = Bytes(data) }

    func callAsFunction(_ offset: Int, _ count: Int) throws -> Int {
        var reader = BitReader(bytes, startingAtByte: offset / 8)
        if offset % 8 > 0 { _ = try reader.read(offset % 8) }
        return Int(try reader.read(count))
    }
}

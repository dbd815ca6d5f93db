import Foundation

/// What a user wrote down from a ticket machine, for `transit verify` (docs/verify.md).
struct Reference: Decodable {
    /// A known journey or transaction; every field given must match one transaction of the read.
    struct Journey: Decodable {
        /// YYYY-MM-DD in the card's zone.
        var date: String
        /// HH:MM, when the card records times.
        var time: String?
        /// Minor units, as the read reports amounts.
        var amount: UInt64?
        var type: String?
        var entryStation: String?
        var exitStation: String?
        var busLine: String?
        var busStop: String?

        init(date: String, time: String? = nil, amount: UInt64? = nil, type: String? = nil, entryStation: String? = nil,
             exitStation: String? = nil, busLine: String? = nil, busStop: String? = nil) {
            self.date = date; self.time = time; self.amount = amount; self.type = type
            self.entryStation = entryStation; self.exitStation = exitStation; self.busLine = busLine; self.busStop = busStop
        }
    }

    var balance: Int64
    var currency: String?
    var journeys: [Journey]

    static func load(_ path: String) throws -> Reference {
        guard let data = FileManager.default.contents(atPath: path) else { throw TransitError(.usage, "\(path): cannot be read") }
        do {
            return try JSONDecoder().decode(Reference.self, from: data)
        } catch {
            throw TransitError(.usage, "\(path) is not a verification reference (docs/verify.md): \(error)")
        }
    }

    /// Each way the read differs from the reference; empty when it is fully verified.
    func mismatches(_ r: CardReading) -> [String] {
        var out = [String]()
        if r.balance != balance {
            out.append("balance: the card holds \(Money.format(r.balance, r.currency)), the reference \(Money.format(balance, r.currency))")
        }
        if let currency, currency != r.currency { out.append("currency: the card uses \(r.currency), the reference \(currency)") }
        // Each journey must match a transaction of its own.
        var unused = Set(r.transactions.indices)
        for (i, j) in journeys.enumerated() {
            if let t = unused.sorted().first(where: { j.matches(r.transactions[$0]) }) {
                unused.remove(t)
            } else {
                out.append("journey \(i + 1) (\(j.describe)): no transaction of the card matches")
            }
        }
        // The procedure asks for two known journeys before a read counts as fully verified.
        if journeys.count < Self.journeysNeeded {
            out.append("the reference lists \(journeys.count) journey\(journeys.count == 1 ? "" : "s"); full verification needs \(Self.journeysNeeded)")
        }
        return out
    }

    static let journeysNeeded = 2
}

extension Reference.Journey {
    func matches(_ t: CardReading.TransactionRecord) -> Bool {
        guard let d = t.date, date.count == 10, d.prefix(10) == date else { return false }
        if let time, !d.dropFirst(10).hasPrefix("T\(time)") { return false }
        if let amount, t.amount != amount { return false }
        if let type, t.type != type { return false }
        if let entryStation, !Self.station(entryStation, is: [t.entryStation, t.entryStationName, t.entryStationNameEnglish]) { return false }
        if let exitStation, !Self.station(exitStation, is: [t.exitStation, t.exitStationName, t.exitStationNameEnglish]) { return false }
        if let busLine, t.metadata["busLineCode"]?.uppercased() != busLine.uppercased() { return false }
        if let busStop, t.metadata["busStopCode"]?.uppercased() != busStop.uppercased() { return false }
        return true
    }

    /// A reference station given as the hex code or, when a station table named it, by its name
    /// in either language (case-insensitive).
    static func station(_ given: String, is known: [String?]) -> Bool {
        known.contains { $0?.lowercased() == given.lowercased() }
    }

    var describe: String {
        [date, time, amount.map { "amount \($0)" }, entryStation.map { "from \($0)" }, exitStation.map { "to \($0)" },
         busLine.map { "bus line \($0)" }, busStop.map { "stop \($0)" }].compactMap { $0 }.joined(separator: " ")
    }
}

import TransitFiles
import Foundation
import TransitModel

/// What a user wrote down from a ticket machine, for `transit verify` (docs/verify.md).
package struct Reference: Decodable {
    /// A known journey or transaction; every field given must match one transaction of the read.
    package struct Journey: Decodable {
        /// YYYY-MM-DD in the card's zone.
        package var date: String
        /// HH:MM, when the card records times.
        package var time: String?
        /// Minor units, as the read reports amounts.
        package var amount: UInt64?
        package var type: TransactionKind?
        package var entryStation: String?
        package var exitStation: String?
        package var busLine: String?
        package var busStop: String?

        package enum CodingKeys: String, CodingKey, CaseIterable {
            case date, time, amount, type, entryStation, exitStation, busLine, busStop
        }

        package init(date: String, time: String? = nil, amount: UInt64? = nil, type: TransactionKind? = nil, entryStation: String? = nil,
             exitStation: String? = nil, busLine: String? = nil, busStop: String? = nil) {
            self.date = date; self.time = time; self.amount = amount; self.type = type
            self.entryStation = entryStation; self.exitStation = exitStation; self.busLine = busLine; self.busStop = busStop
        }
    }

    package var balance: Int64
    package var currency: String?

    package init(balance: Int64, currency: String?, journeys: [Journey]) {
        self.balance = balance; self.currency = currency; self.journeys = journeys
    }

    package var journeys: [Journey]

    package enum CodingKeys: String, CodingKey, CaseIterable {
        case balance, currency, journeys
    }

    /// The largest reference read: one is written by hand, a few hundred bytes for a balance and
    /// a handful of journeys; 1 MiB holds thousands of journeys.
    package static let fileLimit = 1 << 20

    /// Reads and checks a reference; every problem is `config` naming the file.
    package static func load(_ path: String) throws -> Reference {
        let data: Data
        do { data = try BoundedFile.read(path, limit: fileLimit) } catch { throw TransitError(.config, "\(error)") }
        do {
            return try parse(data)
        } catch let problem as ReferenceProblem {
            throw TransitError(.config, "\(path): \(problem.text) (docs/verify.md)")
        } catch {
            throw TransitError(.config, "\(path) is not a verification reference: \(shape.problem(error, in: data)) (docs/verify.md)")
        }
    }

    /// What each key of a reference holds, said when a file holds something else.
    package static let shape = JSONShape(expected: [
        "balance": "a whole number of minor units, as scan --json prints it (897 for S$8.97, 2010 for ¥2,010)",
        "amount": "a whole number of minor units, as scan --json prints it (128 for S$1.28, 160 for ¥160)",
        "currency": "an ISO 4217 code as text (\"JPY\", \"SGD\")",
        "journeys": "a list of journeys, each an object with at least \"date\"",
        "date": "a date as text, \"YYYY-MM-DD\"",
        "time": "a time as text, \"HH:MM\"",
        "type": "trip, topup, purchase or unknown",
        "entryStation": "a station code or name as text", "exitStation": "a station code or name as text",
        "busLine": "a bus line code as text", "busStop": "a bus stop code as text",
    ], entryNames: ["journeys": "journey"])

    /// Decodes a reference and refuses what the decoder lets through: keys it does not know (a
    /// misspelt field would silently check nothing), dates and times that are not real.
    package static func parse(_ data: Data) throws -> Reference {
        let reference = try JSONDecoder().decode(Reference.self, from: data)
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        try ReferenceProblem.refuseUnknown(object.keys, CodingKeys.self, in: "the reference")
        for (i, journey) in (object["journeys"] as? [Any] ?? []).enumerated() {
            try ReferenceProblem.refuseUnknown((journey as? [String: Any] ?? [:]).keys, Journey.CodingKeys.self, in: "journey \(i + 1)")
        }
        for (i, journey) in reference.journeys.enumerated() {
            guard CalendarDay(journey.date) != nil else {
                throw ReferenceProblem("journey \(i + 1): date \"\(TerminalText.excerpt(journey.date))\" is not a real YYYY-MM-DD date")
            }
            if let time = journey.time, Reference.Journey.clock(time) == nil {
                throw ReferenceProblem("journey \(i + 1): time \"\(TerminalText.excerpt(time))\" is not a real HH:MM time")
            }
        }
        return reference
    }

    /// Each way the read differs from the reference; empty when it is fully verified.
    package func mismatches(_ r: CardReading) -> [String] {
        var out = [String]()
        if r.balance != balance {
            out.append("balance: the card holds \(r.balance.map { Money.format($0, r.currency) } ?? "no stored value"), the reference \(Money.format(balance, r.currency))")
        }
        if let currency, currency != r.currency { out.append("currency: the card uses \(r.currency), the reference \(currency)") }
        // Each journey must match a transaction of its own.
        var unused = Set(r.transactions.indices)
        for (i, j) in journeys.enumerated() {
            let left = unused.sorted()
            if let t = left.first(where: { j.matches(r.transactions[$0], currency: r.currency) }) {
                unused.remove(t)
                continue
            }
            // The nearest transaction of that day (fewest fields apart, the first listed) says what differs.
            let day = CalendarDay(j.date)
            let sameDay = left.filter { r.transactions[$0].date?.day == day }
            if let nearest = sameDay.map({ j.differences(r.transactions[$0], currency: r.currency) }).min(by: { $0.count < $1.count }) {
                out.append("journey \(i + 1) (\(j.describe(currency: r.currency))): " + nearest.joined(separator: "; "))
            } else {
                out.append("journey \(i + 1) (\(j.describe(currency: r.currency))): no transaction of the card is on \(j.date)")
            }
        }
        // The procedure asks for two known journeys before a read counts as fully verified.
        if journeys.count < Self.journeysNeeded {
            out.append("the reference lists \(journeys.count) journey\(journeys.count == 1 ? "" : "s"); full verification needs \(Self.journeysNeeded)")
        }
        return out
    }

    package static let journeysNeeded = 2
}

extension Reference.Journey {
    /// `currency`: the card's, in which amounts are said (`S$1.28`, as the table prints them).
    package func matches(_ t: CardReading.TransactionRecord, currency: String = "") -> Bool { differences(t, currency: currency).isEmpty }

    /// Each field this journey gives that `t` does not match, with both values ("time 13:46 on
    /// the reference, 13:45 on the card"; amounts in `currency`, "S$1.30"); empty when `t` matches.
    package func differences(_ t: CardReading.TransactionRecord, currency: String = "") -> [String] {
        var out = [String]()
        func differ(_ field: String, _ wanted: String, _ found: String?) {
            out.append("\(field) \(wanted) on the reference, \(found ?? "none") on the card")
        }
        let day = t.date?.day
        if CalendarDay(date) != day { differ("date", date, day?.description) }
        // The transaction's hour and minute on the card's clock.
        if let time {
            let clock = t.date?.clock
            var same = false
            if let c = clock, let wanted = Self.clock(time) { same = wanted == (c.hour, c.minute) }
            if !same { differ("time", time, clock.map { $0.text(seconds: false) }) }
        }
        if let amount, t.amount != amount {
            differ("amount", Self.money(amount, currency), t.amount.map { Self.money($0, currency) })
        }
        if let type, t.type != type { differ("type", type.rawValue, t.type.rawValue) }
        if let entryStation, !Self.station(entryStation, is: [t.entryStation, t.entryStationName, t.entryStationNameEnglish]) {
            differ("entry station", entryStation, t.entryStationName ?? t.entryStation)
        }
        if let exitStation, !Self.station(exitStation, is: [t.exitStation, t.exitStationName, t.exitStationNameEnglish]) {
            differ("exit station", exitStation, t.exitStationName ?? t.exitStation)
        }
        if let busLine, t.metadata[MetadataKey.busLineCode]?.uppercased() != busLine.uppercased() { differ("bus line", busLine, t.metadata[MetadataKey.busLineCode]) }
        if let busStop, t.metadata[MetadataKey.busStopCode]?.uppercased() != busStop.uppercased() { differ("bus stop", busStop, t.metadata[MetadataKey.busStopCode]) }
        return out
    }

    /// A reference station given as the hex code or, when a station table named it, by its name
    /// in either language (case-insensitive).
    package static func station(_ given: String, is known: [String?]) -> Bool {
        known.contains { $0?.lowercased() == given.lowercased() }
    }

    /// `HH:MM`, 00:00 to 23:59, as hour and minute.
    package static func clock(_ text: String) -> (Int, Int)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard text.utf8.count == 5, parts.count == 2, parts.allSatisfy({ $0.utf8.allSatisfy { (0x30 ... 0x39).contains($0) } }),
              let h = Int(parts[0]), let m = Int(parts[1]), h < 24, m < 60 else { return nil }
        return (h, m)
    }

    /// An amount in minor units as the text table says it (`S$1.28`, `¥160`); bare without a currency.
    package static func money(_ minor: UInt64, _ currency: String) -> String {
        currency.isEmpty ? "\(minor)" : Money.format(Int64(clamping: minor), currency)
    }

    package func describe(currency: String = "") -> String {
        [date, time, amount.map { "amount \(Self.money($0, currency))" }, entryStation.map { "from \($0)" }, exitStation.map { "to \($0)" },
         busLine.map { "bus line \($0)" }, busStop.map { "stop \($0)" }].compactMap { $0 }.joined(separator: " ")
    }
}

/// Why a reference cannot be used (without the file's name, which `load` adds).
package struct ReferenceProblem: Error {
    package let text: String
    package init(_ text: String) { self.text = text }

    package static func refuseUnknown<K: CodingKey & CaseIterable>(_ keys: Dictionary<String, Any>.Keys, _: K.Type, in place: String) throws {
        let known = Set(K.allCases.map(\.stringValue))
        if let unknown = keys.sorted().first(where: { !known.contains($0) }) {
            throw ReferenceProblem("unknown key \"\(TerminalText.excerpt(unknown))\" in \(place) (known: \(known.sorted().joined(separator: ", ")))")
        }
    }
}

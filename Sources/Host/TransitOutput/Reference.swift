import CardProtocol
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
        do { data = try BoundedFile.read(path, limit: fileLimit) } catch { throw TransitError(.config, L10n.Words(error: error)) }
        do {
            return try parse(data)
        } catch let problem as ReferenceProblem {
            throw TransitError(.config, L10n.words("%1$s: %2$s (docs/verify.md)", .init(path), problem.words))
        } catch {
            throw TransitError(.config, L10n.words("%1$s is not a verification reference: %2$s (docs/verify.md)", .init(path), shape.problem(error, in: data)))
        }
    }

    /// What each key of a reference holds, said when a file holds something else.
    package static let shape = JSONShape(expected: [
        "balance": L10n.mark("a whole number of minor units, as scan --json prints it (897 for S$8.97, 2010 for ¥2,010)"),
        "amount": L10n.mark("a whole number of minor units, as scan --json prints it (128 for S$1.28, 160 for ¥160)"),
        "currency": L10n.mark("an ISO 4217 code as text (\"JPY\", \"SGD\")"),
        "journeys": L10n.mark("a list of journeys, each an object with at least \"date\""),
        "date": L10n.mark("a date as text, \"YYYY-MM-DD\""),
        "time": L10n.mark("a time as text, \"HH:MM\""),
        "type": L10n.mark("trip, topup, purchase or unknown"),
        "entryStation": L10n.mark("a station code or name as text"), "exitStation": L10n.mark("a station code or name as text"),
        "busLine": L10n.mark("a bus line code as text"), "busStop": L10n.mark("a bus stop code as text"),
    ], entryNames: ["journeys": L10n.mark("journey")])

    /// Decodes a reference and refuses what the decoder lets through: keys it does not know (a
    /// misspelt field would silently check nothing), dates and times that are not real.
    package static func parse(_ data: Data) throws -> Reference {
        let reference = try JSONDecoder().decode(Reference.self, from: data)
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        try ReferenceProblem.refuseUnknown(object.keys, CodingKeys.self, in: L10n.words("the reference"))
        for (i, journey) in (object["journeys"] as? [Any] ?? []).enumerated() {
            try ReferenceProblem.refuseUnknown((journey as? [String: Any] ?? [:]).keys, Journey.CodingKeys.self, in: Self.journey(i))
        }
        for (i, journey) in reference.journeys.enumerated() {
            guard CalendarDay(journey.date) != nil else {
                throw ReferenceProblem(L10n.words("%1$s: date \"%2$s\" is not a real YYYY-MM-DD date", Self.journey(i), .init(TerminalText.excerpt(journey.date))))
            }
            if let time = journey.time, Reference.Journey.clock(time) == nil {
                throw ReferenceProblem(L10n.words("%1$s: time \"%2$s\" is not a real HH:MM time", Self.journey(i), .init(TerminalText.excerpt(time))))
            }
        }
        return reference
    }

    /// "journey 3": the reference's journeys counted from 1.
    private static func journey(_ i: Int) -> L10n.Words { L10n.words("journey %1$s", .init(String(i + 1))) }

    /// Each way the read differs from the reference, in English (`verify --json`); empty when it is fully verified.
    package func mismatches(_ r: CardReading) -> [String] { mismatchWords(r).map(\.english) }

    /// `mismatches` in English and in the chosen language.
    package func mismatchWords(_ r: CardReading) -> [L10n.Words] {
        var out = [L10n.Words]()
        if r.balance != balance {
            out.append(L10n.words("balance: the card holds %1$s, the reference %2$s",
                                  r.balance.map { .init(Money.format($0, r.currency)) } ?? L10n.words("no stored value"), .init(Money.format(balance, r.currency))))
        }
        if let currency, currency != r.currency { out.append(L10n.words("currency: the card uses %1$s, the reference %2$s", .init(r.currency), .init(currency))) }
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
            // TRANSLATORS: a journey of the reference and what it gives ("journey 1 (2026-11-05 amount ¥170): ").
            let head = L10n.words("%1$s (%2$s): ", Self.journey(i), j.describeWords(currency: r.currency))
            if let nearest = sameDay.map({ j.differenceWords(r.transactions[$0], currency: r.currency) }).min(by: { $0.count < $1.count }) {
                out.append(head + nearest.joined(separator: .init("; ")))
            } else {
                out.append(head + L10n.words("no transaction of the card is on %1$s", .init(j.date)))
            }
        }
        // The procedure asks for two known journeys before a read counts as fully verified.
        if journeys.count < Self.journeysNeeded {
            out.append(L10n.wordsn("the reference lists %1$s journey; full verification needs %2$s", "the reference lists %1$s journeys; full verification needs %2$s",
                                   journeys.count, .init(String(journeys.count)), .init(String(Self.journeysNeeded))))
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
        differenceWords(t, currency: currency).map(\.english)
    }

    /// `differences` in English and in the chosen language.
    package func differenceWords(_ t: CardReading.TransactionRecord, currency: String = "") -> [L10n.Words] {
        var out = [L10n.Words]()
        func differ(_ field: L10n.Words, _ wanted: String, _ found: String?) {
            // TRANSLATORS: %1$s is the field ("time"), %2$s the reference's value, %3$s the card's ("time 13:46 on the reference, 13:45 on the card").
            out.append(L10n.words("%1$s %2$s on the reference, %3$s on the card", field, .init(wanted), found.map(L10n.Words.init) ?? L10n.words("none")))
        }
        let day = t.date?.day
        // TRANSLATORS: the fields verify compares.
        if CalendarDay(date) != day { differ(L10n.words("date"), date, day?.description) }
        // The transaction's hour and minute on the card's clock.
        if let time {
            let clock = t.date?.clock
            var same = false
            if let c = clock, let wanted = Self.clock(time) { same = wanted == (c.hour, c.minute) }
            if !same { differ(L10n.words("time"), time, clock.map { $0.text(seconds: false) }) }
        }
        if let amount, t.amount != amount {
            differ(L10n.words("amount"), Self.money(amount, currency), t.amount.map { Self.money($0, currency) })
        }
        if let type, t.type != type { differ(L10n.words("type"), type.rawValue, t.type.rawValue) }
        if let entryStation, !Self.station(entryStation, is: [t.entryStation, t.entryStationName, t.entryStationNameEnglish]) {
            differ(L10n.words("entry station"), entryStation, t.entryStationName ?? t.entryStation)
        }
        if let exitStation, !Self.station(exitStation, is: [t.exitStation, t.exitStationName, t.exitStationNameEnglish]) {
            differ(L10n.words("exit station"), exitStation, t.exitStationName ?? t.exitStation)
        }
        if let busLine, t.metadata[MetadataKey.busLineCode]?.uppercased() != busLine.uppercased() {
            differ(L10n.words("bus line"), busLine, t.metadata[MetadataKey.busLineCode])
        }
        if let busStop, t.metadata[MetadataKey.busStopCode]?.uppercased() != busStop.uppercased() {
            differ(L10n.words("bus stop"), busStop, t.metadata[MetadataKey.busStopCode])
        }
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

    package func describe(currency: String = "") -> String { describeWords(currency: currency).english }

    /// `describe` in English and in the chosen language: "2026-11-20 13:45 amount ¥160 from E33B".
    package func describeWords(currency: String = "") -> L10n.Words {
        let parts: [L10n.Words?] = [.init(date), time.map(L10n.Words.init), amount.map { L10n.words("amount %1$s", .init(Self.money($0, currency))) },
                                    entryStation.map { L10n.words("from %1$s", .init($0)) }, exitStation.map { L10n.words("to %1$s", .init($0)) },
                                    busLine.map { L10n.words("bus line %1$s", .init($0)) }, busStop.map { L10n.words("stop %1$s", .init($0)) }]
        return parts.compactMap { $0 }.joined(separator: .init(" "))
    }
}

/// Why a reference cannot be used (without the file's name, which `load` adds).
package struct ReferenceProblem: Error {
    package let words: L10n.Words
    package var text: String { words.english }
    package init(_ words: L10n.Words) { self.words = words }

    package static func refuseUnknown<K: CodingKey & CaseIterable>(_ keys: Dictionary<String, Any>.Keys, _: K.Type, in place: L10n.Words) throws {
        let known = Set(K.allCases.map(\.stringValue))
        if let unknown = keys.sorted().first(where: { !known.contains($0) }) {
            throw ReferenceProblem(L10n.words("unknown key \"%1$s\" in %2$s (known: %3$s)", .init(TerminalText.excerpt(unknown)), place,
                                              .init(known.sorted().joined(separator: ", "))))
        }
    }
}

import TransitModel

/// What a reading must be, whoever made it: the result builder checks a plugin's reading with
/// these rules, and the host checks again the reading a plugin worker sends (a plugin could write
/// to the worker's pipe itself). Dates, days and types are checked by their types as they are
/// decoded; these are the rest.
package enum ResultRules {
    /// The longest string a reading holds (a field, a metadata key or value, a station code, a
    /// record's raw bytes in hex): far past any card's, short of filling the archive.
    package static let maxText = 4096
    /// Metadata entries of the card, or of one record.
    package static let maxMetadata = 64
    /// Records of one reading (cards keep at most a few dozen).
    package static let maxTransactions = 4096
    /// Passes of one reading (a Calypso card has four contract slots, a few dozen at most).
    package static let maxPasses = 64

    /// What breaks the rules, or nil.
    package static func problem(in r: CardReading) -> String? {
        guard !r.serialNumber.isEmpty else { return "an empty serialNumber" }
        guard !r.family.isEmpty else { return "an empty family" }
        guard ISO4217.isCurrency(r.currency) else { return "currency \(String(r.currency.prefix(16))), not an ISO 4217 code" }
        guard r.transactions.count <= maxTransactions else { return "\(r.transactions.count) records, more than \(maxTransactions)" }
        if let why = textProblem([r.family, r.serialNumber, r.cardName], r.metadata) { return why }
        for (i, t) in r.transactions.enumerated() {
            guard t.entryStationName == nil, t.exitStationName == nil, t.entryStationNameEnglish == nil, t.exitStationNameEnglish == nil else {
                return "record \(i + 1) names its stations (names come from the user's tables)"
            }
            if let why = textProblem([t.entryStation, t.exitStation, t.rawType, t.rawPayload], t.metadata) { return "record \(i + 1): \(why)" }
        }
        guard r.passes.count <= maxPasses else { return "\(r.passes.count) passes, more than \(maxPasses)" }
        for (i, p) in r.passes.enumerated() {
            guard !p.tariff.isEmpty else { return "pass \(i + 1) with no tariff" }
            if let why = textProblem([p.name, p.tariff, p.zones], p.metadata) { return "pass \(i + 1): \(why)" }
        }
        return nil
    }

    private static func textProblem(_ texts: [String?], _ metadata: [String: String]) -> String? {
        guard metadata.count <= maxMetadata else { return "\(metadata.count) metadata entries, more than \(maxMetadata)" }
        let all = texts.compactMap { $0 } + metadata.keys + metadata.values
        if let long = all.first(where: { $0.utf8.count > maxText }) { return "a string of \(long.utf8.count) bytes, more than \(maxText)" }
        return nil
    }
}

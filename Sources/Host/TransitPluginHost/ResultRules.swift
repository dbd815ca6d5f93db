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
    package static func problem(in r: CardReading) -> L10n.Words? {
        guard !r.serialNumber.isEmpty else { return L10n.words("an empty serialNumber") }
        guard !r.family.isEmpty else { return L10n.words("an empty family") }
        guard ISO4217.isCurrency(r.currency) else { return L10n.words("currency %1$s, not an ISO 4217 code", .init(String(r.currency.prefix(16)))) }
        guard r.transactions.count <= maxTransactions else {
            return L10n.words("%1$s records, more than %2$s", .init(String(r.transactions.count)), .init(String(maxTransactions)))
        }
        if let why = textProblem([r.family, r.serialNumber, r.cardName], r.metadata) { return why }
        for (i, t) in r.transactions.enumerated() {
            guard t.entryStationName == nil, t.exitStationName == nil, t.entryStationNameEnglish == nil, t.exitStationNameEnglish == nil else {
                return L10n.words("record %1$s names its stations (names come from the user's tables)", .init(String(i + 1)))
            }
            if let why = textProblem([t.entryStation, t.exitStation, t.rawType, t.rawPayload], t.metadata) {
                return L10n.words("record %1$s: %2$s", .init(String(i + 1)), why)
            }
        }
        guard r.passes.count <= maxPasses else { return L10n.words("%1$s passes, more than %2$s", .init(String(r.passes.count)), .init(String(maxPasses))) }
        for (i, p) in r.passes.enumerated() {
            guard !p.tariff.isEmpty else { return L10n.words("pass %1$s with no tariff", .init(String(i + 1))) }
            if let why = textProblem([p.name, p.tariff, p.zones], p.metadata) { return L10n.words("pass %1$s: %2$s", .init(String(i + 1)), why) }
        }
        return nil
    }

    private static func textProblem(_ texts: [String?], _ metadata: [String: String]) -> L10n.Words? {
        guard metadata.count <= maxMetadata else {
            return L10n.words("%1$s metadata entries, more than %2$s", .init(String(metadata.count)), .init(String(maxMetadata)))
        }
        let all = texts.compactMap { $0 } + metadata.keys + metadata.values
        if let long = all.first(where: { $0.utf8.count > maxText }) {
            return L10n.words("a string of %1$s bytes, more than %2$s", .init(String(long.utf8.count)), .init(String(maxText)))
        }
        return nil
    }
}

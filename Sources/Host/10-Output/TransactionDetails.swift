import CardProtocol
import TransitModel
/// The details column of a record in words: stations (by name when a table holds them), bus line
/// and stop, events, points; regions, raw amounts, raw types and payloads only when verbose.
/// Plugin strings are escaped.
package enum TransactionDetails {
    /// Metadata said elsewhere (stations) or only when verbose.
    private static let stationKeys: Set<String> = ["entryLine", "exitLine", "entryOperator", "exitOperator"]
    private static let verboseKeys: Set<String> = [MetadataKey.entryRegion, MetadataKey.exitRegion, MetadataKey.usageAmount, MetadataKey.chargeAmount, MetadataKey.sequence,
                                                    MetadataKey.network]

    /// `stations` false leaves the stations out (the CSV export has columns of its own for them).
    package static func text(_ t: CardReading.TransactionRecord, style: TextOutput.Style, stations: Bool = true) -> String {
        let e = TerminalText.escape
        var parts = [String]()
        let entry = (stations ? t.entryStation : nil).map { station(code: $0, name: t.entryStationName, english: t.entryStationNameEnglish,
                                                 unnamed: t.entryStationUnnamed, line: t.metadata["entryLine"], operator: t.metadata["entryOperator"], style) }
        if let entry {
            if let exitCode = t.exitStation {
                let sameLine = t.metadata["exitLine"] == t.metadata["entryLine"] && t.metadata["exitOperator"] == t.metadata["entryOperator"]
                parts.append("\(entry) → " + station(code: exitCode, name: t.exitStationName, english: t.exitStationNameEnglish,
                                                     unnamed: t.exitStationUnnamed, line: sameLine ? nil : t.metadata["exitLine"],
                                                     operator: sameLine ? nil : t.metadata["exitOperator"], style))
            } else {
                // TRANSLATORS: a record at one station or terminal (a top-up at 0101).
                parts.append(style.say("at %1$s", entry))
            }
        }
        var metadata = t.metadata
        if let line = metadata.removeValue(forKey: MetadataKey.busLineCode) {
            parts.append(metadata.removeValue(forKey: MetadataKey.busStopCode).map { style.say("bus line %1$s, stop %2$s", e(line), e($0)) }
                ?? style.say("bus line %1$s", e(line)))
        }
        if let stop = metadata.removeValue(forKey: MetadataKey.busStopCode) { parts.append(style.say("bus stop %1$s", e(stop))) }
        if let event = metadata.removeValue(forKey: MetadataKey.event) { parts.append(e(event)) }
        if let data = metadata.removeValue(forKey: MetadataKey.userData) { parts.append(e(data)) }
        // A record of a type no plugin names: its data is shown, and said to be of a kind transit does not know.
        if t.type == .unknown, let raw = t.rawType, !style.verbose {
            let said = style.say("(record type %1$s, not one transit knows)", e(raw))
            if parts.isEmpty { parts.append(said) } else { parts[parts.count - 1] += " " + said }
        }
        for key in stationKeys { metadata.removeValue(forKey: key) }
        if style.verbose {
            let entryRegion = metadata.removeValue(forKey: MetadataKey.entryRegion), exitRegion = metadata.removeValue(forKey: MetadataKey.exitRegion)
            if let entryRegion { parts.append("region \(e(entryRegion))" + (exitRegion.map { " → \(e($0))" } ?? "")) }
        }
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) where style.verbose || !verboseKeys.contains(key) {
            parts.append("\(e(words(key).joined(separator: " "))) \(e(value))")
        }
        if style.verbose {
            if let raw = t.rawType { parts.append("raw type \(e(raw))") }
            if let payload = t.rawPayload { parts.append("raw \(e(payload))") }
        }
        return parts.joined(separator: ", ")
    }

    /// `Shinjuku (JR East Yamanote)`, or the code when the table has no name for it, with why when
    /// tables were looked in (`E33B (region 3: not in your tables)`).
    package static func station(code: String, name: String?, english: String?, unnamed: String? = nil, line: String?, operator op: String?,
                        _ style: TextOutput.Style) -> String {
        let e = TerminalText.escape
        guard let name else { return e(code) + (unnamed.map { " (\(e($0)))" } ?? "") }
        let shown = (style.englishNames ? english : nil) ?? name
        let lineText = [op, line].compactMap { $0 }.filter { !$0.isEmpty }.map(e).joined(separator: " ")
        return e(shown) + (lineText.isEmpty ? "" : " (\(lineText))") + (style.verbose ? " [\(e(code))]" : "")
    }

    /// A camelCase key as lowercase words: `busLineCode` → `bus`, `line`, `code`.
    package static func words(_ key: String) -> [String] {
        var out = [String](), current = ""
        for ch in key {
            if ch.isUppercase, !current.isEmpty { out.append(current); current = "" }
            current.append(Character(ch.lowercased()))
        }
        if !current.isEmpty { out.append(current) }
        return out
    }
}

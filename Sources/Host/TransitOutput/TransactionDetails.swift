import CardProtocol
import TransitModel
/// The details column of a record in words: stations (by name when a table holds them), bus line
/// and stop, events, points; regions, raw amounts, raw types and payloads only when verbose.
/// Plugin strings are escaped.
package enum TransactionDetails {
    /// Metadata said only when verbose.
    private static let verboseKeys: Set<String> = [MetadataKey.entryRegion, MetadataKey.exitRegion, MetadataKey.usageAmount, MetadataKey.chargeAmount, MetadataKey.sequence,
                                                    MetadataKey.network]

    /// The metadata keys `text` never shows without --verbose: what a listing need not read. The
    /// regions and network stay when station tables will be looked in (`naming`): they scope the codes.
    package static func unsaid(naming: Bool) -> [String] {
        let scoping: Set<String> = [MetadataKey.entryRegion, MetadataKey.exitRegion, MetadataKey.network]
        return verboseKeys.filter { !naming || !scoping.contains($0) }.sorted()
    }

    /// `stations` false leaves the stations out (the CSV export has columns of its own for them).
    package static func text(_ t: CardReading.TransactionRecord, style: TextOutput.Style, stations: Bool = true) -> String {
        let e = TerminalText.escape
        // The metadata looked through once (a history has 10,000 rows): the keys said in words of
        // their own picked out, the rest kept in key order.
        var entryLine: String?, entryOperator: String?, exitLine: String?, exitOperator: String?
        var busLine: String?, busStop: String?, event: String?, userData: String?, entryRegion: String?, exitRegion: String?
        var rest = [(key: String, value: String)]()
        for (key, value) in t.metadata {
            switch key {
            case "entryLine": entryLine = value
            case "entryOperator": entryOperator = value
            case "exitLine": exitLine = value
            case "exitOperator": exitOperator = value
            case MetadataKey.busLineCode: busLine = value
            case MetadataKey.busStopCode: busStop = value
            case MetadataKey.event: event = value
            case MetadataKey.userData: userData = value
            // Regions are said (with --verbose) before the rest, or not at all.
            case MetadataKey.entryRegion: entryRegion = value
            case MetadataKey.exitRegion: exitRegion = value
            default: if style.verbose || !verboseKeys.contains(key) { rest.append((key, value)) }
            }
        }
        // The parts joined by ", " (、 in Japanese) as they come (a short text stays in the string itself: no array a row).
        var text = ""
        // TRANSLATORS: between the parts of a record's details ("at 0101, route 14").
        let comma = style.say(", ")
        func add(_ part: String) {
            if !text.isEmpty { text += comma }
            text += part
        }
        // Why a code has no name (`StationNaming`), in the style's words: the region or network it was looked up by.
        func unnamed(_ why: String?, region: String?) -> String? {
            guard why != nil else { return nil }
            if let network = t.metadata[MetadataKey.network] { return style.say("network %1$s: not in your tables", network) }
            return region.map { style.say("region %1$s: not in your tables", $0) } ?? style.say("no region on the record: not in your tables")
        }
        let entry = (stations ? t.entryStation : nil).map { station(code: $0, name: t.entryStationName, english: t.entryStationNameEnglish,
                                                 unnamed: unnamed(t.entryStationUnnamed, region: entryRegion), line: entryLine, operator: entryOperator, style) }
        if let entry {
            if let exitCode = t.exitStation {
                let sameLine = exitLine == entryLine && exitOperator == entryOperator
                add("\(entry) → " + station(code: exitCode, name: t.exitStationName, english: t.exitStationNameEnglish,
                                                     unnamed: unnamed(t.exitStationUnnamed, region: exitRegion), line: sameLine ? nil : exitLine,
                                                     operator: sameLine ? nil : exitOperator, style))
            } else {
                // TRANSLATORS: a record at one station or terminal (a top-up at 0101).
                add(style.say("at %1$s", entry))
            }
        }
        if let busLine {
            add(busStop.map { style.say("bus line %1$s, stop %2$s", e(busLine), e($0)) } ?? style.say("bus line %1$s", e(busLine)))
        } else if let busStop {
            add(style.say("bus stop %1$s", e(busStop)))
        }
        if let event { add(e(eventWords(event, style))) }
        if let userData { add(e(userData)) }
        // A record of a type no plugin names: its data is shown, and said to be of a kind transit does not know.
        if t.type == .unknown, let raw = t.rawType, !style.verbose {
            let said = style.say("(record type %1$s, not one transit knows)", e(raw))
            if text.isEmpty { text = said } else { text += " " + said }
        }
        if style.verbose, let entryRegion {
            add(style.say("region %1$s", e(entryRegion)) + (exitRegion.map { " → \(e($0))" } ?? ""))
        }
        for (key, value) in rest.sorted(by: { $0.key < $1.key }) {
            add("\(e(words(key).joined(separator: " "))) \(e(style.plugin(value)))")
        }
        if style.verbose {
            if let raw = t.rawType { add(style.say("raw type %1$s", e(raw))) }
            if let payload = t.rawPayload { add(style.say("raw %1$s", e(payload))) }
        }
        return text
    }

    /// A record's event as a person reads it: the ABI's own (TRANSIT_EVENT_*) in the host's
    /// catalog, any other in the family's (`TextOutput.Style.plugin`); as written in a machine format.
    package static func eventWords(_ event: String, _ style: TextOutput.Style) -> String {
        switch event {
        // TRANSLATORS: a top-up the card made itself at the gate (オートチャージ).
        case MetadataKey.autoChargeEvent: return style.say("auto-charge")
        // TRANSLATORS: a top-up that gave money back (払戻し).
        case MetadataKey.refundEvent: return style.say("refund")
        default: return style.plugin(event)
        }
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
        // ASCII keys (every plugin's): split and lowered by their bytes.
        if key.utf8.allSatisfy({ $0 < 0x80 }) {
            var out = [String](), current = [UInt8]()
            for b in key.utf8 {
                if (0x41 ... 0x5A).contains(b), !current.isEmpty { out.append(String(decoding: current, as: UTF8.self)); current = [] }
                current.append((0x41 ... 0x5A).contains(b) ? b + 0x20 : b)
            }
            if !current.isEmpty { out.append(String(decoding: current, as: UTF8.self)) }
            return out
        }
        var out = [String](), current = ""
        for ch in key {
            if ch.isUppercase, !current.isEmpty { out.append(current); current = "" }
            current.append(Character(ch.lowercased()))
        }
        if !current.isEmpty { out.append(current) }
        return out
    }
}

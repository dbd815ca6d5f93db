import CardProtocol
import TransitModel
/// Station names for a reading, from the user's tables, in one place, for every family with a
/// station scheme (the host knows no family): records whose station codes (two bytes, line and
/// station) carry their region (`entryRegion`/`exitRegion`, the area of the lookup key: Japan
/// IC), or that name their `network` (TRANSIT_META_NETWORK: a Calypso location id, looked up by
/// network and id). Codes stay as they are, names and lines are added. `scan`, `history`,
/// `export` (CSV and ledger) and every `report` format name stations through here.
package enum StationNaming {
    /// True when the reading has a station code with its region or network: only then is a table loaded.
    /// Each record's fields read in place (a history of 10,000 records without a region is looked
    /// through whole: no copy of a record, no key path).
    package static func needsTable(_ r: CardReading) -> Bool {
        for i in r.transactions.indices {
            let hasEntry = r.transactions[i].entryStation != nil, hasExit = r.transactions[i].exitStation != nil
            guard hasEntry || hasExit, !r.transactions[i].metadata.isEmpty else { continue }
            let metadata = r.transactions[i].metadata
            if metadata[MetadataKey.network] != nil || hasEntry && metadata[MetadataKey.entryRegion] != nil
                || hasExit && metadata[MetadataKey.exitRegion] != nil { return true }
        }
        return false
    }

    /// The reading with names added where the library's tables hold the codes.
    package static func named(_ r: CardReading, _ library: StationLibrary) throws -> CardReading {
        guard needsTable(r) else { return r }
        let table = try library.table()
        return table.count == 0 ? r : apply(table, to: r)
    }

    package static func apply(_ table: StationTable, to reading: CardReading) -> CardReading {
        var r = reading
        for i in r.transactions.indices {
            for end in End.both { name(end, of: &r.transactions[i], table) }
        }
        return r
    }

    /// One end of a record, entry or exit: where its code, its region and what naming it adds are kept.
    private struct End {
        let station: KeyPath<CardReading.TransactionRecord, String?>
        let name: WritableKeyPath<CardReading.TransactionRecord, String?>
        let englishName: WritableKeyPath<CardReading.TransactionRecord, String?>
        let unnamed: WritableKeyPath<CardReading.TransactionRecord, String?>
        /// Metadata keys: the code's region, and the line and operator a name comes with.
        let region: String, line: String, operatorName: String

        static var entry: End { End(station: \.entryStation, name: \.entryStationName, englishName: \.entryStationNameEnglish,
                                      unnamed: \.entryStationUnnamed, region: MetadataKey.entryRegion, line: "entryLine", operatorName: "entryOperator") }
        static var exit: End { End(station: \.exitStation, name: \.exitStationName, englishName: \.exitStationNameEnglish,
                                     unnamed: \.exitStationUnnamed, region: MetadataKey.exitRegion, line: "exitLine", operatorName: "exitOperator") }
        static var both: [End] { [entry, exit] }
    }

    /// Names one end of `t` from the table, or says why it stays unnamed when it has a code.
    private static func name(_ end: End, of t: inout CardReading.TransactionRecord, _ table: StationTable) {
        let network = t.metadata[MetadataKey.network]
        if let s = station(t[keyPath: end.station], region: t.metadata[end.region], network: network, on: t.date?.day, table) {
            t[keyPath: end.name] = s.name
            t[keyPath: end.englishName] = s.englishName
            t.metadata[end.line] = s.line
            t.metadata[end.operatorName] = s.operatorName
        } else if t[keyPath: end.station] != nil {
            t[keyPath: end.unnamed] = unnamed(region: t.metadata[end.region], network: network)
        }
    }

    /// Why the tables name no station for a code: the key is area + line + station, and the area
    /// is the record's region (or its network), so a code named for one may be missing for another.
    private static func unnamed(region: String?, network: String?) -> String {
        if let network { return "network \(network): not in your tables" }
        return region.map { "region \($0): not in your tables" } ?? "no region on the record: not in your tables"
    }

    /// `E33B` with region `2`: area 2, line E3, station 3B; `0A2C` of network `250901`: area
    /// 0x250901, line 0A, station 2C (a network's table keys its locations so).
    private static func station(_ code: String?, region: String?, network: String?, on date: CalendarDay?, _ table: StationTable) -> StationTable.Station? {
        guard let code, code.utf8.count == 4, let line = Int(code.prefix(2), radix: 16), let number = Int(code.suffix(2), radix: 16) else { return nil }
        if let network {
            guard (1 ... 6).contains(network.utf8.count), let area = Int(network, radix: 16) else { return nil }
            return table.station(area: area, line: line, code: number, on: date)
        }
        guard let region, let area = Int(region) else { return nil }
        return table.station(area: area, line: line, code: number, on: date)
    }
}

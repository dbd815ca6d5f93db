import TransitModel
/// Station names for a reading, from the user's tables, in one place: a reading whose family is
/// `japan-ic` and whose records carry station codes (two bytes, line and station) with their
/// region (`entryRegion`/`exitRegion`, the area of the lookup key). The host knows no family
/// beyond this key on what the reading says; codes stay as they are, names and lines are added.
package enum StationNaming {
    /// True when the reading has a station code with its region: only then is a table loaded.
    package static func needsTable(_ r: CardReading) -> Bool {
        r.family == "japan-ic" && r.transactions.contains { t in
            (t.entryStation != nil && t.metadata["entryRegion"] != nil) || (t.exitStation != nil && t.metadata["exitRegion"] != nil)
        }
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
            var t = r.transactions[i]
            let date = t.date?.day
            if let s = station(t.entryStation, region: t.metadata["entryRegion"], on: date, table) {
                t.entryStationName = s.name
                t.entryStationNameEnglish = s.englishName
                t.metadata["entryLine"] = s.line
                t.metadata["entryOperator"] = s.operatorName
            } else if t.entryStation != nil {
                t.entryStationUnnamed = unnamed(region: t.metadata["entryRegion"])
            }
            if let s = station(t.exitStation, region: t.metadata["exitRegion"], on: date, table) {
                t.exitStationName = s.name
                t.exitStationNameEnglish = s.englishName
                t.metadata["exitLine"] = s.line
                t.metadata["exitOperator"] = s.operatorName
            } else if t.exitStation != nil {
                t.exitStationUnnamed = unnamed(region: t.metadata["exitRegion"])
            }
            r.transactions[i] = t
        }
        return r
    }

    /// Why the tables name no station for a code: the key is area + line + station, and the area
    /// is the record's region, so a code named for one region may be missing for another.
    private static func unnamed(region: String?) -> String {
        region.map { "region \($0): not in your tables" } ?? "no region on the record: not in your tables"
    }

    /// `E33B` with region `2`: area 2, line E3, station 3B.
    private static func station(_ code: String?, region: String?, on date: CalendarDay?, _ table: StationTable) -> StationTable.Station? {
        guard let code, code.utf8.count == 4, let region, let area = Int(region),
              let line = Int(code.prefix(2), radix: 16), let number = Int(code.suffix(2), radix: 16) else { return nil }
        return table.station(area: area, line: line, code: number, on: date)
    }
}

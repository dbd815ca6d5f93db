import TransitModel
/// Parses a station table: `area,line,station,operator,line_name,station_name[,station_name_en]
/// [,valid_from,valid_until]`, codes in hex (`E3`), UTF-8, `#` comments and blank lines allowed.
/// A first line whose area is not hex is a header: its column names then place the optional
/// columns (`station_name_en`, `valid_from`, `valid_until`), and any other column — the notes of
/// the StationCode CSVs — is ignored. Without a header the optional columns are positional.
/// One pass over the bytes; a malformed line is skipped and named (file and line), the file's
/// other lines still serve.
///
/// A table of a network's locations (Calypso cards: Navigo, KorriGo…) has the header
/// `network,location,station_name[,station_name_en][,line_name][,operator][,valid_from,valid_until]`:
/// the network as the card gives it (6 hex digits, `250901`), the location id as transit shows it
/// (up to 4 hex digits). Its rows name the records whose `network` metadata is that network.
package enum StationCSV {
    package struct Columns {
        package var english: Int? = 6
        package var validFrom: Int? = 7
        package var validUntil: Int? = 8
        /// The network form's columns (nil: the area,line,station form).
        package var network: Int?, location: Int?, name: Int?, lineName: Int?, operatorName: Int?

        package init() {}

        package init(header: [String]) {
            let names = header.map { $0.lowercased() }
            english = names.firstIndex { ["station_name_en", "stationname_en", "name_en", "english"].contains($0) }
            validFrom = names.firstIndex { ["valid_from", "validfrom", "from"].contains($0) }
            validUntil = names.firstIndex { ["valid_until", "validuntil", "until"].contains($0) }
            if let n = names.firstIndex(of: "network"), let l = names.firstIndex(of: "location"),
               let s = names.firstIndex(where: { ["station_name", "name", "station"].contains($0) }) {
                network = n; location = l; name = s
                lineName = names.firstIndex { ["line_name", "line", "route"].contains($0) }
                operatorName = names.firstIndex { ["operator", "operator_name"].contains($0) }
            }
        }

        /// The fields of a network-form row: area (the network), line and code (the location's
        /// two bytes), the operator, line and station names; nil when the row is not of that form.
        func networkRow(_ fields: [String]) -> (area: Int, line: Int, code: Int, operatorName: String, lineName: String, name: String)? {
            guard let network, let location, let name, network < fields.count, location < fields.count, name < fields.count,
                  (1 ... 6).contains(fields[network].utf8.count), let area = Int(fields[network], radix: 16), area >= 0,
                  (1 ... 4).contains(fields[location].utf8.count), let id = Int(fields[location], radix: 16), id >= 0,
                  !fields[name].isEmpty else { return nil }
            func text(_ i: Int?) -> String { i.flatMap { $0 < fields.count ? fields[$0] : nil } ?? "" }
            return (area, id >> 8, id & 0xFF, text(operatorName), text(lineName), fields[name])
        }
    }

    /// Parses the file into `table`; returns what a user should hear of it: the lines skipped as
    /// malformed, and codes given two names by rows without validity dates (the first row wins,
    /// the other is never used).
    @discardableResult
    package static func parse(_ bytes: [UInt8], file: String, into table: inout StationTable) throws -> [String] {
        try parseSaying(bytes, file: file, into: &table).map(\.english)
    }

    /// `parse`, its notes in English and in the chosen language.
    package static func parseSaying(_ bytes: [UInt8], file: String, into table: inout StationTable) throws -> [L10n.Words] {
        var columns = Columns()
        /// The first open row of each code in this file, and the codes a later open row renames.
        var firstOpen = [Int: (line: Int, name: String)]()
        var renamed = [(code: String, first: Int, other: Int)]()
        var lineNumber = 0
        var seenData = false
        var skipped = [L10n.Words]()
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0 // a UTF-8 byte-order mark
        while start <= bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            lineNumber += 1
            var last = end
            if last > start, bytes[last - 1] == 0x0D { last -= 1 }
            let line = bytes[start ..< last]
            start = end + 1
            let firstVisible = line.first { $0 != 0x20 && $0 != 0x09 }
            guard let firstVisible, firstVisible != 0x23 else { continue } // blank or # comment
            func fail(_ why: L10n.Words) -> TransitError { TransitError(.config, L10n.Words("\(file):\(lineNumber): ") + why) }
            guard let fields = Self.fields(line) else { skipped.append(fail(L10n.words("a quoted field is not closed")).words); continue }
            if !seenData, fields.first.map(Self.hex) == .some(nil) {
                columns = Columns(header: fields)
                seenData = true
                continue
            }
            seenData = true
            // One data row into the table; a malformed one is skipped, named by file and line.
            do {
                // Names go into every read's output and the archive: no control character, no runaway length.
                for (i, field) in fields.enumerated() {
                    if field.unicodeScalars.contains(where: TerminalText.isControl) {
                        throw fail(L10n.words("column %1$s holds a control character", .init(String(i + 1))))
                    }
                    if field.utf8.count > Self.maxFieldBytes {
                        throw fail(L10n.words("column %1$s is %2$s bytes long; at most %3$s", .init(String(i + 1)), .init(String(field.utf8.count)),
                                              .init(String(Self.maxFieldBytes))))
                    }
                }
                func optional(_ i: Int?) -> String? {
                    guard let i, i < fields.count, !fields[i].isEmpty else { return nil }
                    return fields[i]
                }
                func day(_ i: Int?) throws -> CalendarDay? {
                    guard let text = optional(i) else { return nil }
                    guard let day = CalendarDay(text) else { throw fail(L10n.words("validity \"%1$s\" is not a YYYY-MM-DD date", .init(text))) }
                    return day
                }
                if columns.network != nil {
                    guard let row = columns.networkRow(fields) else {
                        throw fail(L10n.words("not a network,location,station_name row (network: 6 hex digits, location: up to 4)"))
                    }
                    let from = try day(columns.validFrom), until = try day(columns.validUntil)
                    table.add(.init(operatorName: row.operatorName, line: row.lineName, name: row.name, englishName: optional(columns.english),
                                    validFrom: from, validUntil: until),
                              area: row.area, line: row.line, code: row.code)
                    continue
                }
                guard fields.count >= 6 else {
                    throw fail(L10n.words("%1$s columns; at least 6 are due (area,line,station,operator,line_name,station_name)", .init(String(fields.count))))
                }
                guard let area = hex(fields[0]) else { throw fail(L10n.words("area \"%1$s\" is not a hex code", .init(fields[0]))) }
                guard let lineCode = hex(fields[1]) else { throw fail(L10n.words("line \"%1$s\" is not a hex code of one byte", .init(fields[1]))) }
                guard let code = hex(fields[2]) else { throw fail(L10n.words("station \"%1$s\" is not a hex code of one byte", .init(fields[2]))) }
                guard !fields[5].isEmpty else { throw fail(L10n.words("the station name is empty")) }
                let from = try day(columns.validFrom), until = try day(columns.validUntil)
                table.add(.init(operatorName: fields[3], line: fields[4], name: fields[5], englishName: optional(columns.english),
                                validFrom: from, validUntil: until),
                          area: area, line: lineCode, code: code)
                if from == nil, until == nil {
                    let key = StationTable.key(area: area, line: lineCode, station: code)
                    if let first = firstOpen[key] {
                        if first.name != fields[5] { renamed.append((String(format: "%X %02X %02X", area, lineCode, code), first.line, lineNumber)) }
                    } else {
                        firstOpen[key] = (lineNumber, fields[5])
                    }
                }
            } catch let e as TransitError {
                skipped.append(e.words)
            }
        }
        var notes = [L10n.Words]()
        if !skipped.isEmpty {
            let listed = Array(skipped.prefix(5)).joined(separator: .init("; ")) + .init(skipped.count > 5 ? "; …" : "")
            notes.append(L10n.wordsn("%1$s malformed line skipped, the file's other lines used: %2$s",
                                     "%1$s malformed lines skipped, the file's other lines used: %2$s", skipped.count, .init(String(skipped.count)), listed))
        }
        guard !renamed.isEmpty else { return notes }
        let shown = renamed.prefix(5).map { L10n.words("%1$s (lines %2$s and %3$s)", .init($0.code), .init(String($0.first)), .init(String($0.other))) }
            .joined(separator: .init(", ")) + .init(renamed.count > 5 ? ", …" : "")
        return notes + [L10n.Words("\(file): ") + L10n.wordsn("""
            %1$s code has two names and no validity dates: %2$s; the first row of each is used (give rows valid_from/valid_until to tell them apart)
            """, """
            %1$s codes have two names and no validity dates: %2$s; the first row of each is used (give rows valid_from/valid_until to tell them apart)
            """, renamed.count, .init(String(renamed.count)), shown)]
    }

    /// The longest field (an operator, line or station name): longer than any station's name.
    package static let maxFieldBytes = 256

    /// A code of one byte in hex (`E3`, `0`), or nil.
    package static func hex(_ s: String) -> Int? {
        guard (1 ... 2).contains(s.utf8.count), let v = Int(s, radix: 16), v >= 0 else { return nil }
        return v
    }

    /// The line's comma-separated fields, trimmed; `"…"` quotes a field (`""` is a quote inside).
    /// Nil when a quote is left open. Unquoted fields are cut from the line without copying.
    package static func fields(_ line: ArraySlice<UInt8>) -> [String]? {
        var out = [String]()
        out.reserveCapacity(10)
        var i = line.startIndex
        while true {
            var start = i
            while start < line.endIndex, line[start] == 0x20 || line[start] == 0x09 { start += 1 }
            if start < line.endIndex, line[start] == 0x22 {
                var field = [UInt8]()
                var j = start + 1
                var closed = false
                while j < line.endIndex {
                    if line[j] == 0x22 {
                        if j + 1 < line.endIndex, line[j + 1] == 0x22 { field.append(0x22); j += 2; continue }
                        closed = true
                        j += 1
                        break
                    }
                    field.append(line[j])
                    j += 1
                }
                guard closed else { return nil }
                while j < line.endIndex, line[j] != 0x2C { j += 1 } // anything after the closing quote is dropped
                out.append(String(decoding: field, as: UTF8.self))
                i = j
            } else {
                var end = start
                while end < line.endIndex, line[end] != 0x2C { end += 1 }
                i = end
                while end > start, line[end - 1] == 0x20 || line[end - 1] == 0x09 { end -= 1 }
                out.append(String(decoding: line[start ..< end], as: UTF8.self))
            }
            guard i < line.endIndex else { return out }
            i += 1 // past the comma
        }
    }
}

import CardProtocol
import Foundation
import TransitModel

/// `transit report --format ofx`: an OFX 2.2 bank statement per card, for GnuCash, KMyMoney,
/// HomeBank and Moneydance. The card is an account (`BANKID` TRANSIT, `ACCTID` its number, a
/// checking account: money kept and spent), each row a `STMTTRN`: `TRNAMT` in the currency's
/// units (yen whole, S$ with cents), negative for trips and purchases, positive for top-ups;
/// `DTPOSTED` the record's time in the card's zone, or noon UTC for a record with a date only (so
/// no importer's zone moves it to another day); `FITID` the card's family and number and a hash
/// of the record's identity in the archive, the same on every run, so importing twice adds
/// nothing (twins, records of one card with the same identity, take `-2`, `-3` in the file's
/// order: two overlapping periods may number them differently). `DTSTART` and `DTEND` are the
/// period's first and last days in the card's zone. `LEDGERBAL` is the card's last balance, as
/// of its last read; the server time is that read's too, so the same archive gives the same file.
package enum OFXStatement {
    package static func render(_ reports: [CardReport], names: (CardReading.TransactionRecord) -> String) -> String {
        let lastRead = reports.compactMap(\.card.lastRead).max()
        var out = """
            <?xml version="1.0" encoding="UTF-8" standalone="no"?>
            <?OFX OFXHEADER="200" VERSION="220" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>
            <OFX>
            <SIGNONMSGSRSV1><SONRS><STATUS><CODE>0</CODE><SEVERITY>INFO</SEVERITY></STATUS>\
            <DTSERVER>\(lastRead.map(readTime) ?? "19700101000000.000[0:GMT]")</DTSERVER><LANGUAGE>ENG</LANGUAGE></SONRS></SIGNONMSGSRSV1>
            <BANKMSGSRSV1>

            """
        var used = Set<String>()
        for (index, report) in reports.enumerated() {
            out += statement(report, transaction: index + 1, used: &used, names: names)
        }
        return out + "</BANKMSGSRSV1>\n</OFX>\n"
    }

    private static func statement(_ r: CardReport, transaction: Int, used: inout Set<String>,
                                  names: (CardReading.TransactionRecord) -> String) -> String {
        let c = r.card
        var out = "<STMTTRNRS><TRNUID>\(transaction)</TRNUID><STATUS><CODE>0</CODE><SEVERITY>INFO</SEVERITY></STATUS>\n"
            + "<STMTRS><CURDEF>\(text(c.currency, limit: 3))</CURDEF>"
            + "<BANKACCTFROM><BANKID>TRANSIT</BANKID><ACCTID>\(text(accountID(c.serial), limit: 22))</ACCTID><ACCTTYPE>CHECKING</ACCTTYPE></BANKACCTFROM>\n"
            + "<BANKTRANLIST><DTSTART>\(start(r))</DTSTART><DTEND>\(end(r))</DTEND>\n"
        for row in r.rows {
            let t = row.record
            guard let date = t.date else { continue }
            var fitid = "\(c.family)-\(c.serial)-\(fnv1a(row.identity))"
            var n = 2
            while used.contains(fitid) { fitid = "\(c.family)-\(c.serial)-\(fnv1a(row.identity))-\(n)"; n += 1 }
            used.insert(fitid)
            let amount = t.amount.map { Int64(clamping: $0) } ?? 0
            let signed = t.type.direction == .deducted ? -amount : t.type.direction == .added ? amount : 0
            // An amount the card does not tell moves no money either way: OTHER, as the README says.
            let kind = t.amount == nil ? "OTHER" : t.type.direction == .deducted ? "DEBIT" : t.type.direction == .added ? "CREDIT" : "OTHER"
            let name = names(t)
            var memo = name
            if t.amount == nil { memo += " (amount not known)" } else if t.type.direction == .unstated { memo += " (amount \(Money.format(amount, c.currency)), direction not known)" }
            out += "<STMTTRN><TRNTYPE>\(kind)</TRNTYPE><DTPOSTED>\(posted(date))</DTPOSTED>"
                + "<TRNAMT>\(Money.decimal(signed, c.currency))</TRNAMT><FITID>\(text(fitid, limit: 255))</FITID>"
                + "<NAME>\(text(name, limit: 32))</NAME><MEMO>\(text(memo, limit: 255))</MEMO></STMTTRN>\n"
        }
        out += "</BANKTRANLIST>\n"
        out += "<LEDGERBAL><BALAMT>\(Money.decimal(c.lastBalance ?? 0, c.currency))</BALAMT>"
            + "<DTASOF>\(c.lastRead.map(readTime) ?? day(r.period.to))</DTASOF></LEDGERBAL>\n"
        return out + "</STMTRS></STMTTRNRS>\n"
    }

    /// `20261105` for a day.
    private static func day(_ d: CalendarDay) -> String { d.description.replacingOccurrences(of: "-", with: "") }

    /// The record's time in its zone (`20261104134500.000[+9]`), or noon UTC of its day.
    private static func posted(_ d: CardDate) -> String {
        guard let clock = d.clock else { return day(d.day) + "120000.000[0:GMT]" }
        return day(d.day) + clock.text(seconds: true).replacingOccurrences(of: ":", with: "") + ".000[\(zone(clock.utcOffsetMinutes))]"
    }

    /// The statement's first and last moments: the period's first day from 00:00 and its last day
    /// to 23:59:59 in the card's zone, the zone its timed records are dated in (UTC when none has
    /// a time: a record with a date only is posted at noon UTC, inside its day in any zone within
    /// ±11 hours), so a record of 00:20 on the first day lies inside, and one of the day before
    /// outside. Both are written in one zone (issue 37: DTSTART `[+9]` with DTEND `[+0]` read as a
    /// mistake): records of several zones widen the period, which starts in the easternmost and ends
    /// at the westernmost's 23:59:59, said in the easternmost's zone.
    private static func start(_ r: CardReport) -> String {
        day(r.period.from) + "000000.000[\(zone(offsets(r).max() ?? 0))]"
    }

    private static func end(_ r: CardReport) -> String {
        let offsets = offsets(r)
        let (east, west) = (offsets.max() ?? 0, offsets.min() ?? 0)
        let to = r.period.to
        let seconds = Gregorian.daysFromUnixEpoch(year: to.year, month: to.month, day: to.day) * 86400 + 86399 + (east - west) * 60
        let civil = Gregorian.civil(fromDays: seconds / 86400)
        let inDay = seconds % 86400
        let clock = [inDay / 3600, inDay / 60 % 60, inDay % 60].map { ($0 < 10 ? "0" : "") + String($0) }.joined()
        let last = CalendarDay(year: civil.year, month: civil.month, day: civil.day).map(day) ?? day(to)
        return last + clock + ".000[\(zone(east))]"
    }

    /// The UTC offset, in minutes, of each record with a time of day.
    private static func offsets(_ r: CardReport) -> [Int] { r.rows.compactMap { $0.record.date?.clock?.utcOffsetMinutes } }

    /// A UTC offset as OFX writes it: `+9`, `-3.30`, `+0`.
    private static func zone(_ offsetMinutes: Int) -> String {
        let minutes = abs(offsetMinutes) % 60
        return (offsetMinutes < 0 ? "-" : "+") + String(abs(offsetMinutes) / 60) + (minutes == 0 ? "" : "." + (minutes < 10 ? "0" : "") + String(minutes))
    }

    /// An archive read time (`2026-11-05T07:30:00.123Z`) as OFX writes UTC.
    private static func readTime(_ iso: String) -> String {
        let digits = iso.filter(\.isNumber)
        guard digits.count >= 17 else { return "19700101000000.000[0:GMT]" }
        return String(digits.prefix(14)) + "." + String(digits.dropFirst(14).prefix(3)) + "[0:GMT]"
    }

    /// The number as the account (OFX allows 22 characters: a longer one keeps its last 22).
    private static func accountID(_ serial: String) -> String { String(serial.suffix(22)) }

    /// XML text: composed (NFC: a decomposed station table's text is as long again in code
    /// points), control characters shown escaped and what XML 1.0 forbids replaced (`MarkupText`),
    /// then at most `limit` Unicode code points — the unit OFX's lengths count, as ofxtools checks
    /// them (`len()` of the unescaped text: ofxtools/Types.py `String.enforce_length`) — cut at a
    /// word with an ellipsis (`cut`), and `&`, `<`, `>` as the references OFX 2.3 names.
    static func text(_ s: String, limit: Int) -> String {
        let safe = MarkupText.xmlCharacters(TerminalText.escape(s.precomposedStringWithCanonicalMapping))
        return MarkupText.escape(cut(safe, limit: limit), quotes: false)
    }

    /// `s` in at most `limit` code points: whole when it fits; else the longest run of whole
    /// characters (a base never parted from its combining marks) that leaves room for "…", taken
    /// back to the last space when one lies in its second half, so no word is cut in two.
    static func cut(_ s: String, limit: Int) -> String {
        guard s.unicodeScalars.count > limit else { return s }
        guard limit > 1 else { return limit == 1 ? "…" : "" }
        var end = s.startIndex, used = 0, lastSpace: String.Index?
        while end < s.endIndex {
            let next = s.index(after: end)
            let width = s[end ..< next].unicodeScalars.count
            guard used + width <= limit - 1 else { break }
            if s[end].isWhitespace { lastSpace = end }
            used += width
            end = next
        }
        if let lastSpace, s.distance(from: s.startIndex, to: lastSpace) * 2 >= s.distance(from: s.startIndex, to: end) { end = lastSpace }
        var head = s[..<end]
        while let last = head.last, last.isWhitespace || last == "→" || last == "-" || last == ":" || last == "," { head = head.dropLast() }
        return String(head) + "…"
    }

    /// FNV-1a, 64 bits, as 16 hex digits: a short, stable name for an identity of any length.
    static func fnv1a(_ s: String) -> String {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in s.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        let hex = String(h, radix: 16, uppercase: true)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

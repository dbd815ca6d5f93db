import Foundation
import TransitModel

/// The date-time column of the text table: `YYYY-MM-DD` or `YYYY-MM-DD HH:MM` (`:SS` when a record
/// has seconds), in the card's own zone, which the column title names once (`Date (UTC+09:00)`)
/// when every timed record shares it; a record in another zone keeps its offset. In Japanese
/// (`L10n.language`), `2026/11/05 13:45`, as ticket machines and SFCard Viewer print it.
package struct DateColumn {
    package let title: String
    private let zone: Int?
    private let seconds: Bool

    package init(_ dates: [CardDate?]) {
        let clocks = dates.compactMap { $0?.clock }
        let zones = Set(clocks.map(\.utcOffsetMinutes))
        zone = zones.count == 1 ? zones.first : nil
        seconds = clocks.contains { $0.second != 0 }
        // TRANSLATORS: the date column's title, with the card's zone ("UTC+09:00").
        title = zone.flatMap { _ in clocks.first }.map { L10n.tr("Date (%1$s)", "UTC" + $0.offsetText) } ?? L10n.tr("Date")
    }

    /// A day as the language writes it in a table: `2026-11-05`, `2026/11/05` in Japanese.
    package static func day(_ d: CalendarDay) -> String {
        L10n.language == "ja" ? d.description.replacingOccurrences(of: "-", with: "/") : d.description
    }

    /// A day as the language writes it in prose (a report's heading): `2026-11-05`, 2026年11月5日 in Japanese.
    package static func longDay(_ d: CalendarDay) -> String {
        L10n.language == "ja" ? "\(d.year)年\(d.month)月\(d.day)日" : d.description
    }

    /// A period, first and last day, as a heading says it: `2026-11-01 to 2026-11-30`, 2026年11月1日〜2026年11月30日.
    package static func period(_ from: CalendarDay, _ to: CalendarDay) -> String {
        // TRANSLATORS: a period, its first and last day ("2026-11-01 to 2026-11-30").
        L10n.tr("%1$s to %2$s", longDay(from), longDay(to))
    }

    /// A time of this machine's clock, `2026-12-01 13:45`, as a table writes it (`2026/12/01 13:45` in Japanese).
    package static func localized(_ stamp: String) -> String {
        L10n.language == "ja" && stamp.utf8.count >= 10 ? stamp.prefix(10).replacingOccurrences(of: "-", with: "/") + stamp.dropFirst(10) : stamp
    }

    /// The record's date, or `(no date)`.
    package func text(_ date: CardDate?) -> String {
        guard let date else { return L10n.tr("(no date)") }
        guard let clock = date.clock else { return Self.day(date.day) }
        return "\(Self.day(date.day)) \(clock.text(seconds: seconds))" + (clock.utcOffsetMinutes == zone ? "" : " \(clock.offsetText)")
    }
}

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

    /// The record's date, or `(no date)`.
    package func text(_ date: CardDate?) -> String {
        guard let date else { return L10n.tr("(no date)") }
        guard let clock = date.clock else { return Self.day(date.day) }
        return "\(Self.day(date.day)) \(clock.text(seconds: seconds))" + (clock.utcOffsetMinutes == zone ? "" : " \(clock.offsetText)")
    }
}

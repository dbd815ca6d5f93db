import TransitModel

/// The date-time column of the text table: `YYYY-MM-DD` or `YYYY-MM-DD HH:MM` (`:SS` when a record
/// has seconds), in the card's own zone, which the column title names once (`Date (UTC+09:00)`)
/// when every timed record shares it; a record in another zone keeps its offset.
package struct DateColumn {
    package let title: String
    private let zone: Int?
    private let seconds: Bool

    package init(_ dates: [CardDate?]) {
        let clocks = dates.compactMap { $0?.clock }
        let zones = Set(clocks.map(\.utcOffsetMinutes))
        zone = zones.count == 1 ? zones.first : nil
        seconds = clocks.contains { $0.second != 0 }
        title = zone.flatMap { _ in clocks.first }.map { "Date (UTC\($0.offsetText))" } ?? "Date"
    }

    /// The record's date, or `(no date)`.
    package func text(_ date: CardDate?) -> String {
        guard let date else { return "(no date)" }
        guard let clock = date.clock else { return date.day.description }
        return "\(date.day) \(clock.text(seconds: seconds))" + (clock.utcOffsetMinutes == zone ? "" : " \(clock.offsetText)")
    }
}

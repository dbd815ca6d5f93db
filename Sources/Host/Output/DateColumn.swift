/// The date-time column of the text table: `YYYY-MM-DD` or `YYYY-MM-DD HH:MM` (`:SS` when a record
/// has seconds), in the card's own zone, which the column title names once (`Date (UTC+09:00)`)
/// when every timed record shares it; a record in another zone keeps its offset.
struct DateColumn {
    let title: String
    private let zone: String?
    private let seconds: Bool

    init(_ dates: [String?]) {
        let timed = dates.compactMap { $0 }.filter { $0.count > 10 }
        let zones = Set(timed.map { String($0.suffix(6)) })
        zone = zones.count == 1 ? zones.first : nil
        seconds = timed.contains { $0.count >= 19 && !$0.dropFirst(17).hasPrefix("00") }
        title = zone.map { "Date (UTC\($0))" } ?? "Date"
    }

    /// A date as the card holds it (`YYYY-MM-DD` or `YYYY-MM-DDTHH:MM:SS±HH:MM`), or `(no date)`.
    func text(_ date: String?) -> String {
        guard let date else { return "(no date)" }
        let safe = TerminalText.escape(date)
        guard safe.count >= 19, safe.dropFirst(10).hasPrefix("T") else { return safe }
        let day = safe.prefix(10), clock = safe.dropFirst(11).prefix(seconds ? 8 : 5)
        let offset = String(safe.dropFirst(19))
        return "\(day) \(clock)" + (offset == zone || offset.isEmpty ? "" : " \(offset)")
    }
}

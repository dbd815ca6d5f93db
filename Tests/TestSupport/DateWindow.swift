import TransitModel

/// Issue 45's fuzz property: every date a reading shows lies in the years a card can hold
/// (PluginKit's `CivilTime.plausibleYears`, 1980-2100), whatever bytes the card answered.
public enum DateWindow {
    public static let years = 1980 ... 2100

    /// The dates of `reading` outside `years`, as they would be shown.
    public static func outside(_ reading: CardReading?) -> [String] {
        guard let reading else { return [] }
        let days = [reading.validFrom?.description, reading.validUntil?.description]
            + reading.transactions.map { $0.date?.description }
            + reading.passes.flatMap { [$0.validFrom?.description, $0.validUntil?.description] }
        return days.compactMap { $0 }.filter { Int($0.prefix(4)).map { !years.contains($0) } ?? true }
    }
}

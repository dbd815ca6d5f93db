import Foundation
import TransitModel

/// `transit watch`: one line a tap, whatever the reader's name and the plugin's strings hold, with
/// the time of the tap (this machine's clock and zone: a card's own dates are in its zone).
package enum WatchLine {
    /// The tap's line; `nickname` is the card's in the archive, `below` the low-balance threshold.
    package static func text(_ reader: String, _ result: Result<CardReading, TransitError>, json: Bool, at time: Date = Date(),
                             nickname: String? = nil, below: Int64? = nil) -> String {
        struct Line: Encodable { let time: String; let reader: String; let card: FlaggedReading?; let nickname: String?; let error: ErrorJSON? }
        switch result {
        case .success(let r):
            let card = FlaggedReading(r, below: below)
            if json { return JSONOutput.encode(Line(time: stamp(time), reader: reader, card: card, nickname: nickname, error: nil)) }
            let low = card.lowBalance == true ? "  LOW BALANCE: under \(Money.format(below ?? 0, r.currency))" : ""
            return TerminalText.escape("\(local(time)) \(reader): \(r.cardName ?? r.family)\(nickname.map { " “\($0)”" } ?? "") "
                + "\(TextOutput.number(r)) \(TextOutput.balanceWords(r))\(low)")
        case .failure(let e):
            if json { return JSONOutput.encode(Line(time: stamp(time), reader: reader, card: nil, nickname: nil, error: .init(e))) }
            return TerminalText.escape("\(local(time)) \(reader): \(e.kind.reported): \(e.message)")
        }
    }

    /// RFC 3339 with this machine's offset, to the second: `2026-12-01T13:45:02+09:00`.
    package static func stamp(_ time: Date) -> String {
        let f = ISO8601DateFormatter()
        f.timeZone = .current
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: time)
    }

    /// `2026-12-01 13:45:02`, local.
    package static func local(_ time: Date) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = .current
        f.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return f.string(from: time)
    }
}

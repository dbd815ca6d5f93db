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
            let low = card.lowBalance == true ? "  " + L10n.tr("LOW BALANCE: under %1$s", Money.format(below ?? 0, r.currency)) : ""
            // TRANSLATORS: a tap's line: %1$s the time, %2$s the reader, %3$s the card's name, %4$s its nickname in quotes after a space
            // (or nothing), %5$s its number, %6$s its balance, %7$s the low-balance warning or nothing.
            return TerminalText.escape(L10n.tr("%1$s %2$s: %3$s%4$s %5$s %6$s%7$s", DateColumn.localized(local(time)), reader, r.cardName ?? r.family,
                                               nickname.map { " “\($0)”" } ?? "", TextOutput.number(r), TextOutput.balanceWords(r), low))
        case .failure(let e):
            if json { return JSONOutput.encode(Line(time: stamp(time), reader: reader, card: nil, nickname: nil, error: .init(e))) }
            // TRANSLATORS: a tap that failed: %1$s the time, %2$s the reader, %3$s the error's kind (for scripts: "noCard"), %4$s what happened.
            return TerminalText.escape(L10n.tr("%1$s %2$s: %3$s: %4$s", DateColumn.localized(local(time)), reader, e.kind.reported, e.text))
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

import Foundation
import TransitModel

/// `transit watch`: one line a tap, whatever the reader's name and the plugin's strings hold, with
/// the time of the tap (this machine's clock and zone: a card's own dates are in its zone).
package enum WatchLine {
    package static func text(_ reader: String, _ result: Result<CardReading, TransitError>, json: Bool, at time: Date = Date()) -> String {
        struct Line: Encodable { let time: String; let reader: String; let card: CardReading?; let error: ErrorJSON? }
        switch result {
        case .success(let r):
            if json { return JSONOutput.encode(Line(time: stamp(time), reader: reader, card: r, error: nil)) }
            return TerminalText.escape("\(local(time)) \(reader): \(r.cardName ?? r.family) \(TextOutput.number(r)) \(Money.format(r.balance, r.currency))")
        case .failure(let e):
            if json { return JSONOutput.encode(Line(time: stamp(time), reader: reader, card: nil, error: .init(e))) }
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

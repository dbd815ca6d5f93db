import TransitModel

/// `transit watch`: one line a tap, whatever the reader's name and the plugin's strings hold.
package enum WatchLine {
    package static func text(_ reader: String, _ result: Result<CardReading, TransitError>, json: Bool) -> String {
        struct Line: Encodable { let reader: String; let card: CardReading?; let error: ErrorJSON? }
        switch result {
        case .success(let r):
            if json { return JSONOutput.encode(Line(reader: reader, card: r, error: nil)) }
            return TerminalText.escape("\(reader): \(r.cardName ?? r.family) \(TextOutput.number(r)) \(Money.format(r.balance, r.currency))")
        case .failure(let e):
            if json { return JSONOutput.encode(Line(reader: reader, card: nil, error: .init(e))) }
            return TerminalText.escape("\(reader): \(e.kind.reported): \(e.message)")
        }
    }
}

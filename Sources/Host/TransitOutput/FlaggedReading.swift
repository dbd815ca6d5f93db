import TransitModel

/// A reading as `--json` prints it (`scan`, `watch` and what `watch --exec` gets), with what
/// `transit` adds beside the card's own fields: `"lowBalance": true` when the balance is under the
/// threshold of `--below` (or transit.conf's `below`), false when it is not, absent without one
/// (or for a card that holds no stored value).
package struct FlaggedReading: Encodable {
    package let reading: CardReading
    package let lowBalance: Bool?

    package init(_ reading: CardReading, below: Int64?) {
        self.reading = reading
        lowBalance = below.flatMap { threshold in reading.balance.map { $0 < threshold } }
    }

    private enum Keys: String, CodingKey { case lowBalance }

    package func encode(to encoder: Encoder) throws {
        try reading.encode(to: encoder)
        var c = encoder.container(keyedBy: Keys.self)
        try c.encodeIfPresent(lowBalance, forKey: .lowBalance)
    }
}

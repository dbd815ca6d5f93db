import TransitModel

/// Collects what a plugin sets through the ABI's builder calls, checks it against the contract
/// and types it, once: the host after it reads enums, days and amounts, never the ABI's strings.
package final class ResultBuilder {
    private var fields = [String: String]()
    private var validFrom: CalendarDay?, validUntil: CalendarDay?
    private var balance: Int64?
    private var metadata = [String: String]()
    private var transactions = [CardReading.TransactionRecord]()

    package init() {}

    package static let cardFields: Set<String> = ["family", "cardName", "serialNumber", "currency", "validFrom", "validUntil"]
    package static let transactionFields: Set<String> = ["type", "date", "entryStation", "exitStation", "rawType", "rawPayload", "balance"]

    /// False (and nothing stored) when the key is not part of the contract.
    package func setField(_ key: String, _ value: String) -> Bool {
        switch key {
        case "validFrom", "validUntil":
            guard let day = CalendarDay(value) else { return false }
            if key == "validFrom" { validFrom = day } else { validUntil = day }
        case "currency":
            guard ISO4217.isCurrency(value) else { return false }
            fields[key] = value
        default:
            guard Self.cardFields.contains(key) else { return false }
            fields[key] = value
        }
        return true
    }

    package func setBalance(_ value: Int64) { balance = value }

    package func addMetadata(_ key: String, _ value: String) { metadata[key] = value }

    package func beginTransaction() {
        transactions.append(.init())
    }

    package func setTransactionField(_ key: String, _ value: String) -> Bool {
        guard !transactions.isEmpty, Self.transactionFields.contains(key) else { return false }
        let i = transactions.count - 1
        switch key {
        case "type":
            guard let kind = TransactionKind(rawValue: value) else { return false }
            transactions[i].type = kind
        case "date":
            guard let date = CardDate(value) else { return false }
            transactions[i].date = date
        case "entryStation": transactions[i].entryStation = value
        case "exitStation": transactions[i].exitStation = value
        case "rawType": transactions[i].rawType = value
        case "balance":
            guard let balance = Self.signedDecimal(value) else { return false }
            transactions[i].balance = balance
        default: transactions[i].rawPayload = value
        }
        return true
    }

    /// A signed decimal integer as the ABI carries the record's balance: an optional `-`, digits only,
    /// within Int64 (no `+`, no spaces, no empty string).
    package static func signedDecimal(_ value: String) -> Int64? {
        let digits = value.hasPrefix("-") ? value.dropFirst() : Substring(value)
        guard !digits.isEmpty, digits.utf8.count <= 19, digits.utf8.allSatisfy({ (0x30 ... 0x39).contains($0) }) else { return nil }
        return Int64(value)
    }

    package func setTransactionAmount(_ value: UInt64) -> Bool {
        guard !transactions.isEmpty else { return false }
        transactions[transactions.count - 1].amount = value
        return true
    }

    package func addTransactionMetadata(_ key: String, _ value: String) -> Bool {
        guard !transactions.isEmpty else { return false }
        transactions[transactions.count - 1].metadata[key] = value
        return true
    }

    /// The finished reading, or a description of what the plugin left out.
    package func finish(defaultFamily: String) -> Result<CardReading, MissingField> {
        guard let serial = fields["serialNumber"] else { return .failure(MissingField("set no serialNumber")) }
        guard let currency = fields["currency"] else { return .failure(MissingField("set no ISO 4217 currency")) }
        guard let balance else { return .failure(MissingField("set no balance")) }
        let reading = CardReading(family: fields["family"] ?? defaultFamily, cardName: fields["cardName"],
                                    serialNumber: serial, balance: balance, currency: currency,
                                    validFrom: validFrom, validUntil: validUntil,
                                    metadata: metadata, transactions: transactions)
        if let why = ResultRules.problem(in: reading) { return .failure(MissingField("gave \(why)")) }
        return .success(reading)
    }
}

/// What a plugin that reported success left out of its result.
package struct MissingField: Error, CustomStringConvertible {
    package let description: String
    package init(_ d: String) { description = d }
}

/// Collects what a plugin sets through the ABI's builder calls and checks it against the contract.
final class ResultBuilder {
    private var fields = [String: String]()
    private var balance: Int64?
    private var metadata = [String: String]()
    private var transactions = [CardReading.TransactionRecord]()

    static let cardFields: Set<String> = ["family", "cardName", "serialNumber", "currency", "validFrom", "validUntil"]
    static let transactionFields: Set<String> = ["type", "date", "entryStation", "exitStation", "rawType", "rawPayload", "balance"]
    static let transactionTypes: Set<String> = ["trip", "topup", "purchase", "unknown"]

    /// False (and nothing stored) when the key is not part of the contract.
    func setField(_ key: String, _ value: String) -> Bool {
        guard Self.cardFields.contains(key) else { return false }
        if key == "validFrom" || key == "validUntil", !CalendarCheck.isDate(value) { return false }
        if key == "currency", !CalendarCheck.isCurrency(value) { return false }
        fields[key] = value
        return true
    }

    func setBalance(_ value: Int64) { balance = value }

    func addMetadata(_ key: String, _ value: String) { metadata[key] = value }

    func beginTransaction() {
        transactions.append(.init(type: "unknown", amount: nil, date: nil, entryStation: nil, exitStation: nil,
                                  metadata: [:], rawType: nil, rawPayload: nil, balance: nil))
    }

    func setTransactionField(_ key: String, _ value: String) -> Bool {
        guard !transactions.isEmpty, Self.transactionFields.contains(key) else { return false }
        let i = transactions.count - 1
        switch key {
        case "type":
            guard Self.transactionTypes.contains(value) else { return false }
            transactions[i].type = value
        case "date":
            guard CalendarCheck.isDate(value) || CalendarCheck.isDateTime(value) else { return false }
            transactions[i].date = value
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
    static func signedDecimal(_ value: String) -> Int64? {
        let digits = value.hasPrefix("-") ? value.dropFirst() : Substring(value)
        guard !digits.isEmpty, digits.utf8.count <= 19, digits.utf8.allSatisfy({ (0x30 ... 0x39).contains($0) }) else { return nil }
        return Int64(value)
    }

    func setTransactionAmount(_ value: UInt64) -> Bool {
        guard !transactions.isEmpty else { return false }
        transactions[transactions.count - 1].amount = value
        return true
    }

    func addTransactionMetadata(_ key: String, _ value: String) -> Bool {
        guard !transactions.isEmpty else { return false }
        transactions[transactions.count - 1].metadata[key] = value
        return true
    }

    /// The finished reading, or a description of what the plugin left out.
    func finish(defaultFamily: String) -> Result<CardReading, MissingField> {
        guard let serial = fields["serialNumber"] else { return .failure(MissingField("set no serialNumber")) }
        guard let currency = fields["currency"] else { return .failure(MissingField("set no ISO 4217 currency")) }
        guard let balance else { return .failure(MissingField("set no balance")) }
        return .success(CardReading(family: fields["family"] ?? defaultFamily, cardName: fields["cardName"],
                                    serialNumber: serial, balance: balance, currency: currency,
                                    validFrom: fields["validFrom"], validUntil: fields["validUntil"],
                                    metadata: metadata, transactions: transactions))
    }
}

/// What a plugin that reported success left out of its result.
struct MissingField: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

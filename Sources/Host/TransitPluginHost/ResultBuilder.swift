import ReaderABI
import TransitModel

/// Collects what a plugin sets through the ABI's builder calls, checks it against the contract
/// and types it, once: the host after it reads enums, days and amounts, never the ABI's strings.
package final class ResultBuilder {
    private var fields = [String: String]()
    private var validFrom: CalendarDay?, validUntil: CalendarDay?
    private var balance: Int64?
    private var metadata = [String: String]()
    private var transactions = [CardReading.TransactionRecord]()
    private var passes = [CardPass]()
    /// Each pass's tariff was set (a pass must have one).
    private var passHasTariff = [Bool]()

    package init() {}

    package static let cardFields: Set<String> = [TRANSIT_FIELD_FAMILY, TRANSIT_FIELD_CARD_NAME, TRANSIT_FIELD_SERIAL_NUMBER,
                                                  TRANSIT_FIELD_CURRENCY, TRANSIT_FIELD_VALID_FROM, TRANSIT_FIELD_VALID_UNTIL]
    package static let transactionFields: Set<String> = [TRANSIT_TX_TYPE, TRANSIT_TX_DATE, TRANSIT_TX_ENTRY_STATION, TRANSIT_TX_EXIT_STATION,
                                                         TRANSIT_TX_RAW_TYPE, TRANSIT_TX_RAW_PAYLOAD, TRANSIT_TX_BALANCE]

    /// False (and nothing stored) when the key is not part of the contract.
    package func setField(_ key: String, _ value: String) -> Bool {
        switch key {
        case TRANSIT_FIELD_VALID_FROM, TRANSIT_FIELD_VALID_UNTIL:
            guard let day = CalendarDay(value) else { return false }
            if key == TRANSIT_FIELD_VALID_FROM { validFrom = day } else { validUntil = day }
        case TRANSIT_FIELD_CURRENCY:
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
        case TRANSIT_TX_TYPE:
            guard let kind = TransactionKind(rawValue: value) else { return false }
            transactions[i].type = kind
        case TRANSIT_TX_DATE:
            guard let date = CardDate(value) else { return false }
            transactions[i].date = date
        case TRANSIT_TX_ENTRY_STATION: transactions[i].entryStation = value
        case TRANSIT_TX_EXIT_STATION: transactions[i].exitStation = value
        case TRANSIT_TX_RAW_TYPE: transactions[i].rawType = value
        case TRANSIT_TX_BALANCE:
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

    package func beginPass() {
        passes.append(CardPass(tariff: ""))
        passHasTariff.append(false)
    }

    /// False (and nothing stored) when no pass was begun, the key is not a pass field or the value
    /// is not of the field's form.
    package func setPassField(_ key: String, _ value: String) -> Bool {
        guard let i = passes.indices.last else { return false }
        switch key {
        case TRANSIT_PASS_NAME: passes[i].name = value
        case TRANSIT_PASS_TARIFF:
            guard !value.isEmpty else { return false }
            passes[i].tariff = value
            passHasTariff[i] = true
        case TRANSIT_PASS_VALID_FROM, TRANSIT_PASS_VALID_UNTIL:
            guard let date = CardDate(value) else { return false }
            if key == TRANSIT_PASS_VALID_FROM { passes[i].validFrom = date } else { passes[i].validUntil = date }
        case TRANSIT_PASS_REMAINING_TRIPS:
            guard value.utf8.count <= 10, !value.isEmpty, value.utf8.allSatisfy({ (0x30 ... 0x39).contains($0) }),
                  let trips = UInt32(value) else { return false }
            passes[i].remainingTrips = trips
        case TRANSIT_PASS_ZONES: passes[i].zones = value
        case TRANSIT_PASS_STATUS:
            guard let status = CardPass.Status(rawValue: value) else { return false }
            passes[i].status = status
        default: return false
        }
        return true
    }

    package func addPassMetadata(_ key: String, _ value: String) -> Bool {
        guard let i = passes.indices.last else { return false }
        passes[i].metadata[key] = value
        return true
    }

    /// The finished reading, or a description of what the plugin left out. A card without a stored
    /// value sets no balance (release 4).
    package func finish(defaultFamily: String) -> Result<CardReading, MissingField> {
        guard let serial = fields[TRANSIT_FIELD_SERIAL_NUMBER] else { return .failure(MissingField(L10n.words("set no serialNumber"))) }
        guard let currency = fields[TRANSIT_FIELD_CURRENCY] else { return .failure(MissingField(L10n.words("set no ISO 4217 currency"))) }
        if let untitled = passHasTariff.firstIndex(of: false) { return .failure(MissingField(L10n.words("set no tariff on pass %1$s", .init(String(untitled + 1))))) }
        let reading = CardReading(family: fields[TRANSIT_FIELD_FAMILY] ?? defaultFamily, cardName: fields[TRANSIT_FIELD_CARD_NAME],
                                    serialNumber: serial, balance: balance, currency: currency,
                                    validFrom: validFrom, validUntil: validUntil,
                                    metadata: metadata, transactions: transactions, passes: passes)
        if let why = ResultRules.problem(in: reading) { return .failure(MissingField(L10n.words("gave %1$s", why))) }
        return .success(reading)
    }
}

/// What a plugin that reported success left out of its result.
package struct MissingField: SaidError {
    package let words: L10n.Words
    package init(_ words: L10n.Words) { self.words = words }
}

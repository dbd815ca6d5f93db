import CardProtocol
import Foundation
import TransitModel

/// A card's nickname (`transit cards --name CARD NICKNAME`): what its owner calls it, a name for
/// the card on every command that takes one, shown beside it in listings, reports and watch lines.
extension Archive {
    /// The longest nickname, in characters.
    package static let nicknameLimit = 64

    /// Gives `card` the nickname (nil or blank: removes it). Throws a usage error, saying why, for
    /// a nickname that could not name this card alone: one another card has, one that is
    /// another card's number or IDm, one that begins with `#` (an id), or holds a control character.
    package func name(_ card: Card, nickname raw: String?) throws {
        guard writable, schemaVersion >= 4 else { throw TransitError(.config, L10n.words("%1$s: is read-only", .init(path))) }
        let nickname = raw?.trimmingCharacters(in: .whitespacesAndNewlines)
        if let nickname, !nickname.isEmpty {
            guard !nickname.hasPrefix("#") else { throw TransitError(.usage, L10n.words("a nickname cannot begin with # (the cards' ids do)")) }
            guard !nickname.unicodeScalars.contains(where: TerminalText.isControl) else {
                throw TransitError(.usage, L10n.words("a nickname cannot hold a control character"))
            }
            guard nickname.count <= Self.nicknameLimit else { throw TransitError(.usage, L10n.words("a nickname has at most %1$s characters", .init(String(Self.nicknameLimit)))) }
            let others = try cards().filter { $0.id != card.id }
            if let other = others.first(where: { $0.nickname == nickname }) {
                throw TransitError(.usage, L10n.words("%1$s is already called \"%2$s\"", .init(other.handle), .init(nickname)))
            }
            let normal = Self.normalNumber
            if let other = others.first(where: { normal($0.serial) == normal(nickname) || (!$0.idm.isEmpty && normal($0.idm) == normal(nickname)) }) {
                throw TransitError(.usage, L10n.words("\"%1$s\" is the number of %2$s: it would name two cards", .init(nickname), .init(other.handle)))
            }
        }
        try db.transaction {
            try db.prepare("UPDATE cards SET nickname = ? WHERE id = ?").run([.init(nickname?.isEmpty == false ? nickname : nil), .integer(card.id)])
        }
    }

    /// The nickname of the card `reading` was read from (the same family, number and IDm), if any.
    package func nickname(of reading: CardReading) throws -> String? {
        guard schemaVersion >= 4 else { return nil }
        let q = try db.prepare("SELECT nickname FROM cards WHERE family = ? AND serial = ? AND idm = ?")
        try q.bind([.text(reading.family), .text(reading.serialNumber), .text(reading.metadata[MetadataKey.idm] ?? "")])
        defer { q.reset() }
        return try q.step() ? q.text(0) : nil
    }
}

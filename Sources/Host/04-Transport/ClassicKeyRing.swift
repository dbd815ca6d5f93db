import CardProtocol

/// The MIFARE Classic keys a read may try, in the order tried: the user's (`--keys` files, then
/// the keys folder of their config), then those a dump's trailers hold, then the generic keys of
/// blank and transport-configured cards. Keys are secrets: no key's bytes are ever logged,
/// printed, stored in the archive or the log bundle; a key is named by where it came from.
package struct ClassicKeyRing: Codable, Equatable, Sendable {
    /// One 6-byte key and where it came from (`keys.dic line 4`), for log lines that never show it.
    package struct Key: Codable, Equatable, Sendable {
        package let bytes: [UInt8]
        package let source: String
        package init(_ bytes: [UInt8], source: String) { self.bytes = bytes; self.source = source }
    }

    package private(set) var keys: [Key]
    /// The bytes of `keys`, so a key is added in constant time: a user's dictionary may hold
    /// 80,000 keys, and a search of the array for each made loading one take minutes.
    private var held = Set<[UInt8]>()

    package init(_ keys: [Key] = []) { self.keys = [] ; for k in keys { append(k) } }

    /// Only the keys travel (the worker's pipe); `held` is made again from them.
    private enum CodingKeys: String, CodingKey { case keys }

    package init(from decoder: Decoder) throws {
        self.init(try decoder.container(keyedBy: CodingKeys.self).decode([Key].self, forKey: .keys))
    }

    package static func == (a: ClassicKeyRing, b: ClassicKeyRing) -> Bool { a.keys == b.keys }

    /// Adds a key unless the ring already holds its bytes.
    package mutating func append(_ key: Key) {
        guard key.bytes.count == 6, held.insert(key.bytes).inserted else { return }
        keys.append(key)
    }

    /// The ring with `other`'s keys after its own.
    package func adding(_ other: ClassicKeyRing) -> ClassicKeyRing {
        var ring = self
        for k in other.keys { ring.append(k) }
        return ring
    }

    /// The keys every read tries after the user's: the factory key, MAD key A, NFC Forum's key
    /// and the all-zero key, the generic keys Metrodroid ships and nothing else
    /// (Metrodroid src/commonMain/kotlin/au/id/micolous/metrodroid/key/ClassicKeysImpl.kt: "Even
    /// if a transit operator uses (some) fixed keys, please do not add them here!").
    package static let generic = ClassicKeyRing([
        Key([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], source: "the factory key"),
        Key([0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5], source: "the MAD key"),
        Key([0xD3, 0xF7, 0xD3, 0xF7, 0xD3, 0xF7], source: "the NFC Forum key"),
        Key([0x00, 0x00, 0x00, 0x00, 0x00, 0x00], source: "the all-zero key"),
    ])

    /// How many keys the user brought (the generic ones not counted), for the budget and the log.
    package var count: Int { keys.count }
}

/// A channel that knows keys of its own card: a card image or dump whose trailers hold them
/// (`EmulatedChannel`), used for its reads only.
package protocol ClassicKeySource {
    var classicKeys: ClassicKeyRing { get }
}

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

/// What a MIFARE Classic read's log bundle keeps of its keys so `transit replay` asks the same
/// commands without them: how many keys the read held (besides the generic ones), and each key
/// digest check's answer in order (a digest check needs the key itself; its answer does not).
package struct ClassicKeyRecord: Codable, Equatable, Sendable {
    /// One `classic_key_matches` call: the sector, the salt, and whether the key matched (nil: locked).
    package struct Match: Codable, Equatable, Sendable {
        package let sector: Int
        package let salt: String
        package let matched: Bool?
        package init(sector: Int, salt: String, matched: Bool?) { self.sector = sector; self.salt = salt; self.matched = matched }
    }

    package var keyCount: Int
    package var matches: [Match]

    package init(keyCount: Int, matches: [Match] = []) { self.keyCount = keyCount; self.matches = matches }

    /// Stand-ins for the read's keys: as many, distinct, none a generic key. A replay's Load Keys
    /// are recorded without their bytes, so the stand-ins send what the read sent.
    package var standIns: ClassicKeyRing {
        ClassicKeyRing((0 ..< keyCount).map { n in
            .init([0x7E, 0x52, 0x45, 0x50, UInt8(truncatingIfNeeded: n >> 8), UInt8(truncatingIfNeeded: n)], source: "the log's key \(n + 1)")
        })
    }
}

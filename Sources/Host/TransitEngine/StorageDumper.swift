import CardProtocol
import CardSimulation
import TransitModel
import TransitTransport

/// `transit dump` of a MIFARE Classic or Ultralight card: every sector the keys at hand open, or
/// every page up to the card's end, as a card image `--card` and `decode` read back. A Classic
/// trailer holds the key that opened its sector (as Flipper, MCT and Proxmark3 dumps do) only when
/// `withKeys` (a dump written to a private file); on standard output, and for a sector no key
/// opens, its bytes are "??". Access bits are not read (the trailer never is): "??" too.
package struct StorageDumper {
    package let session: CardSession
    package let withKeys: Bool

    package init(session: CardSession, withKeys: Bool) { self.session = session; self.withKeys = withKeys }

    package func dump() throws -> CardImage {
        guard let storage = session.storage else { throw TransitError(.internal, "no storage card to dump") }
        let uid = HexFormat.string(session.uid)
        if session.technology == .mifareUltralight {
            return CardImage(description: "transit dump of \(session.channel.readerName): MIFARE Ultralight pages",
                             mifareUltralight: .init(uid: uid, type: Self.name(session), pages: try pages(storage)))
        }
        var blocks = [String]()
        let unread = String(repeating: "??", count: 16)
        for n in 0 ..< storage.sectorCount {
            let dataBlocks = n < 32 ? 3 : 15
            if let data = try storage.sector(n), data.count == 16 * dataBlocks {
                for b in 0 ..< dataBlocks { blocks.append(HexFormat.string(Array(data[16 * b ..< 16 * (b + 1)]))) }
                let key = withKeys ? storage.openingKey(n) : nil
                let a = key.map { $0.typeB ? "????????????" : HexFormat.string($0.bytes) } ?? "????????????"
                let b = key.map { $0.typeB ? HexFormat.string($0.bytes) : "????????????" } ?? "????????????"
                blocks.append(a + "????????" + b)
            } else {
                blocks += Array(repeating: unread, count: dataBlocks + 1)
            }
        }
        let type = [5: "Mini", 16: "1K", 32: "2K", 40: "4K"][storage.sectorCount] ?? "1K"
        return CardImage(description: "transit dump of \(session.channel.readerName): the sectors the keys at hand open",
                         mifareClassic: .init(uid: uid, type: type, blocks: blocks))
    }

    /// Pages four at a time from page 0 until the card refuses (its end) or 256 pages.
    private func pages(_ storage: StorageCardReader) throws -> [String] {
        var pages = [String]()
        var first = 0
        while first < 256 {
            let data: [UInt8]
            do { data = try storage.pages(first, count: 4) } catch let e as TransitError where e.kind == .cardRefused { break }
            for p in 0 ..< 4 { pages.append(HexFormat.string(Array(data[4 * p ..< 4 * p + 4]))) }
            first += 4
        }
        return pages
    }

    private static func name(_ session: CardSession) -> String? {
        if case .storage(let name) = session.verdict { return name.replacingOccurrences(of: "MIFARE ", with: "") }
        return nil
    }
}

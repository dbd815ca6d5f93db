import CardProtocol
import Foundation
import CardSimulation
import TransitModel
import TransitTransport

/// `--card FILE`: the card image answers in process through the same reader-level APDUs as a real
/// reader, so dialects, plugins, order and fallback run as they do with pcscd.
package final class EmulatedChannel: ReaderChannel, ClassicKeySource {
    package let reader: VirtualReader
    /// The keys a MIFARE Classic dump's trailers hold: used for its reads (issue 42).
    package let classicKeys: ClassicKeyRing
    package let readerName = "Card image"

    /// The card file at `path`, its card `index` (1-based) when it holds several; any problem with
    /// the file (unreadable, too large, not a card file, a card the emulators cannot answer as, a
    /// file of several cards without an index) is a `config` error naming the file; a card of a
    /// technology no family reads (a MIFARE Classic in an export) is `tagNotSupported`.
    package convenience init(cardPath path: String, index: Int? = nil) throws {
        try self.init(file: try Self.load(path), index: index)
    }

    /// Card `index` of a loaded card file.
    package init(file: CardFile, index: Int?) throws {
        let image: CardImage
        do {
            image = try file.card(index: index)
        } catch let e as CardFileTechnologyError {
            throw TransitError(.tagNotSupported, e.words)
        } catch {
            throw TransitError(.config, L10n.Words(error: error)) // names the file
        }
        do { reader = try VirtualReader(image: image) } catch { throw TransitError(.config, L10n.Words("\(file.path): ") + L10n.Words(error: error)) }
        classicKeys = Self.trailerKeys(image)
    }

    /// The card file at `path`; its problems are `config` errors naming it.
    package static func load(_ path: String) throws -> CardFile {
        do { return try CardFile.load(path) } catch { throw TransitError(.config, L10n.Words(error: error)) }
    }

    /// An image built in process (tests); its problems are `CardImageError`s.
    package init(image: CardImage) throws {
        reader = try VirtualReader(image: image)
        classicKeys = Self.trailerKeys(image)
    }

    /// Keys A (bytes 0–5) and B (10–15) of each sector trailer whose bytes the dump holds, each named
    /// by its sector (never by its bytes).
    static func trailerKeys(_ image: CardImage) -> ClassicKeyRing {
        guard let classic = image.mifareClassic else { return ClassicKeyRing() }
        var ring = ClassicKeyRing()
        var sector = 0, block = 0
        while block < classic.blocks.count {
            let size = sector < 32 ? 4 : 16
            let trailer = block + size - 1
            if trailer < classic.blocks.count, let bytes = HexFormat.bytes(classic.blocks[trailer], ignoringSpaces: true), bytes.count == 16 {
                ring.append(.init(Array(bytes[0 ..< 6]), source: "the dump's sector \(sector) key A"))
                ring.append(.init(Array(bytes[10 ..< 16]), source: "the dump's sector \(sector) key B"))
            } else if trailer < classic.blocks.count {
                // A trailer with unread bytes ("??"): each key whose six bytes are all known.
                let text = classic.blocks[trailer].replacingOccurrences(of: " ", with: "")
                for (range, name) in [(0 ..< 12, "A"), (20 ..< 32, "B")] where text.count == 32 {
                    let start = text.index(text.startIndex, offsetBy: range.lowerBound), end = text.index(text.startIndex, offsetBy: range.upperBound)
                    if let key = HexFormat.bytes(String(text[start ..< end])), key.count == 6 {
                        ring.append(.init(key, source: "the dump's sector \(sector) key \(name)"))
                    }
                }
            }
            block += size
            sector += 1
        }
        return ring
    }

    package var atr: [UInt8] { reader.atr }
    /// A card image answers at once, but a read of a huge one (a dump of every block) ends by the
    /// read's deadline as a real card's would.
    package func transmit(_ apdu: [UInt8], by deadline: Deadline) throws(TransitError) -> [UInt8] {
        guard !deadline.hasPassed else { throw TransitError(.communication, L10n.words("the read did not finish within its deadline (the card image was still answering)")) }
        return reader.transmit(apdu)
    }
}

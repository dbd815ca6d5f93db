import CardSimulation

/// `--card FILE`: the card image answers in process through the same reader-level APDUs as a real
/// reader, so dialects, plugins, order and fallback run as they do with pcscd.
final class EmulatedChannel: ReaderChannel {
    let reader: VirtualReader
    let readerName = "Card image"

    /// The card file at `path`; any problem with it (unreadable, too large, not a card image, a
    /// card the emulators cannot answer as) is a `config` error naming the file.
    init(cardPath path: String) throws {
        let image: CardImage
        do { image = try CardImage.load(path) } catch { throw TransitError(.config, "\(error)") } // load names the file
        do { reader = try VirtualReader(image: image) } catch { throw TransitError(.config, "\(path): \(error)") }
    }

    /// An image built in process (tests); its problems are `CardImageError`s.
    init(image: CardImage) throws { reader = try VirtualReader(image: image) }

    var atr: [UInt8] { reader.atr }

    func transmit(_ apdu: [UInt8]) throws -> [UInt8] { reader.transmit(apdu) }
}

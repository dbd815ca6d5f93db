import CardSimulation

/// `--card FILE`: the card image answers in process through the same reader-level APDUs as a real
/// reader, so dialects, plugins, order and fallback run as they do with pcscd.
final class EmulatedChannel: ReaderChannel {
    let reader: VirtualReader
    let readerName = "Card image"

    init(image: CardImage) throws { reader = try VirtualReader(image: image) }

    var atr: [UInt8] { reader.atr }

    func transmit(_ apdu: [UInt8]) throws -> [UInt8] { reader.transmit(apdu) }
}

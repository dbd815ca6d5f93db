/// A card on a reader, at the level of the APDUs a PC/SC application sends to the reader.
/// `PCSCCard` is a real reader; `EmulatedChannel` is a card image in process (`--card`).
protocol ReaderChannel: AnyObject {
    var readerName: String { get }
    var atr: [UInt8] { get }
    /// One APDU to the reader. Throws `TransitError` (sessionLost, communication, cancelled).
    func transmit(_ apdu: [UInt8]) throws -> [UInt8]
}

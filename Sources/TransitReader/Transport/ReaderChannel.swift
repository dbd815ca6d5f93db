import TransitModel
/// A card on a reader, at the level of the APDUs a PC/SC application sends to the reader.
/// `PCSCCard` is a real reader; `EmulatedChannel` is a card image in process (`--card`).
package protocol ReaderChannel: AnyObject {
    var readerName: String { get }
    var atr: [UInt8] { get }
    /// The largest command APDU the reader takes, as its driver reports it (SCARD_ATTR_MAXINPUT);
    /// nil when it does not say.
    var maxCommand: Int? { get }
    /// One APDU to the reader (sessionLost, communication, cancelled, cardReset…).
    func transmit(_ apdu: [UInt8]) throws(TransitError) -> [UInt8]
}

extension ReaderChannel {
    package var maxCommand: Int? { nil }
}

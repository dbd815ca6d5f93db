import Foundation
import TransitModel

/// A card on a reader, at the level of the APDUs a PC/SC application sends to the reader.
/// `PCSCCard` is a real reader; `EmulatedChannel` is a card image in process (`--card`).
package protocol ReaderChannel: AnyObject {
    var readerName: String { get }
    var atr: [UInt8] { get }
    /// The largest command APDU the reader takes, as its driver reports it (SCARD_ATTR_MAXINPUT);
    /// nil when it does not say.
    var maxCommand: Int? { get }
    /// One APDU to the reader (sessionLost, communication, cancelled, cardReset…), ended by
    /// `deadline`, the read's own, even within the reader's exchange timeout: `--read-timeout 5`
    /// ends a read at 5 s, not at 5 s plus the exchange under way.
    func transmit(_ apdu: [UInt8], by deadline: Deadline) throws(TransitError) -> [UInt8]
    /// Card commands the host sent again after a damaged answer, for the log bundle; nil for a
    /// reader whose driver retries unseen (PC/SC).
    var retries: Int? { get }
}

extension ReaderChannel {
    package var maxCommand: Int? { nil }
    package var retries: Int? { nil }
}

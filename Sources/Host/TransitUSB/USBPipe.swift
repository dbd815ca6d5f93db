import Foundation
import TransitModel

/// A reader's two bulk endpoints, as the command layer needs them: `LibUSBDevice` is the real one,
/// the tests script one. Every call ends by its deadline.
package protocol USBPipe: AnyObject {
    /// Sends `bytes` on the OUT endpoint (and the zero-length packet a transfer of whole packets
    /// needs). Throws `communication` when the reader does not take them by `deadline`,
    /// `sessionLost` when it was unplugged.
    func write(_ bytes: [UInt8], deadline: Deadline) throws(TransitError)
    /// One transfer from the IN endpoint, at most `maxLength` bytes: what arrived, empty when
    /// nothing did by `deadline`. Throws as `write` does.
    func read(maxLength: Int, deadline: Deadline) throws(TransitError) -> [UInt8]
    /// The clock its deadlines pass on: the system's for a real reader, a test's for a scripted one
    /// (whose silent reads then cost no real time).
    var clock: MonotonicClock { get }
}

extension USBPipe {
    package var clock: MonotonicClock { SystemClock.shared }
}

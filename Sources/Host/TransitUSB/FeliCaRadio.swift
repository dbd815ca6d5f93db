import TransitModel

/// A USB reader's chip as a FeliCa card's channel needs it (`USBFeliCaChannel`): one frame to the
/// card sensed last and what came back, and a Polling to ask whether it is still there. The
/// RC-S380 (`RCS380`: InCommRF) and the RC-S956 of the RC-S330/360/370 (`RCS956`:
/// InCommunicateThru, InListPassiveTarget) are two; the retries, the presence check and the
/// PC/SC look are the channel's, written once.
package protocol FeliCaRadio: AnyObject {
    /// The clock the chip's waits pass on (a test's for a scripted pipe).
    var clock: MonotonicClock { get }
    /// USB commands sent so far (each one round trip: command, ACK, answer), for tests and the benchmark.
    var commandsSent: Int { get }
    /// One frame (length byte first) to the card and what came back: the card's frame, silence
    /// within `timeout` (the card's), or a radio fault; the USB wait ends by `deadline` too.
    func exchange(_ frame: [UInt8], timeout: Double, deadline: Deadline?) throws(TransitError) -> FeliCaReception
    /// A Polling for any system at `bitRate`, its answer as it came (`FeliCaTarget(polled:bitRate:)` reads it).
    func presencePolling(bitRate: FeliCaBitRate, timeout: Double, deadline: Deadline?) throws(TransitError) -> FeliCaReception
}

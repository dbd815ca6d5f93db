import Foundation
import TransitModel
import TransitUSB
import CardProtocol
import TestSupport

/// A USB pipe that plays a script: each write must be the next expected one, each read gets the
/// next scripted transfer. A read with no transfer scripted next is a silent reader: it waits
/// until its deadline and brings nothing, as a libusb bulk read that times out. It waits on its
/// own `TestClock`, so the wait costs no real time: a test tells elapsed time on `testClock`.
final class ScriptedPipe: USBPipe {
    enum Step { case write([UInt8]), read([UInt8]) }

    private(set) var steps: [Step]
    private(set) var written = [[UInt8]]()
    private(set) var silentReads = 0
    /// Writes that were not the next expected one.
    private(set) var surprises = [String]()
    /// Thrown by every call once set (an unplugged reader).
    var failure: TransitError?
    let testClock = TestClock()
    var clock: MonotonicClock { testClock }

    init(_ steps: [Step] = []) { self.steps = steps }

    func add(_ more: [Step]) { steps += more }

    /// The exchange of one command: its frame, the ACK, the answer.
    static func command(_ host: [UInt8], _ answer: [UInt8]) -> [Step] { [.write(host), .read(USBVectors.ack), .read(answer)] }

    var finished: Bool { steps.isEmpty }

    func write(_ bytes: [UInt8], deadline: Deadline) throws(TransitError) {
        if let failure { throw failure }
        written.append(bytes)
        guard case .write(let expected)? = steps.first else {
            surprises.append("unexpected write \(HexFormat.string(bytes))")
            return
        }
        steps.removeFirst()
        if expected != bytes { surprises.append("wrote \(HexFormat.string(bytes)), expected \(HexFormat.string(expected))") }
    }

    func read(maxLength: Int, deadline: Deadline) throws(TransitError) -> [UInt8] {
        if let failure { throw failure }
        if case .read(let bytes)? = steps.first {
            steps.removeFirst()
            return Array(bytes.prefix(maxLength))
        }
        silentReads += 1
        testClock.sleep(until: deadline)
        return []
    }
}

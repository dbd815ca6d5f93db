import CardProtocol
import Foundation
import TransitModel

/// Port-100 commands over a `USBPipe`: the shared command link (`USBCommandLink`: command out,
/// ACK and answer in, cancel, garbage and drain) with the RC-S380's framing
/// (docs/research/port100.md §"Frames", §"Commands"). A chip that stops answering is sent the
/// ACK to cancel what it was doing, as port100.c's `port100_abort_cmd` does.
package typealias Port100 = USBCommandLink<Port100Frame>

/// The RC-S380's Port-100 frame as the shared command link sees it (its ACK, TFI bytes, `encode`
/// and `decodeFirst` are `Port100Frame`'s own).
extension Port100Frame: USBChipFraming {
    package typealias Command = Port100Command
    package static let frameName = "Port-100"
    // A command other than InCommRF gets the link's `commandTimeout`: nfcpy waits for ever
    // (rcs380.py `send_command`, docs/research/port100.md §"Timeouts"); a chip answers them
    // within milliseconds.
    package static let defaultName = "the RC-S380"
    /// One bulk read asks this much, as nfcpy does (transport.py; docs/research/port100.md §"USB identity"): a 255-byte FeliCa frame
    /// comes back in 272 bytes; a longer frame is read in several transfers.
    package static let readLength = 300
    /// More received and still not a frame is garbage (port100.c takes payloads up to 1001 bytes).
    package static let longestAnswer = 1024 + overhead
    /// An error frame where the ACK belongs is garbage: the chip sends it only for an answer.
    package static let refusesInPlaceOfACK = false
}

extension USBCommandLink where Framing == Port100Frame {
    /// Sends `command` and checks the one status byte it is answered with.
    package func expectSuccess(_ command: Port100Command, _ parameters: [UInt8] = [], deadline: Deadline? = nil) throws(TransitError) {
        let answer = try send(command, parameters, deadline: deadline)
        guard let status = answer.first else { throw garbage(command, "an answer without its status byte") }
        guard answer.count == 1 else { throw garbage(command, "a status of \(answer.count) bytes (not 1)") }
        guard status == Port100Status.success.rawValue else {
            throw TransitError(.communication, "\(name) refused \(command): \(Port100Status.describe(status))")
        }
    }

    /// InCommRF's timeout parameter, in 0.1 ms units, little-endian: (milliseconds + 1) × 10,
    /// at most FFFF, as nfcpy computes it (rcs380.py: 1 s gives `1A 27`, 10 ms `6E 00`,
    /// docs/research/port100.md §"Timeouts", V5). Milliseconds are rounded to the nearest, at least 1.
    package static func inCommRFTimeout(seconds: Double) -> [UInt8] {
        let milliseconds = seconds.isFinite ? max(1, min(0xFFFF, Int((seconds * 1000).rounded()))) : 0xFFFF
        let units = min(0xFFFF, (milliseconds + 1) * 10)
        return [UInt8(units & 0xFF), UInt8(units >> 8)]
    }

    /// Seconds an InCommRF timeout parameter stands for.
    package static func seconds(inCommRFTimeout bytes: [UInt8]) -> Double {
        guard bytes.count >= 2 else { return 0 }
        return Double(Int(bytes[0]) | Int(bytes[1]) << 8) / 10_000
    }
}

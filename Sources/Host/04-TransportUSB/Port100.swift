import CardProtocol
import Foundation
import TransitModel

/// Port-100 commands over a `USBPipe`: a command frame out, the chip's ACK and its answer in,
/// the answer's code checked (docs/research/port100.md §"Frames", §"Commands"). A chip that stops answering is sent the
/// ACK to cancel what it was doing (as port100.c's `port100_abort_cmd` does) and the command ends
/// as `communication` by its deadline; one that answers garbage ends as `communication` too.
/// Counts what it sends, for the benchmark and the tests.
package final class Port100 {
    package let pipe: USBPipe
    /// The pipe's clock: every deadline here is made and told on it.
    package var clock: MonotonicClock { pipe.clock }
    /// The reader, for messages ("the RC-S380/S (USB 1:13)").
    package let name: String
    /// Seconds a command other than InCommRF may take. nfcpy waits for ever (rcs380.py
    /// `send_command`, docs/research/port100.md §"Timeouts"); a chip answers them within milliseconds.
    package var commandTimeout: Double
    /// Port-100 commands sent: each one is an OUT transfer and an ACK and an answer in.
    package private(set) var commandsSent = 0
    /// ACK frames sent: the soft reset at open and each cancel.
    package private(set) var acksSent = 0
    /// Bytes received and not yet decoded.
    private var pending = [UInt8]()
    /// Set after a cancel or garbage: a late answer may still come and is read away first.
    private var unsettled = false

    /// One bulk read asks this much, as nfcpy does (transport.py; docs/research/port100.md §"USB identity"): a 255-byte FeliCa frame
    /// comes back in 272 bytes; a longer frame is read in several transfers.
    package static let readLength = 300
    /// More received and still not a frame is garbage (port100.c takes payloads up to 1001 bytes).
    private static let longestAnswer = 1024 + Port100Frame.overhead
    /// How long a read waits when clearing stale answers (nfcpy drains with 10 ms reads at open).
    private static let drainWait = 0.01

    /// True after a command went unanswered by its deadline, until one is answered again: then a
    /// last command (the field switched off as the reader is let go) is not worth its wait.
    package private(set) var silent = false

    package init(pipe: USBPipe, name: String = "the RC-S380", commandTimeout: Double = 0.5) {
        self.pipe = pipe; self.name = name; self.commandTimeout = commandTimeout
    }

    /// The soft reset nfcpy sends at open: an ACK, then stale answers read away.
    package func reset() throws(TransitError) {
        try pipe.write(Port100Frame.ack, deadline: clock.deadline(in: commandTimeout))
        acksSent += 1
        drain()
    }

    /// An ACK alone: nothing is left under way in the chip (a close, as nfcpy's).
    package func sendACK() throws(TransitError) {
        try pipe.write(Port100Frame.ack, deadline: clock.deadline(in: commandTimeout))
        acksSent += 1
    }

    /// Sends `command` with `parameters` and returns the answer after `D7 <code + 1>`. `deadline`
    /// (default: `commandTimeout` from now) bounds the whole round trip; past it the command is
    /// cancelled and `communication` thrown.
    package func send(_ command: Port100Command, _ parameters: [UInt8] = [], deadline: Deadline? = nil) throws(TransitError) -> [UInt8] {
        if unsettled || !pending.isEmpty { drain() }
        let until = deadline ?? clock.deadline(in: commandTimeout)
        guard let frame = Port100Frame.encode([Port100Frame.hostToChip, command.rawValue] + parameters) else {
            throw TransitError(.internal, "a \(command) of \(parameters.count) bytes does not fit a Port-100 frame")
        }
        do throws(TransitError) {
            try pipe.write(frame, deadline: until)
        } catch {
            unsettled = true
            throw error
        }
        commandsSent += 1
        switch try receive(until) {
        case .ack: break
        case nil: throw cancel(command, until, got: "no ACK")
        case let other?: throw garbage(command, "\(Self.word(other)) where its ACK belongs")
        }
        switch try receive(until) {
        case .data(let data)?:
            silent = false
            guard data.count >= 2, data[0] == Port100Frame.chipToHost, data[1] == command.answerCode else {
                throw garbage(command, "an answer of another command (\(HexFormat.string(Array(data.prefix(2)))))")
            }
            // The answer ends its transfer: bytes after it are no part of any frame the chip sends.
            guard pending.isEmpty else { throw garbage(command, "\(pending.count) bytes after its answer") }
            return Array(data.dropFirst(2))
        case .error?:
            throw TransitError(.communication, "\(name) answered \(command) with an error frame (it did not take the command)")
        case nil: throw cancel(command, until, got: "its ACK and no answer")
        case let other?: throw garbage(command, "\(Self.word(other)) where its answer belongs")
        }
    }

    /// Sends `command` and checks the one status byte it is answered with.
    package func expectSuccess(_ command: Port100Command, _ parameters: [UInt8] = [], deadline: Deadline? = nil) throws(TransitError) {
        let answer = try send(command, parameters, deadline: deadline)
        guard let status = answer.first else { throw garbage(command, "an answer without its status byte") }
        guard answer.count == 1 else { throw garbage(command, "a status of \(answer.count) bytes (not 1)") }
        guard status == Port100Status.success.rawValue else {
            throw TransitError(.communication, "\(name) refused \(command): \(Port100Status.describe(status))")
        }
    }

    /// The next whole frame received; nil when `deadline` passed first. Garbage is thrown.
    private func receive(_ deadline: Deadline) throws(TransitError) -> Port100Frame.Decoded? {
        while true {
            let (frame, used) = Port100Frame.decodeFirst(pending)
            switch frame {
            case .incomplete:
                guard pending.count <= Self.longestAnswer else { throw garbage(nil, "\(pending.count) bytes that do not end a frame") }
            case .invalid(let fault):
                throw garbage(nil, "bytes that are not a Port-100 frame (\(fault.rawValue): \(HexFormat.string(Array(pending.prefix(16)))))")
            default:
                pending.removeFirst(min(used, pending.count))
                return frame
            }
            guard !clock.hasPassed(deadline) else { return nil }
            pending += try pipe.read(maxLength: Self.readLength, deadline: deadline)
        }
    }

    /// Sends the ACK that cancels the command under way; returns the error of a reader that did not answer in time.
    private func cancel(_ command: Port100Command, _ deadline: Deadline, got: String) -> TransitError {
        unsettled = true
        silent = true
        do throws(TransitError) {
            try pipe.write(Port100Frame.ack, deadline: clock.deadline(in: Self.drainWait * 10))
            acksSent += 1
        } catch {} // the reader is not answering anyway: the error below says so
        return TransitError(.communication, "\(name) stopped answering: \(got) to \(command) by its deadline")
    }

    private func garbage(_ command: Port100Command?, _ what: String) -> TransitError {
        unsettled = true
        pending = []
        return TransitError(.communication, "\(name) answered \(command.map { "\($0)" } ?? "a command") with \(what)")
    }

    /// Reads away what a cancelled or confused exchange left: short reads until one brings nothing
    /// (at most 8; a reader that keeps sending is garbage at the next command).
    private func drain() {
        pending = []
        unsettled = false
        for _ in 0 ..< 8 {
            guard let stale = try? pipe.read(maxLength: Self.readLength, deadline: clock.deadline(in: Self.drainWait)),
                  !stale.isEmpty else { return }
        }
    }

    private static func word(_ frame: Port100Frame.Decoded) -> String {
        switch frame {
        case .ack: return "an ACK"
        case .data(let d): return "a data frame (\(HexFormat.string(Array(d.prefix(2)))))"
        case .error: return "an error frame"
        case .incomplete: return "part of a frame"
        case .invalid(let fault): return "garbage (\(fault.rawValue))"
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

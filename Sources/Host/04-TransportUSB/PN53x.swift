import CardProtocol
import Foundation
import TransitModel

/// PN53x commands over a `USBPipe`, as the RC-S956 takes them: a command frame out, the chip's
/// ACK (a transfer of its own) and its answer in, the answer's code checked
/// (docs/research/rcs956-facts.md §2: nfcpy pn53x.py `Chipset.command`, the RC-S330 trace of
/// nfcpy issue #256). A chip that does not answer by the deadline is sent the ACK that cancels
/// the command under way (nfcpy does so on a USB read timeout) and the command ends as
/// `communication`; one that answers garbage ends as `communication` too. Counts what it sends.
package final class PN53x {
    package let pipe: USBPipe
    package var clock: MonotonicClock { pipe.clock }
    /// The reader, for messages ("SONY RC-S330/360/370 (USB 1:13)").
    package let name: String
    /// Seconds a command other than the card's may take: nfcpy gives the chip's own commands
    /// 0.1–0.25 s and InListPassiveTarget 1 s (rcs956-facts.md §4); the margin is ours.
    package var commandTimeout: Double
    /// Commands sent: each an OUT transfer, an ACK and an answer in.
    package private(set) var commandsSent = 0
    /// ACKs sent: the soft reset at open, each cancel, the close.
    package private(set) var acksSent = 0
    /// True after a command went unanswered by its deadline, until one is answered again.
    package private(set) var silent = false
    /// Commands cancelled with an ACK because they went unanswered by their deadline: a caller
    /// tells "no answer came" from the other ways a command fails by this count moving.
    package private(set) var cancels = 0
    private var pending = [UInt8]()
    private var unsettled = false

    /// One bulk read asks this much, as nfcpy's transport does (rcs956-facts.md §2): the largest
    /// answer, 262 bytes of data, comes in an extended frame of 272.
    package static let readLength = 300
    /// The most TFI, command and data one host frame carries (nfcpy rcs956.py
    /// `host_command_frame_max_size = 265`).
    package static let longestCommand = 265
    /// More received and still not a frame is garbage.
    private static let longestAnswer = 262 + 2 + PN53xFrame.extendedOverhead
    /// How long a read waits when clearing stale answers.
    private static let drainWait = 0.01

    package init(pipe: USBPipe, name: String = "the RC-S956", commandTimeout: Double = 0.5) {
        self.pipe = pipe; self.name = name; self.commandTimeout = commandTimeout
    }

    /// The soft reset nfcpy and libnfc send at open: an ACK, then stale answers read away.
    package func reset() throws(TransitError) {
        try sendACK()
        drain()
    }

    /// An ACK alone: nothing is left under way in the chip.
    package func sendACK() throws(TransitError) {
        try pipe.write(PN53xFrame.ack, deadline: clock.deadline(in: commandTimeout))
        acksSent += 1
    }

    /// Sends `command` with `parameters` and returns the answer after `D5 <code + 1>`. `deadline`
    /// (default: `commandTimeout` from now) bounds the whole round trip; past it the command is
    /// cancelled and `communication` thrown.
    package func send(_ command: PN53xCommand, _ parameters: [UInt8] = [], deadline: Deadline? = nil) throws(TransitError) -> [UInt8] {
        if unsettled || !pending.isEmpty { drain() }
        let until = deadline ?? clock.deadline(in: commandTimeout)
        let data = [PN53xFrame.hostToChip, command.rawValue] + parameters
        guard data.count <= Self.longestCommand, let frame = PN53xFrame.encode(data) else {
            throw TransitError(.internal, "a \(command) of \(parameters.count) bytes does not fit the RC-S956's frame")
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
        case nil: throw cancel(command, got: "no ACK")
        case .error?: throw TransitError(.communication, "\(name) answered \(command) with an error frame (it did not take the command)")
        case let other?: throw garbage(command, "\(Self.word(other)) where its ACK belongs")
        }
        switch try receive(until) {
        case .data(let answer)?:
            silent = false
            guard answer.count >= 2, answer[0] == PN53xFrame.chipToHost, answer[1] == command.answerCode else {
                throw garbage(command, "an answer of another command (\(HexFormat.string(Array(answer.prefix(2)))))")
            }
            guard pending.isEmpty else { throw garbage(command, "\(pending.count) bytes after its answer") }
            return Array(answer.dropFirst(2))
        case .error?:
            throw TransitError(.communication, "\(name) answered \(command) with an error frame (it did not take the command)")
        case nil: throw cancel(command, got: "its ACK and no answer")
        case let other?: throw garbage(command, "\(Self.word(other)) where its answer belongs")
        }
    }

    /// The next whole frame received; nil when `deadline` passed first. Garbage is thrown.
    private func receive(_ deadline: Deadline) throws(TransitError) -> PN53xFrame.Decoded? {
        while true {
            let (frame, used) = PN53xFrame.decodeFirst(pending)
            switch frame {
            case .incomplete:
                guard pending.count <= Self.longestAnswer else { throw garbage(nil, "\(pending.count) bytes that do not end a frame") }
            case .invalid(let fault):
                throw garbage(nil, "bytes that are not a PN53x frame (\(fault.rawValue): \(HexFormat.string(Array(pending.prefix(16)))))")
            default:
                pending.removeFirst(min(used, pending.count))
                return frame
            }
            guard !clock.hasPassed(deadline) else { return nil }
            pending += try pipe.read(maxLength: Self.readLength, deadline: deadline)
        }
    }

    /// Sends the ACK that cancels the command under way; returns the error of a chip that did not answer in time.
    private func cancel(_ command: PN53xCommand, got: String) -> TransitError {
        unsettled = true
        silent = true
        cancels += 1
        do throws(TransitError) {
            try pipe.write(PN53xFrame.ack, deadline: clock.deadline(in: Self.drainWait * 10))
            acksSent += 1
        } catch {} // the reader is not answering anyway: the error below says so
        return TransitError(.communication, "\(name) stopped answering: \(got) to \(command) by its deadline")
    }

    private func garbage(_ command: PN53xCommand?, _ what: String) -> TransitError {
        unsettled = true
        pending = []
        return TransitError(.communication, "\(name) answered \(command.map { "\($0)" } ?? "a command") with \(what)")
    }

    /// Reads away what a cancelled or confused exchange left: short reads until one brings nothing (at most 8).
    private func drain() {
        pending = []
        unsettled = false
        for _ in 0 ..< 8 {
            guard let stale = try? pipe.read(maxLength: Self.readLength, deadline: clock.deadline(in: Self.drainWait)),
                  !stale.isEmpty else { return }
        }
    }

    private static func word(_ frame: PN53xFrame.Decoded) -> String {
        switch frame {
        case .ack: return "an ACK"
        case .nak: return "a NAK"
        case .data(let d): return "a data frame (\(HexFormat.string(Array(d.prefix(2)))))"
        case .error: return "an error frame"
        case .incomplete: return "part of a frame"
        case .invalid(let fault): return "garbage (\(fault.rawValue))"
        }
    }
}

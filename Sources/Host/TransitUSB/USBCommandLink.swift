import CardProtocol
import Foundation
import TransitModel

/// What a USB reader's chip frame is found to begin with, whatever the chip: both Sony chips
/// transit drives (Port-100 and the PN53x-family RC-S956) frame their bulk transfers as
/// `00 00 FF …` with an ACK before each answer, and differ in the frame's length field, its TFI
/// bytes and the faults their decoders name (`Fault`, each chip's own).
package enum USBFrame<Fault: RawRepresentable & Equatable & Sendable>: Equatable, Sendable where Fault.RawValue == String {
    /// `00 00 FF 00 FF 00`: the chip took the command.
    case ack
    /// `00 00 FF FF 00 00`: asks for the last frame again (a host's; no chip is known to send it).
    case nak
    /// A data frame whose checksums hold: its data, `<chip TFI> <code> …` from the chip.
    case data([UInt8])
    /// The chip's error frame: it did not take the command.
    case error
    /// A frame's beginning (or nothing): more bytes are needed.
    case incomplete
    /// Not a frame of the chip's.
    case invalid(Fault)
}

/// One chip's framing, as the shared command link (`USBCommandLink`) needs it. Each chip's facts
/// stay in its own files: `Port100Frame` (the RC-S380), `PN53xFrame` (the RC-S956) conform.
package protocol USBChipFraming {
    associatedtype Command: CustomStringConvertible
    associatedtype Fault: RawRepresentable & Equatable & Sendable where Fault.RawValue == String
    /// "Port-100", "PN53x": the frame's name in messages.
    static var frameName: String { get }
    /// The reader a link is named by when the caller gives no name ("the RC-S380").
    static var defaultName: String { get }
    /// The ACK frame, sent to reset the chip and to cancel the command under way.
    static var ack: [UInt8] { get }
    /// The data byte before every frame of the host's and of the chip's (TFI).
    static var hostToChip: UInt8 { get }
    static var chipToHost: UInt8 { get }
    /// How much one bulk read asks.
    static var readLength: Int { get }
    /// More received and still not a frame is garbage.
    static var longestAnswer: Int { get }
    /// True when an error frame where the ACK belongs means "the chip did not take the command"
    /// (a PN53x answers a command it refuses so); false when it is garbage there.
    static var refusesInPlaceOfACK: Bool { get }
    /// The most TFI, command and parameters one host frame may carry.
    static var longestCommand: Int { get }
    /// The command's code (its answer's is one more).
    static func code(_ command: Command) -> UInt8
    /// The frame carrying `data` (TFI, command, parameters); nil when it does not fit one.
    static func encode(_ data: [UInt8]) -> [UInt8]?
    /// The frame `buffer` begins with and the bytes it takes.
    static func decodeFirst(_ buffer: [UInt8]) -> (frame: USBFrame<Fault>, used: Int)
}

extension USBChipFraming {
    /// Whatever the frame's length field can say.
    package static var longestCommand: Int { Int.max }
}

extension USBChipFraming where Command: RawRepresentable, Command.RawValue == UInt8 {
    package static func code(_ command: Command) -> UInt8 { command.rawValue }
}

/// A chip's commands over a `USBPipe`, whatever the chip: a command frame out, the chip's ACK and
/// its answer in, the answer's code checked. A chip that stops answering is sent the ACK that
/// cancels what it was doing (as port100.c's `port100_abort_cmd` does, and nfcpy on a USB read
/// timeout) and the command ends as `communication` by its deadline; one that answers garbage
/// ends as `communication` too, and what a cancelled or confused exchange left is read away
/// before the next command. Counts what it sends, for the benchmark and the tests.
package final class USBCommandLink<Framing: USBChipFraming> {
    package let pipe: USBPipe
    /// The pipe's clock: every deadline here is made and told on it.
    package var clock: MonotonicClock { pipe.clock }
    /// The reader, for messages ("the RC-S380/S (USB 1:13)").
    package let name: String
    /// Seconds a command may take unless its caller gives a deadline.
    package var commandTimeout: Double
    /// Commands sent: each one an OUT transfer, an ACK and an answer in.
    package private(set) var commandsSent = 0
    /// ACK frames sent: the soft reset at open, each cancel, the close.
    package private(set) var acksSent = 0
    /// True after a command went unanswered by its deadline, until one is answered again: then a
    /// last command (the field switched off as the reader is let go) is not worth its wait.
    package private(set) var silent = false
    /// Commands cancelled with an ACK because they went unanswered by their deadline: a caller
    /// tells "no answer came" from the other ways a command fails by this count moving.
    package private(set) var cancels = 0
    /// Bytes received and not yet decoded.
    private var pending = [UInt8]()
    /// Set after a cancel or garbage: a late answer may still come and is read away first.
    private var unsettled = false

    /// How long a read waits when clearing stale answers (nfcpy drains with 10 ms reads at open).
    private static var drainWait: Double { 0.01 }

    package init(pipe: USBPipe, name: String = Framing.defaultName, commandTimeout: Double = 0.5) {
        self.pipe = pipe; self.name = name; self.commandTimeout = commandTimeout
    }

    /// The soft reset nfcpy and libnfc send at open: an ACK, then stale answers read away.
    package func reset() throws(TransitError) {
        try sendACK()
        drain()
    }

    /// An ACK alone: nothing is left under way in the chip (a close, as nfcpy's).
    package func sendACK() throws(TransitError) {
        try pipe.write(Framing.ack, deadline: clock.deadline(in: commandTimeout))
        acksSent += 1
    }

    /// Sends `command` with `parameters` and returns the answer after `<chip TFI> <code + 1>`.
    /// `deadline` (default: `commandTimeout` from now) bounds the whole round trip; past it the
    /// command is cancelled and `communication` thrown.
    package func send(_ command: Framing.Command, _ parameters: [UInt8] = [], deadline: Deadline? = nil) throws(TransitError) -> [UInt8] {
        if unsettled || !pending.isEmpty { drain() }
        let until = deadline ?? clock.deadline(in: commandTimeout)
        let data = [Framing.hostToChip, Framing.code(command)] + parameters
        guard data.count <= Framing.longestCommand, let frame = Framing.encode(data) else {
            throw TransitError(.internal, "a \(command) of \(parameters.count) bytes does not fit a \(Framing.frameName) frame")
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
        case .error? where Framing.refusesInPlaceOfACK: throw refused(command)
        case let other?: throw garbage(command, "\(Self.word(other)) where its ACK belongs")
        }
        switch try receive(until) {
        case .data(let data)?:
            silent = false
            guard data.count >= 2, data[0] == Framing.chipToHost, data[1] == Framing.code(command) &+ 1 else {
                throw garbage(command, "an answer of another command (\(HexFormat.string(Array(data.prefix(2)))))")
            }
            // The answer ends its transfer: bytes after it are no part of any frame the chip sends.
            guard pending.isEmpty else { throw garbage(command, "\(pending.count) bytes after its answer") }
            return Array(data.dropFirst(2))
        case .error?: throw refused(command)
        case nil: throw cancel(command, got: "its ACK and no answer")
        case let other?: throw garbage(command, "\(Self.word(other)) where its answer belongs")
        }
    }

    /// The error of a command the chip answered with its error frame.
    package func refused(_ command: Framing.Command) -> TransitError {
        TransitError(.communication, "\(name) answered \(command) with an error frame (it did not take the command)")
    }

    /// The error of a command answered with something the caller cannot read; what may follow is
    /// read away before the next command.
    package func garbage(_ command: Framing.Command?, _ what: String) -> TransitError {
        unsettled = true
        pending = []
        return TransitError(.communication, "\(name) answered \(command.map { "\($0)" } ?? "a command") with \(what)")
    }

    /// The next whole frame received; nil when `deadline` passed first. Garbage is thrown.
    private func receive(_ deadline: Deadline) throws(TransitError) -> USBFrame<Framing.Fault>? {
        while true {
            let (frame, used) = Framing.decodeFirst(pending)
            switch frame {
            case .incomplete:
                guard pending.count <= Framing.longestAnswer else { throw garbage(nil, "\(pending.count) bytes that do not end a frame") }
            case .invalid(let fault):
                throw garbage(nil, "bytes that are not a \(Framing.frameName) frame (\(fault.rawValue): \(HexFormat.string(Array(pending.prefix(16)))))")
            default:
                pending.removeFirst(min(used, pending.count))
                return frame
            }
            guard !clock.hasPassed(deadline) else { return nil }
            pending += try pipe.read(maxLength: Framing.readLength, deadline: deadline)
        }
    }

    /// Sends the ACK that cancels the command under way; returns the error of a chip that did not answer in time.
    private func cancel(_ command: Framing.Command, got: String) -> TransitError {
        unsettled = true
        silent = true
        cancels += 1
        do throws(TransitError) {
            try pipe.write(Framing.ack, deadline: clock.deadline(in: Self.drainWait * 10))
            acksSent += 1
        } catch {} // the reader is not answering anyway: the error below says so
        return TransitError(.communication, "\(name) stopped answering: \(got) to \(command) by its deadline")
    }

    /// Reads away what a cancelled or confused exchange left: short reads until one brings nothing
    /// (at most 8; a reader that keeps sending is garbage at the next command).
    private func drain() {
        pending = []
        unsettled = false
        for _ in 0 ..< 8 {
            guard let stale = try? pipe.read(maxLength: Framing.readLength, deadline: clock.deadline(in: Self.drainWait)),
                  !stale.isEmpty else { return }
        }
    }

    private static func word(_ frame: USBFrame<Framing.Fault>) -> String {
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

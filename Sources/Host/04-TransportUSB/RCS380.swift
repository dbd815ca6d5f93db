import CardProtocol
import Foundation
import TransitModel

/// Sony's RC-S380 as a FeliCa reader, over a `USBPipe`: opened once, a card sensed with one
/// Polling, then one InCommRF a card command. The radio settings (InSetRF, InSetProtocol) are sent
/// when a sense needs them and kept while the field stays on, where nfcpy sends them again before
/// every exchange (rcs380.py, docs/research/port100.md §"Sequences"): three USB round trips a command
/// there, one here.
package final class RCS380 {
    /// A FeliCa card that answered a Polling.
    package struct Target: Equatable, Sendable {
        package let idm: [UInt8]
        package let pmm: [UInt8]
        /// The system code, when the Polling asked for it (request code 01).
        package let systemCode: UInt16?
        package let bitRate: FeliCaBitRate

        package init(idm: [UInt8], pmm: [UInt8], systemCode: UInt16?, bitRate: FeliCaBitRate) {
            self.idm = idm; self.pmm = pmm; self.systemCode = systemCode; self.bitRate = bitRate
        }
    }

    /// A version the chip reports as minor, major (`11 01` is 1.11: docs/research/port100.md V1).
    package struct Version: Equatable, Sendable, CustomStringConvertible {
        package let major: UInt8
        package let minor: UInt8

        package init(major: UInt8, minor: UInt8) { self.major = major; self.minor = minor }

        /// Both as hexadecimal digits, as nfcpy prints them: "1.11".
        package var description: String {
            let m = String(minor, radix: 16)
            return String(major, radix: 16) + "." + (m.count == 1 ? "0" + m : m)
        }
    }

    /// What one InCommRF brought back.
    package enum Reception: Equatable, Sendable {
        /// The card's frame, its length byte first.
        case frame([UInt8])
        /// Nothing within the timeout (status 0x80, RECEIVE_TIMEOUT).
        case silence
        /// The chip received something that was not a frame (CRC, parity, collision…).
        case radioError(InCommRFStatus)
    }

    package let port: Port100
    /// The firmware, once `open` has run.
    package private(set) var firmware: Version?
    /// The bit rate the radio is set up for (InSetRF and InSetProtocol sent); nil while the field
    /// is off or after a failure, when the next sense or exchange sends them again.
    package private(set) var framing: FeliCaBitRate?
    /// The bit rate of the last card sensed.
    private var sensed: FeliCaBitRate?

    /// Seconds the USB wait adds to an InCommRF's own timeout before the command is cancelled: the
    /// chip's timeout normally ends a silent exchange (docs/research/port100.md §"Timeouts", a GUESS there as here).
    package static let usbMargin = 0.1
    /// Tries a card command gets while its answer comes back damaged: nfcpy sends each Type 3
    /// command three times (nfcpy tt3.py, its Type 3 exchange; docs/research/port100.md §"Sequences").
    package static let tries = 3
    /// A Polling's timeout: nfcpy's 10 ms, `6E 00` on the wire (docs/research/port100.md §"Sequences", V5).
    package static let pollingTimeout = 0.010

    package init(port: Port100) { self.port = port }

    package convenience init(pipe: USBPipe, name: String = "the RC-S380") {
        self.init(port: Port100(pipe: pipe, name: name))
    }

    /// The driver of an opened USB reader; an RC-S956 reader (RC-S330/360/370) speaks another
    /// framing and is refused (`USBReaderModel.Chipset.rcs956`).
    package convenience init(device: LibUSBDevice) throws(TransitError) {
        guard device.found.model.chipset == .port100 else {
            throw TransitError(.readerUnsupported, "\(device.found.readerName) has an RC-S956 chip, which transit does not drive (only the RC-S380's Port-100)")
        }
        self.init(pipe: device, name: device.found.readerName)
    }

    /// Port-100 commands sent so far (each one USB round trip: command, ACK, answer).
    package var commandsSent: Int { port.commandsSent }

    /// Brings the reader to a known state, as nfcpy does (docs/research/port100.md §"Sequences", V1): a soft reset
    /// (ACK), SetCommandType 1, GetFirmwareVersion, SwitchRF off.
    ///
    /// Not sent, each a USB round trip for nothing a read uses: GetPDDataVersion (nfcpy only logs
    /// it; `pdDataVersion()` asks when someone wants it) and GetCommandType (port100.c asks it to
    /// choose type 1 or 0; every RC-S380 nfcpy drives takes 1, and one that does not says so in
    /// SetCommandType's status, docs/research/port100.md V8, which is then an error naming it).
    package func open(by deadline: Deadline? = nil) throws(TransitError) {
        framing = nil
        try port.reset()
        try port.expectSuccess(.setCommandType, [0x01], deadline: commandDeadline(deadline))
        let version = try port.send(.getFirmwareVersion, deadline: commandDeadline(deadline))
        guard version.count == 2 else {
            throw TransitError(.communication, "\(port.name) answered GetFirmwareVersion with \(version.count) bytes (not 2)")
        }
        firmware = Version(major: version[1], minor: version[0])
        try port.expectSuccess(.switchRF, [0x00], deadline: commandDeadline(deadline))
    }

    /// The PD data version (minor, major), for a verbose report.
    package func pdDataVersion() throws(TransitError) -> Version {
        let version = try port.send(.getPDDataVersion)
        guard version.count == 2 else {
            throw TransitError(.communication, "\(port.name) answered GetPDDataVersion with \(version.count) bytes (not 2)")
        }
        return Version(major: version[1], minor: version[0])
    }

    /// Polls for a FeliCa card at `bitRate` (system `systemCode`, one time slot): the card, or nil
    /// when none answers. The first sense at a bit rate sends InSetRF and InSetProtocol, later ones
    /// only the Polling. A garbled answer (two cards, a card passing by) is no card yet, as nfcpy
    /// takes it. `requestSystemCode` asks the card to add its system code (request code 01, as
    /// nfcpy's sense does: docs/research/port100.md §"Sequences", V5).
    package func sense(bitRate: FeliCaBitRate = .kbps212, systemCode: UInt16 = 0xFFFF, requestSystemCode: Bool = true,
                       deadline: Deadline? = nil) throws(TransitError) -> Target? {
        let reception = try poll(bitRate: bitRate, systemCode: systemCode, requestSystemCode: requestSystemCode, deadline: deadline)
        return Self.target(reception, bitRate: bitRate, requestSystemCode: requestSystemCode)
    }

    /// One Polling at `bitRate` and what came back, the radio set up first when it is not yet:
    /// `sense` without its reading of the answer, for a caller that tells a damaged answer from none.
    package func poll(bitRate: FeliCaBitRate = .kbps212, systemCode: UInt16 = 0xFFFF, requestSystemCode: Bool = true,
                      timeout: Double = RCS380.pollingTimeout, deadline: Deadline? = nil) throws(TransitError) -> Reception {
        try configure(bitRate, deadline: deadline)
        sensed = bitRate
        let polling = FeliCaCommand.polling(systemCode: systemCode, requestCode: requestSystemCode ? 0x01 : 0x00)
        return try exchange(polling, timeout: timeout, deadline: deadline)
    }

    /// The card a Polling's answer names; nil for no answer, a damaged one or a frame that is no
    /// Polling's answer.
    package static func target(_ reception: Reception, bitRate: FeliCaBitRate, requestSystemCode: Bool = true) -> Target? {
        guard case .frame(let answer) = reception else { return nil }
        // LEN 01 IDm PMm [system code]: accepted as nfcpy does, LEN ≥ 18, LEN = the length, code 01
        // (nfcpy rcs380.py `sense_ttf`; docs/research/port100.md §"Sequences").
        guard let idm = FeliCaCommand.polledIDm(answer), answer.count >= 18 else { return nil }
        let code = requestSystemCode && answer.count >= 20 ? UInt16(answer[18]) << 8 | UInt16(answer[19]) : nil
        return Target(idm: idm, pmm: Array(answer[10 ..< 18]), systemCode: code, bitRate: bitRate)
    }

    /// One frame (length byte first) to the card and what came back: ONE InCommRF, the radio set
    /// up by the sense before it. `timeout` is the card's (InCommRF's own, at most 6.5535 s); the
    /// USB wait is that plus `usbMargin`, cut short by `deadline`.
    package func exchange(_ frame: [UInt8], timeout: Double, deadline: Deadline? = nil) throws(TransitError) -> Reception {
        try configure(sensed ?? .kbps212, deadline: deadline)
        let parameters = Port100.inCommRFTimeout(seconds: timeout) + frame
        let wait = port.clock.deadline(in: Port100.seconds(inCommRFTimeout: parameters) + Self.usbMargin)
        let answer: [UInt8]
        do throws(TransitError) {
            answer = try port.send(.inCommRF, parameters, deadline: deadline.map { min($0, wait) } ?? wait)
        } catch {
            framing = nil
            throw error
        }
        // Status (4 bytes, little-endian), one byte both drivers skip, then the card's frame.
        guard let status = InCommRFStatus(answer: answer) else {
            throw TransitError(.communication, "\(port.name) answered InCommRF without its status (\(HexFormat.string(answer)))")
        }
        if status.isEmpty {
            guard answer.count >= 6 else { throw TransitError(.communication, "\(port.name) answered InCommRF with a status and no frame") }
            // The card's frame begins with its own length (FeliCa's LEN), exactly its bytes: one
            // that says another is a garbled reception, as the chip's own length fault is (no card
            // to a sense, a radio error to a read).
            guard Int(answer[5]) == answer.count - 5 else { return .radioError(.receiveLength) }
            return .frame(Array(answer.dropFirst(5)))
        }
        return status == .receiveTimeout ? .silence : .radioError(status)
    }

    /// Switches the field off (SwitchRF 00): the card loses power; the next sense sets the radio up again.
    package func rfOff() throws(TransitError) {
        framing = nil
        try port.expectSuccess(.switchRF, [0x00])
    }

    /// What a reader let go is sent while it still answers, as nfcpy closes it (rcs380.py
    /// `Chipset.close`, docs/research/port100.md §"Sequences"): the field off (SwitchRF 00), then an ACK, so that no
    /// command is left under way. The ACK is sent even when SwitchRF failed.
    package func close() throws(TransitError) {
        defer { try? port.sendACK() }
        try rfOff()
    }

    /// Sends InSetRF and InSetProtocol for `bitRate` unless the radio is already so.
    private func configure(_ bitRate: FeliCaBitRate, deadline: Deadline?) throws(TransitError) {
        guard framing != bitRate else { return }
        framing = nil
        try port.expectSuccess(.inSetRF, bitRate.inSetRF, deadline: commandDeadline(deadline))
        try port.expectSuccess(.inSetProtocol, InSetProtocolKey.parameters(InSetProtocolKey.felicaDefaults), deadline: commandDeadline(deadline))
        framing = bitRate
    }

    private func commandDeadline(_ deadline: Deadline?) -> Deadline {
        let own = port.clock.deadline(in: port.commandTimeout)
        return deadline.map { min($0, own) } ?? own
    }
}

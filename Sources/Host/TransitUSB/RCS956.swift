import CardProtocol
import Foundation
import TransitModel

/// Sony's RC-S956 chip (the PaSoRi RC-S330, RC-S360 and RC-S370, USB 054c:02e1) as a FeliCa
/// reader over a `USBPipe`, from docs/research/rcs956-facts.md. Opened with three commands, a card
/// sensed with InListPassiveTarget at 212, then 424 kbit/s, and each card command ONE
/// InCommunicateThru. nfcpy sends four USB commands a card command (ReadRegister and
/// WriteRegister of the CIU's mode, RFConfiguration 02, InCommunicateThru: rcs956-facts.md §4);
/// here the mode is the one InListPassiveTarget left (the card's bit rate, FeliCa framing) and
/// the timeout (RFConfiguration 02) is sent only when a command needs another than the last.
package final class RCS956: FeliCaRadio {
    /// What GetFirmwareVersion says: `33 01 30 07` is IC 0x33 (the PN533 family), version 1 (Sony's
    /// ROM: libnfc `pn53x_decode_firmware_version`), revision 0x30, support 07 (nfcpy
    /// test_clf_rcs956.py), which nfcpy prints "RCS956v1.30".
    package struct Firmware: Equatable, Sendable, CustomStringConvertible {
        package let ic: UInt8, version: UInt8, revision: UInt8, support: UInt8

        package init(ic: UInt8, version: UInt8, revision: UInt8, support: UInt8) {
            self.ic = ic; self.version = version; self.revision = revision; self.support = support
        }

        package var description: String {
            let r = String(revision, radix: 16)
            return "RCS956v" + String(version, radix: 16) + "." + (r.count == 1 ? "0" + r : r)
        }
    }

    package let chip: PN53x
    package private(set) var firmware: Firmware?
    /// True once RFConfiguration 01 switched the field on; false after open and close.
    package private(set) var fieldOn = false
    /// RFConfiguration 02's third byte as last sent (InCommunicateThru's timeout); nil when unknown.
    package private(set) var timeoutIndex: UInt8?

    /// The IC byte of an RC-S956's firmware version (rcs956-facts.md §3, step 4).
    package static let ic: UInt8 = 0x33
    /// InListPassiveTarget's BrTy for FeliCa: 01 212 kbit/s, 02 424 (rcs956-facts.md §4).
    package static func brty(_ rate: FeliCaBitRate) -> UInt8 { rate == .kbps212 ? 0x01 : 0x02 }
    /// RFConfiguration items (rcs956-facts.md §3, §4): 01 the field, 02 the timeouts, 05 the retries.
    package static let itemField: UInt8 = 0x01, itemTimings: UInt8 = 0x02, itemRetries: UInt8 = 0x05
    /// RFConfiguration 02's first two bytes, as nfcpy sends them with each InCommunicateThru's
    /// timeout (`32 02 0A 0B n`: RFU, ATR_RES 102.4 ms; base_clf_pn53x `send_cmd_recv_rsp` tests).
    package static let timingsPrefix: [UInt8] = [0x0A, 0x0B]
    /// RFConfiguration 05: MxRtyATR 0, MxRtyPSL 0, MxRtyPassiveActivation 1 — two tries of the
    /// Polling in one InListPassiveTarget, nfcpy's `32 05 00 00 01` (the kernel's pn533 sets 0, one
    /// try; 0xFF would poll until a card comes: rcs956-facts.md §3, §4). InListPassiveTarget has
    /// no status byte: a Polling answer that came back damaged is dropped by the chip, so with one
    /// try a card still there would look gone to the presence check; the second try costs no USB
    /// command, and a few ms only when no card answers.
    package static let retries: [UInt8] = [0x00, 0x00, 0x01]
    /// Field on (RFConfiguration 01 01) and off with auto RFCA (01 02, nfcpy's close).
    package static let fieldOnValue: UInt8 = 0x01, fieldOffValue: UInt8 = 0x02
    /// After the field comes on, nfcpy waits 5 ms before polling: "some FeliCa cards need more time
    /// from power up to polling" (rcs956-facts.md §4).
    package static let powerUpWait = 0.005
    /// The timeout set at open, the one a card command usually needs: the channel's floor (0.1 s).
    package static let usualTimeout = 0.1
    /// Seconds the USB wait adds to InCommunicateThru's own timeout before the command is cancelled
    /// (nfcpy waits the RF timeout + 0.1 s: rcs956-facts.md §4).
    package static let usbMargin = 0.1

    package init(chip: PN53x) { self.chip = chip }

    package convenience init(pipe: USBPipe, name: String = "the RC-S956") {
        self.init(chip: PN53x(pipe: pipe, name: name))
    }

    package var clock: MonotonicClock { chip.clock }
    package var commandsSent: Int { chip.commandsSent }

    /// InCommunicateThru's timeout index n for `seconds`: the effective timeout is 100 µs × 2^(n−1)
    /// for n from 1 to 16 (nfcpy pn53x.py `send_cmd_recv_rsp`); the smallest n whose timeout is at
    /// least `seconds`, 16 at most. nfcpy's vectors: 1 s is 0x0F, 10 s 0x10.
    package static func timeoutIndex(for seconds: Double) -> UInt8 {
        let microseconds = seconds.isFinite ? max(0, seconds * 1_000_000) : .infinity
        for n in 1 ... 16 where 100 * Double(1 << (n - 1)) >= microseconds { return UInt8(n) }
        return 16
    }

    /// The seconds index `n` stands for.
    package static func seconds(timeoutIndex n: UInt8) -> Double {
        n == 0 ? 0 : 100e-6 * Double(1 << (Int(min(n, 16)) - 1))
    }

    /// Brings the chip to a known state with what a FeliCa read needs of nfcpy's opening
    /// (rcs956-facts.md §3): the soft reset (ACK), GetFirmwareVersion (it is an RC-S956),
    /// RFConfiguration 05 (one try a poll) and 02 (the usual timeout). Left out, each a round trip a
    /// FeliCa read does not use: ResetMode, Diagnose's line test, SetParameters, the 106A analog
    /// settings and WriteRegister (type A), RFConfiguration 04 (DEP).
    package func open(by deadline: Deadline? = nil) throws(TransitError) {
        fieldOn = false
        timeoutIndex = nil
        try chip.reset()
        let version = try chip.send(.getFirmwareVersion, deadline: commandDeadline(deadline))
        guard version.count == 4 else {
            throw TransitError(.communication, "\(chip.name) answered GetFirmwareVersion with \(version.count) bytes (not 4)")
        }
        guard version[0] == Self.ic else {
            throw TransitError(.communication, "\(chip.name) says its chip is IC 0x\(HexFormat.string([version[0]])), not an RC-S956 (0x33)")
        }
        firmware = Firmware(ic: version[0], version: version[1], revision: version[2], support: version[3])
        try configure(Self.itemRetries, Self.retries, deadline: deadline)
        try setTimeout(Self.timeoutIndex(for: Self.usualTimeout), deadline: deadline)
    }

    /// Polls for a FeliCa card at `bitRate` with InListPassiveTarget (one target; the Polling
    /// payload `00 FF FF 01 00`: any system, its code asked): the card's Polling answer, its
    /// length byte first, or silence when none answered. The first poll switches the field on.
    package func poll(bitRate: FeliCaBitRate, deadline: Deadline? = nil) throws(TransitError) -> FeliCaReception {
        if !fieldOn {
            try configure(Self.itemField, [Self.fieldOnValue], deadline: deadline)
            fieldOn = true
            let wait = clock.deadline(in: Self.powerUpWait)
            clock.sleep(until: deadline.map { min($0, wait) } ?? wait)
        }
        let parameters: [UInt8] = [0x01, Self.brty(bitRate)] + [0x00, 0xFF, 0xFF, 0x01, 0x00]
        let answer = try chip.send(.inListPassiveTarget, parameters, deadline: commandDeadline(deadline))
        // NbTg, then for the one target Tg and POL_RES (its LEN first): `4B 01 01 14 01 IDm PMm SC`.
        guard let count = answer.first else {
            throw TransitError(.communication, "\(chip.name) answered InListPassiveTarget without its target count")
        }
        guard count > 0 else { return .silence }
        let response = Array(answer.dropFirst(2))
        guard let length = response.first, Int(length) == response.count else { return .radioError(.receiveLength) }
        return .frame(response)
    }

    package func presencePolling(bitRate: FeliCaBitRate, timeout: Double, deadline: Deadline?) throws(TransitError) -> FeliCaReception {
        try poll(bitRate: bitRate, deadline: deadline)
    }

    /// One frame (length byte first) to the card the last poll listed: ONE InCommunicateThru,
    /// after RFConfiguration 02 only when `timeout` needs another index than the last sent. The
    /// USB wait is the chip's timeout plus `usbMargin`, cut short by `deadline`. A chip that does
    /// not answer by then (cancelled with an ACK: `PN53x.send`) lost the answer its own timeout
    /// should have brought: that is silence, as status 01 is, which the channel checks (the card
    /// still there?) and sends again, as nfcpy's Type 3 layer retries a USB timeout (rcs956-facts.md
    /// §4). Past the read's `deadline` it is the error it is.
    package func exchange(_ frame: [UInt8], timeout: Double, deadline: Deadline? = nil) throws(TransitError) -> FeliCaReception {
        let index = Self.timeoutIndex(for: timeout)
        if index != timeoutIndex { try setTimeout(index, deadline: deadline) }
        let wait = clock.deadline(in: Self.seconds(timeoutIndex: index) + Self.usbMargin)
        let cancels = chip.cancels
        let answer: [UInt8]
        do throws(TransitError) {
            answer = try chip.send(.inCommunicateThru, frame, deadline: deadline.map { min($0, wait) } ?? wait)
        } catch {
            guard chip.cancels > cancels, !(deadline.map(clock.hasPassed) ?? false) else { throw error }
            return .silence
        }
        guard let status = answer.first else {
            throw TransitError(.communication, "\(chip.name) answered InCommunicateThru without its status")
        }
        if let fault = PN53xStatus.fault(status) { return fault == .receiveTimeout ? .silence : .radioError(fault) }
        let received = Array(answer.dropFirst())
        // The card's frame begins with its own length: one that says another is a garbled reception.
        guard let length = received.first, Int(length) == received.count else { return .radioError(.receiveLength) }
        return .frame(received)
    }

    /// The field off (RFConfiguration 01 02, as nfcpy closes), then an ACK, sent even when the
    /// first failed, so that no command is left under way.
    package func close() throws(TransitError) {
        defer { try? chip.sendACK() }
        fieldOn = false
        try configure(Self.itemField, [Self.fieldOffValue], deadline: nil)
    }

    private func setTimeout(_ index: UInt8, deadline: Deadline?) throws(TransitError) {
        timeoutIndex = nil
        try configure(Self.itemTimings, Self.timingsPrefix + [index], deadline: deadline)
        timeoutIndex = index
    }

    /// RFConfiguration `item values`, answered with nothing after its code.
    private func configure(_ item: UInt8, _ values: [UInt8], deadline: Deadline?) throws(TransitError) {
        let answer = try chip.send(.rfConfiguration, [item] + values, deadline: commandDeadline(deadline))
        guard answer.isEmpty else {
            throw TransitError(.communication, "\(chip.name) answered RFConfiguration \(HexFormat.string([item])) with \(answer.count) bytes (none expected)")
        }
    }

    private func commandDeadline(_ deadline: Deadline?) -> Deadline {
        let own = clock.deadline(in: chip.commandTimeout)
        return deadline.map { min($0, own) } ?? own
    }
}

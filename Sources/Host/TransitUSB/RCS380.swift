import CardProtocol
import Foundation
import TransitModel

/// Sony's RC-S380 as a FeliCa reader, over a `USBPipe`: opened once, a card sensed with one
/// Polling, then one InCommRF a card command. The radio settings (InSetRF, InSetProtocol) are sent
/// when a sense needs them and kept while the field stays on, where nfcpy sends them again before
/// every exchange (rcs380.py, docs/research/port100.md §"Sequences"): three USB round trips a command
/// there, one here. A 106 kbit/s type A card (MIFARE Ultralight, Classic) is sensed and selected
/// with nfcpy's `sense_tta` (`senseTypeA`) and a Type 2 tag read with one InCommRF a READ
/// (`exchangeTypeA`), the radio set for it once (docs/research/port100.md §"Type A").
package final class RCS380 {
    /// A FeliCa card that answered a Polling (`FeliCaTarget`, whatever the chip).
    package typealias Target = FeliCaTarget
    /// What one InCommRF brought back; its silence is status 0x80, RECEIVE_TIMEOUT.
    package typealias Reception = FeliCaReception
    /// A 106 kbit/s type A card a sense selected (`TypeA.Target`).
    package typealias TypeATarget = TypeA.Target

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

    /// What a type A sense found: a card, none, or an answer that came back damaged (two cards, a
    /// card being placed).
    package enum TypeASense: Equatable, Sendable {
        case card(TypeATarget), none, damaged
    }

    /// How the radio is set up (InSetRF and InSetProtocol sent).
    package enum Framing: Equatable, Sendable {
        /// FeliCa at a bit rate: nfcpy's default protocol set.
        case felica(FeliCaBitRate)
        /// 106 kbit/s type A as the activation left it (CRC added and checked).
        case typeAActivation
        /// 106 kbit/s type A for a Type 2 tag's commands (`TypeA.type2Exchange`).
        case typeA
    }

    package let port: Port100
    /// The firmware, once `open` has run.
    package private(set) var firmware: Version?
    /// What the radio is set up for (InSetRF and InSetProtocol sent); nil while the field is off or
    /// after a failure, when the next sense or exchange sends them again.
    package private(set) var framing: Framing?
    /// The bit rate of the last card sensed.
    private var sensed: FeliCaBitRate?

    /// Seconds the USB wait adds to an InCommRF's own timeout before the command is cancelled: the
    /// chip's timeout normally ends a silent exchange (docs/research/port100.md §"Timeouts", a GUESS there as here).
    package static let usbMargin = 0.1
    /// Tries a card command gets while its answer comes back damaged (`USBFeliCaChannel.tries`).
    package static let tries = USBFeliCaChannel.tries
    /// A Polling's timeout: nfcpy's 10 ms, `6E 00` on the wire (docs/research/port100.md §"Sequences", V5).
    package static let pollingTimeout = USBFeliCaChannel.pollingTimeout

    package init(port: Port100) { self.port = port }

    package convenience init(pipe: USBPipe, name: String = "the RC-S380") {
        self.init(port: Port100(pipe: pipe, name: name))
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
        FeliCaTarget(polled: reception, bitRate: bitRate, requestSystemCode: requestSystemCode)
    }

    /// One frame (length byte first) to the card and what came back: ONE InCommRF, the radio set
    /// up by the sense before it. `timeout` is the card's (InCommRF's own, at most 6.5535 s); the
    /// USB wait is that plus `usbMargin`, cut short by `deadline`.
    package func exchange(_ frame: [UInt8], timeout: Double, deadline: Deadline? = nil) throws(TransitError) -> Reception {
        try configure(sensed ?? .kbps212, deadline: deadline)
        let (status, received) = try inCommRF(frame, timeout: timeout, deadline: deadline)
        if status.isEmpty {
            guard let length = received.first else { throw TransitError(.communication, "\(port.name) answered InCommRF with a status and no frame") }
            // The card's frame begins with its own length (FeliCa's LEN), exactly its bytes: one
            // that says another is a garbled reception, as the chip's own length fault is (no card
            // to a sense, a radio error to a read).
            guard Int(length) == received.count else { return .radioError(.receiveLength) }
            return .frame(received)
        }
        return status == .receiveTimeout ? .silence : .radioError(status)
    }

    /// One InCommRF of `frame` with the card's `timeout`: its status and the card's bytes (after the
    /// 4-byte status and the byte both drivers skip). The USB wait is `timeout` plus `usbMargin`,
    /// cut short by `deadline`; a failure leaves the radio to be set up again.
    private func inCommRF(_ frame: [UInt8], timeout: Double, deadline: Deadline?) throws(TransitError) -> (InCommRFStatus, [UInt8]) {
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
        return (status, Array(answer.dropFirst(5)))
    }

    /// Senses a 106 kbit/s type A card and selects it, as nfcpy's `sense_tta` does (docs/research/
    /// port100.md §"Type A"): InSetRF 106A, the default protocol set, the sense settings, SENS_REQ;
    /// then for each cascade level an SDD_REQ without CRC and a SEL_REQ with it, until the SAK says
    /// the UID is complete. A Type 1 tag (no anticollision: SENS_RES bits 1–5 clear) is no card
    /// here; an answer damaged at any step is `damaged`, silence or an odd answer `none`.
    package func senseTypeA(deadline: Deadline? = nil) throws(TransitError) -> TypeASense {
        framing = nil
        try port.expectSuccess(.inSetRF, TypeA.inSetRF, deadline: commandDeadline(deadline))
        try port.expectSuccess(.inSetProtocol, InSetProtocolKey.parameters(InSetProtocolKey.felicaDefaults), deadline: commandDeadline(deadline))
        try port.expectSuccess(.inSetProtocol, InSetProtocolKey.parameters(TypeA.senseSettings), deadline: commandDeadline(deadline))
        sensed = nil
        framing = .typeAActivation
        let sensRes: [UInt8]
        switch try activation(TypeA.sensReq, deadline: deadline) {
        case .frame(let answer): sensRes = answer
        case .radioError(let status) where status.isDamage: return .damaged
        default: return .none
        }
        // SENS_RES is 2 bytes; bits 1–5 of its first byte clear is a Type 1 tag (nfcpy; ISO/IEC 14443-3 6.3.2).
        guard sensRes.count == 2, sensRes[0] & 0x1F != 0 else { return .none }
        try port.expectSuccess(.inSetProtocol, InSetProtocolKey.parameters(TypeA.standardFrames), deadline: commandDeadline(deadline))
        var uid = [UInt8]()
        for level in TypeA.cascadeLevels {
            try port.expectSuccess(.inSetProtocol, InSetProtocolKey.parameters(TypeA.crcOff), deadline: commandDeadline(deadline))
            let sddRes: [UInt8]
            switch try activation([level, TypeA.nvbAnticollision], deadline: deadline) {
            case .frame(let answer): sddRes = answer
            case .radioError(let status) where status.isDamage: return .damaged
            default: return .none
            }
            // UID CLn (4 bytes) and BCC, their XOR (ISO/IEC 14443-3 6.5.3.2): anything else is a
            // garbled answer (two cards whose bits the chip did not flag).
            guard sddRes.count == 5, TypeA.bcc(sddRes[0 ..< 4]) == sddRes[4] else { return .damaged }
            try port.expectSuccess(.inSetProtocol, InSetProtocolKey.parameters(TypeA.crcOn), deadline: commandDeadline(deadline))
            let selRes: [UInt8]
            switch try activation([level, TypeA.nvbSelect] + sddRes, deadline: deadline) {
            case .frame(let answer): selRes = answer
            case .radioError(let status) where status.isDamage: return .damaged
            default: return .none
            }
            // The chip checked and removed the CRC; SEL_RES is the SAK.
            guard let sak = selRes.first else { return .none }
            guard sak & TypeA.sakCascade != 0 else {
                return .card(TypeATarget(sensRes: sensRes, uid: uid + sddRes[0 ..< 4], sak: sak))
            }
            // The UID goes on: CLn is the cascade tag and three UID bytes.
            guard sddRes[0] == TypeA.cascadeTag else { return .none }
            uid += sddRes[1 ..< 4]
        }
        return .none // a fourth cascade level does not exist (nfcpy: "excessive uid")
    }

    /// One frame of the activation, with nfcpy's 30 ms: the card's bytes as they came.
    private func activation(_ frame: [UInt8], deadline: Deadline?) throws(TransitError) -> Reception {
        let (status, received) = try inCommRF(frame, timeout: TypeA.activationTimeout, deadline: deadline)
        if status.isEmpty { return .frame(received) }
        return status == .receiveTimeout ? .silence : .radioError(status)
    }

    /// One command to the type A card a sense selected (a Type 2 tag's READ: `TypeA.read`), and
    /// what came back: ONE InCommRF once the radio is set for it (InSetRF 106A, the default set and
    /// `TypeA.type2Exchange`, sent before the first). The chip adds the CRC; this checks the
    /// card's CRC_A and strips it. An answer of one byte is the tag's 4-bit ACK or NAK, as it came.
    package func exchangeTypeA(_ frame: [UInt8], timeout: Double, deadline: Deadline? = nil) throws(TransitError) -> Reception {
        try configureTypeA(deadline: deadline)
        let (status, received) = try inCommRF(frame, timeout: timeout, deadline: deadline)
        guard status.isEmpty else { return status == .receiveTimeout ? .silence : .radioError(status) }
        guard received.count > 2 else { return .frame(received) }
        guard TypeA.crcHolds(received) else { return .radioError(.crc) }
        return .frame(Array(received.dropLast(2)))
    }

    /// Sends HLTA to the type A card a sense selected: it answers nothing and is not sensed again
    /// while it stays in the field (`TypeA.halt`). What comes back is not looked at.
    package func haltTypeA(deadline: Deadline? = nil) throws(TransitError) {
        try configureTypeA(deadline: deadline)
        _ = try inCommRF(TypeA.halt, timeout: 0.001, deadline: deadline)
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
        guard framing != .felica(bitRate) else { return }
        framing = nil
        try port.expectSuccess(.inSetRF, bitRate.inSetRF, deadline: commandDeadline(deadline))
        try port.expectSuccess(.inSetProtocol, InSetProtocolKey.parameters(InSetProtocolKey.felicaDefaults), deadline: commandDeadline(deadline))
        framing = .felica(bitRate)
    }

    /// Sends what nfcpy sends before a Type 2 tag's command (rcs380.py `send_cmd_recv_rsp`): InSetRF
    /// 106A, the default set, `TypeA.type2Exchange`; once, unless the radio is already so.
    private func configureTypeA(deadline: Deadline?) throws(TransitError) {
        guard framing != .typeA else { return }
        framing = nil
        try port.expectSuccess(.inSetRF, TypeA.inSetRF, deadline: commandDeadline(deadline))
        try port.expectSuccess(.inSetProtocol, InSetProtocolKey.parameters(InSetProtocolKey.felicaDefaults), deadline: commandDeadline(deadline))
        try port.expectSuccess(.inSetProtocol, InSetProtocolKey.parameters(TypeA.type2Exchange), deadline: commandDeadline(deadline))
        framing = .typeA
    }

    private func commandDeadline(_ deadline: Deadline?) -> Deadline {
        let own = port.clock.deadline(in: port.commandTimeout)
        return deadline.map { min($0, own) } ?? own
    }
}

extension RCS380: FeliCaRadio {
    package var clock: MonotonicClock { port.clock }

    package func presencePolling(bitRate: FeliCaBitRate, timeout: Double, deadline: Deadline?) throws(TransitError) -> Reception {
        try poll(bitRate: bitRate, timeout: timeout, deadline: deadline)
    }
}

/// The RC-S380's name for the channel, which it had alone before the RC-S956 (issue 46).
package typealias RCS380Channel = USBFeliCaChannel

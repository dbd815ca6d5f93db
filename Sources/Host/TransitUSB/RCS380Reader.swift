import Foundation
import TransitModel
import TransitTransport

/// One RC-S380 as a command uses it: found on the bus without opening it, opened (its kernel
/// driver detached) at the first look for a card, and given back — field off, interface released,
/// driver re-attached — when the command is done with it. No pcscd is involved. Every reader held
/// open is known to `giveBackAll`, which a command's end on a signal calls.
// Unchecked: the device and driver are `hold`'s, under its lock; `log` is set before the
// reader is shared (USBCardSearch, USBTapWatch).
package final class RCS380Reader: USBDriverHolding, @unchecked Sendable {
    /// The device and the RC-S380 driver, opened at the first look (`USBDriverHold`).
    package let hold: USBDriverHold<RCS380>
    /// `--verbose` lines: the kernel driver detached, the firmware.
    package var log: (String) -> Void = { _ in }

    package init(_ found: LibUSBDevice.Found) { hold = USBDriverHold(found) }

    deinit { close() }

    /// A card an RC-S380 sensed: FeliCa, or a 106 kbit/s type A card it can say something of
    /// (MIFARE Ultralight and the other Type 2 tags, which it reads; MIFARE Classic, which it cannot).
    package typealias Card = USBCard
    /// What one look at the reader saw (`USBSight`).
    package typealias Sight = USBSight

    /// `sense`, telling a damaged answer from no card: a Polling at 212 kbit/s, then at 424; when
    /// neither was answered at all, a type A sense (`RCS380.senseTypeA`). A FeliCa card is found as
    /// before, with not one command more: the type A sense costs only a look that found no FeliCa
    /// card. A type A card transit cannot read here at all (ISO 14443-4, NFC-DEP) is no card.
    package func look(by deadline: Deadline) throws(TransitError) -> Sight {
        let reader = try opened(by: deadline)
        do throws(TransitError) {
            var damaged = false
            for rate in [FeliCaBitRate.kbps212, .kbps424] {
                let reception = try reader.poll(bitRate: rate, deadline: deadline)
                if let card = RCS380.target(reception, bitRate: rate) { return .card(.felica(card)) }
                if case .radioError(let status) = reception, status.isDamage { damaged = true }
            }
            if damaged { return .damaged }
            switch try reader.senseTypeA(deadline: deadline) {
            case .card(let card) where card.kind != .other: return .card(.typeA(card))
            case .damaged: return .damaged
            case .card, .none: return .none
            }
        } catch {
            close() // a reader that failed is opened anew at the next look
            throw error
        }
    }

    /// The card a sense found, as a reader channel: FeliCa of the bare-frame dialect, a type A
    /// card as a PC/SC storage card.
    package func channel(_ card: Card, exchangeTimeout: Double) throws(TransitError) -> ReaderChannel {
        let reader = try opened(by: Deadline(secondsFromNow: exchangeTimeout))
        switch card {
        case .felica(let target):
            return RCS380Channel(reader: reader, target: target, readerName: name, exchangeTimeout: exchangeTimeout, log: log)
        case .typeA(let target):
            return RCS380TypeAChannel(reader: reader, target: target, readerName: name, exchangeTimeout: exchangeTimeout, log: log)
        }
    }

    /// After a type A card was read on a reader kept open (a watch): HLTA, so that the card, left
    /// on the reader, is not sensed again until it leaves the field (`RCS380.haltTypeA`). A reader
    /// that fails is opened anew at the next look.
    package func halt(by deadline: Deadline) {
        guard let current = hold.current else { return }
        do throws(TransitError) {
            try current.haltTypeA(deadline: deadline)
        } catch {
            close()
        }
    }

    /// Every reader held open, given back before the process ends on a signal (`HeldUSBDevices`).
    package static func giveBackAll() { HeldUSBDevices.giveBackAll() }
}

extension RCS380: USBChipDriver {
    package static var chipset: USBChipset { .port100 }
    package var openedNote: String { "firmware \(firmware.map { "\($0)" } ?? "unknown"), Port-100 over libusb" }
    package var silent: Bool { port.silent }
}

extension USBChipset {
    /// The RC-S380's Port-100 chip (`Port100Frame`, `Port100`, `RCS380`), bound by the kernel's
    /// port100 driver (docs/research/port100.md §"Kernel driver").
    package static let port100 = USBChipset(
        id: "port100", kernelDriver: "port100",
        reads: L10n.mark("FeliCa cards and MIFARE Ultralight tickets (not MIFARE Classic)"),
        readsOnly: "FeliCa cards and MIFARE Ultralight tickets only: Suica, ICOCA, Edy, WAON, nanaco, Octopus…; Compass, Ventra…",
        reader: { RCS380Reader($0) })
}

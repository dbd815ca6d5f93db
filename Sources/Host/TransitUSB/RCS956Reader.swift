import Foundation
import TransitModel
import TransitTransport

/// One RC-S330, RC-S360 or RC-S370 (the RC-S956 chip) as a command uses it, as `RCS380Reader` is
/// the RC-S380: found on the bus without opening it, opened (the kernel's pn533_usb driver
/// detached) at the first look for a card, and given back — field off, interface released, driver
/// re-attached — when the command is done with it. FeliCa only: a type A card is no card here.
/// Its name, `close` and the opening at the first look are every USB reader's
/// (`USBDriverHolding`); what is its own is the look (InListPassiveTarget, once more after a
/// fault), its channel and its chipset (`USBChipset.rcs956`, which the table's line
/// `USBReaderModel.rcs956` names).
// Unchecked: the device and driver are `hold`'s, under its lock; `log` is set before the
// reader is shared (USBCardSearch, USBTapWatch).
package final class RCS956Reader: USBDriverHolding, @unchecked Sendable {
    /// The device and the RC-S956 driver, opened at the first look (`USBDriverHold`).
    package let hold: USBDriverHold<RCS956>
    package var log: (String) -> Void = { _ in }

    package init(_ found: LibUSBDevice.Found) { hold = USBDriverHold(found) }

    deinit { close() }

    /// InListPassiveTarget at 212 kbit/s, then at 424; a card, none, or an answer that came back
    /// damaged. The first look opens the reader (three commands and an ACK, once).
    package func look(by deadline: Deadline) throws(TransitError) -> USBSight {
        let reader = try opened(by: deadline)
        do throws(TransitError) {
            var damaged = false
            for rate in [FeliCaBitRate.kbps212, .kbps424] {
                let reception = try polled(reader, bitRate: rate, by: deadline)
                if let card = FeliCaTarget(polled: reception, bitRate: rate) { return .card(.felica(card)) }
                if case .radioError = reception { damaged = true }
            }
            return damaged ? .damaged : .none
        } catch {
            close() // a reader that failed is opened anew at the next look
            throw error
        }
    }

    /// InListPassiveTarget, sent once more when the chip refused it (the error frame) or did not
    /// answer it (cancelled with an ACK, stale answers read away by `PN53x`): one such fault is
    /// no reason to fail a scan that has no `--wait`; a chip that fails twice in a row is failing,
    /// and the look ends with its error. Unplugged, cancelled: at once.
    private func polled(_ reader: RCS956, bitRate: FeliCaBitRate, by deadline: Deadline) throws(TransitError) -> FeliCaReception {
        do throws(TransitError) {
            return try reader.poll(bitRate: bitRate, deadline: deadline)
        } catch where error.kind == .communication && !reader.clock.hasPassed(deadline) {
            log(L10n.tr("%1$s; polling once more", error.text))
            return try reader.poll(bitRate: bitRate, deadline: deadline)
        }
    }

    /// The FeliCa card a look found, as a channel of the bare-frame dialect.
    package func channel(_ card: USBCard, exchangeTimeout: Double) throws(TransitError) -> ReaderChannel {
        guard case .felica(let target) = card else {
            throw TransitError(.readerUnsupported, L10n.words("%1$s reads FeliCa cards only", .init(name)))
        }
        let reader = try opened(by: Deadline(secondsFromNow: exchangeTimeout))
        return USBFeliCaChannel(reader: reader, target: target, readerName: name, exchangeTimeout: exchangeTimeout, log: log)
    }

    /// Nothing: a FeliCa card left on the reader is told from a new one by its IDm.
    package func halt(by deadline: Deadline) {}
}

extension RCS956: USBChipDriver {
    package static var chipset: USBChipset { .rcs956 }
    package var openedNote: String { "firmware \(firmware.map { "\($0)" } ?? "unknown"), PN53x frames over libusb" }
    package var silent: Bool { chip.silent }
}

extension USBChipset {
    /// The RC-S956 of the RC-S330/360/370: a PN53x-family chip whose frames are `00 00 FF LEN LCS
    /// D4 cmd … DCS 00`, answered `D5 cmd+1`, with an extended frame whose LEN is big-endian
    /// (`PN53xFrame`, `PN53x`, `RCS956`; docs/research/rcs956-facts.md). Bound by the kernel's
    /// pn533_usb (drivers/nfc/pn533/usb.c: `PASORI_PRODUCT_ID 0x02e1`, rcs956-facts.md §3), which
    /// may take it back.
    package static let rcs956 = USBChipset(
        id: "rcs956", kernelDriver: "pn533_usb", driverMayTakeItBack: true,
        reads: L10n.mark("FeliCa cards (an RC-S956 chip, PN53x frames)"),
        readsOnly: "FeliCa cards only: Suica, ICOCA, Edy, WAON, nanaco, Octopus…",
        reader: { RCS956Reader($0) })
}

import Foundation
import TransitModel
import TransitTransport

/// One RC-S330, RC-S360 or RC-S370 (the RC-S956 chip) as a command uses it, as `RCS380Reader` is
/// the RC-S380: found on the bus without opening it, opened (the kernel's pn533_usb driver
/// detached) at the first look for a card, and given back — field off, interface released, driver
/// re-attached — when the command is done with it. FeliCa only: a type A card is no card here.
package final class RCS956Reader: USBReader, @unchecked Sendable {
    package let found: LibUSBDevice.Found
    /// Guards `device` and `driver`: `giveBackBeforeExit` reads them on a signal's thread.
    private let lock = NSLock()
    private var device: LibUSBDevice?
    private var driver: RCS956?
    package var log: (String) -> Void = { _ in }

    package init(_ found: LibUSBDevice.Found) { self.found = found }

    deinit { close() }

    /// "SONY RC-S330/360/370 (USB 1:13)".
    package var name: String { found.readerName }

    /// InListPassiveTarget at 212 kbit/s, then at 424; a card, none, or an answer that came back
    /// damaged. The first look opens the reader (three commands and an ACK, once).
    package func look(by deadline: Deadline) throws(TransitError) -> RCS380Reader.Sight {
        let reader = try opened(by: deadline)
        do throws(TransitError) {
            var damaged = false
            for rate in [FeliCaBitRate.kbps212, .kbps424] {
                let reception = try polled(reader, bitRate: rate, by: deadline)
                if let card = RCS380.target(reception, bitRate: rate) { return .card(.felica(card)) }
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
    private func polled(_ reader: RCS956, bitRate: FeliCaBitRate, by deadline: Deadline) throws(TransitError) -> RCS380.Reception {
        do throws(TransitError) {
            return try reader.poll(bitRate: bitRate, deadline: deadline)
        } catch where error.kind == .communication && !reader.clock.hasPassed(deadline) {
            log(L10n.tr("%1$s; polling once more", error.text))
            return try reader.poll(bitRate: bitRate, deadline: deadline)
        }
    }

    /// The FeliCa card a look found, as a channel of the bare-frame dialect.
    package func channel(_ card: RCS380Reader.Card, exchangeTimeout: Double) throws(TransitError) -> ReaderChannel {
        guard case .felica(let target) = card else {
            throw TransitError(.readerUnsupported, "\(name) reads FeliCa cards only")
        }
        let reader = try opened(by: Deadline(secondsFromNow: exchangeTimeout))
        return USBFeliCaChannel(reader: reader, target: target, readerName: name, exchangeTimeout: exchangeTimeout, log: log)
    }

    /// Nothing: a FeliCa card left on the reader is told from a new one by its IDm.
    package func halt(by deadline: Deadline) {}

    /// Field off and an ACK (unless the chip just stopped answering), interface released, kernel
    /// driver given back; the next look opens it again.
    package func close() {
        lock.lock()
        let (device, driver) = (self.device, self.driver)
        self.device = nil
        self.driver = nil
        lock.unlock()
        if let device { HeldUSBDevices.forget(device) }
        if let driver, !driver.chip.silent { try? driver.close() }
        device?.close()
    }

    private func opened(by deadline: Deadline) throws(TransitError) -> RCS956 {
        lock.lock()
        let current = driver
        lock.unlock()
        if let current { return current }
        let device = try HeldUSBDevices.open(found)
        lock.lock()
        self.device = device
        lock.unlock()
        do throws(TransitError) {
            let reader = try RCS956(device: device)
            try reader.open(by: deadline)
            if let note = device.driverNote { log(note) }
            log("\(name): firmware \(reader.firmware.map { "\($0)" } ?? "unknown"), PN53x frames over libusb")
            lock.lock()
            driver = reader
            lock.unlock()
            return reader
        } catch {
            close()
            throw error
        }
    }
}

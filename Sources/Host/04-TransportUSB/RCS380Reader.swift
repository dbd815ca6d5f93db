import TransitModel
import TransitTransport

/// One RC-S380 as a command uses it: found on the bus without opening it, opened (its kernel
/// driver detached) at the first look for a card, and given back — field off, interface released,
/// driver re-attached — when the command is done with it. No pcscd is involved.
package final class RCS380Reader {
    package let found: LibUSBDevice.Found
    private var device: LibUSBDevice?
    private var driver: RCS380?
    /// `--verbose` lines: the kernel driver detached, the firmware.
    package var log: (String) -> Void = { _ in }

    package init(_ found: LibUSBDevice.Found) { self.found = found }

    deinit { close() }

    /// "SONY RC-S380/S (USB 1:13)".
    package var name: String { found.readerName }

    /// The RC-S380s on the bus whose names contain one of `filters` (any, when there is none):
    /// none where libusb cannot look (no USB in a container), which is no error for a command that
    /// may find a PC/SC reader instead.
    package static func connected(matching filters: [String]) -> [RCS380Reader] {
        guard let found = try? LibUSBDevice.list() else { return [] }
        let names = ReaderProfile.selected(found.map(\.readerName), by: filters)
        return found.filter { names.contains($0.readerName) }.map(RCS380Reader.init)
    }

    /// A FeliCa card on the reader now: a Polling at 212 kbit/s, then at 424; nil when none
    /// answers. The first call opens the reader (three commands, once).
    package func sense(by deadline: Deadline) throws(TransitError) -> RCS380.Target? {
        let reader = try opened()
        do throws(TransitError) {
            if let card = try reader.sense(bitRate: .kbps212, deadline: deadline) { return card }
            return try reader.sense(bitRate: .kbps424, deadline: deadline)
        } catch {
            close() // a reader that failed is opened anew at the next look
            throw error
        }
    }

    /// The card a sense found, as a reader channel of the bare-frame dialect.
    package func channel(_ card: RCS380.Target, exchangeTimeout: Double) throws(TransitError) -> RCS380Channel {
        RCS380Channel(reader: try opened(), target: card, readerName: name, exchangeTimeout: exchangeTimeout)
    }

    /// As the process ends on Ctrl-C, from the signal's thread: the reader given back to the kernel
    /// without closing what the command's thread may be using (`LibUSBDevice.giveBackBeforeExit`).
    package func giveBackBeforeExit() { device?.giveBackBeforeExit() }

    /// USB commands sent since the reader was opened (the benchmark's count).
    package var commandsSent: Int { driver?.commandsSent ?? 0 }

    /// Field off, interface released, kernel driver given back; the next sense opens it again.
    package func close() {
        if let driver { try? driver.rfOff() }
        device?.close()
        driver = nil
        device = nil
    }

    private func opened() throws(TransitError) -> RCS380 {
        if let driver { return driver }
        let device = try LibUSBDevice(opening: found)
        do throws(TransitError) {
            let reader = try RCS380(device: device)
            try reader.open()
            if let note = device.driverNote { log(note) }
            log("\(name): firmware \(reader.firmware.map { "\($0)" } ?? "unknown"), Port-100 over libusb")
            self.device = device
            driver = reader
            return reader
        } catch {
            device.close()
            throw error
        }
    }
}

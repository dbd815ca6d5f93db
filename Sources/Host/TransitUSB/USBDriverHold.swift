import Foundation
import TransitModel

/// A chip's driver as a USB reader holds it (`USBDriverHold`): made on an opened device, opened
/// with the chip's own commands, closed with field off and an ACK.
package protocol USBChipDriver: AnyObject {
    /// The chipset it drives, as the reader table names it.
    static var chipset: USBChipset { get }
    /// The driver over `pipe`, named `name` in messages.
    init(pipe: USBPipe, name: String)
    /// The chip's opening commands.
    func open(by deadline: Deadline?) throws(TransitError)
    /// The `--verbose` line once opened: "firmware 1.11, Port-100 over libusb".
    var openedNote: String { get }
    /// True when the chip just stopped answering: a closing command would only wait.
    var silent: Bool { get }
    /// Field off and an ACK.
    func close() throws(TransitError)
}

extension USBChipDriver {
    /// The driver of an opened USB device whose table line names its chipset; any other is a
    /// mistake of the caller's.
    package init(device: LibUSBDevice) throws(TransitError) {
        guard device.found.model.chipset == Self.chipset else {
            throw TransitError(.internal, "\(device.found.readerName) has no \(Self.chipset.id) chip")
        }
        self.init(pipe: device, name: device.found.readerName)
    }
}

/// The device and driver one USB reader holds, whatever its chip: opened at the first look for a
/// card (held by `HeldUSBDevices` from before its kernel driver is detached), given back by
/// `close`, and read from a signal's thread by `giveBackBeforeExit`. The lock every driver took
/// around its device, written once.
// Unchecked: `device` and `driver` are read and written only under `lock`.
package final class USBDriverHold<Driver: USBChipDriver>: @unchecked Sendable {
    package let found: LibUSBDevice.Found
    private let lock = NSLock()
    private var device: LibUSBDevice?
    private var driver: Driver?

    package init(_ found: LibUSBDevice.Found) { self.found = found }

    /// The driver when the reader is open now; nil otherwise.
    package var current: Driver? {
        lock.lock(); defer { lock.unlock() }
        return driver
    }

    /// The open driver, opening the reader first when it is not: its kernel driver detached, the
    /// chip's opening commands sent, `log` told the kernel driver's note and `openedNote`. A reader
    /// that fails to open is given back at once.
    package func opened(by deadline: Deadline, log: (String) -> Void) throws(TransitError) -> Driver {
        if let current { return current }
        let device = try HeldUSBDevices.open(found)
        lock.lock()
        self.device = device
        lock.unlock()
        do throws(TransitError) {
            let reader = try Driver(device: device)
            try reader.open(by: deadline)
            if let note = device.driverNote { log(note) }
            log("\(found.readerName): \(reader.openedNote)")
            lock.lock()
            driver = reader
            lock.unlock()
            return reader
        } catch {
            close()
            throw error
        }
    }

    /// Field off and an ACK (unless the chip just stopped answering: the wait would be for
    /// nothing), interface released, kernel driver given back; the next look opens it again.
    package func close() {
        lock.lock()
        let (device, driver) = (self.device, self.driver)
        self.device = nil
        self.driver = nil
        lock.unlock()
        if let device { HeldUSBDevices.forget(device) }
        if let driver, !driver.silent { try? driver.close() }
        device?.close()
    }

    /// As the process ends on a signal, from the signal's thread: the reader given back to the
    /// kernel without closing what the command's thread may be using.
    package func giveBackBeforeExit() {
        lock.lock()
        let device = self.device
        lock.unlock()
        device?.giveBackBeforeExit()
    }
}

/// A USB reader whose device and driver a `USBDriverHold` keeps: its name, `close`, the give-back
/// on a signal and the opening at the first look, written once for every chipset's reader.
package protocol USBDriverHolding: USBReader {
    associatedtype Driver: USBChipDriver
    var hold: USBDriverHold<Driver> { get }
}

extension USBDriverHolding {
    package var found: LibUSBDevice.Found { hold.found }

    /// "SONY RC-S380/S (USB 1:13)": the table line's maker and model, and where it is on the bus.
    package var name: String { found.readerName }

    /// Field off and an ACK (unless the chip just stopped answering: the wait would be for
    /// nothing), interface released, kernel driver given back; the next look opens it again.
    package func close() { hold.close() }

    /// As the process ends on a signal, from the signal's thread: the reader given back to the
    /// kernel without closing what the command's thread may be using.
    package func giveBackBeforeExit() { hold.giveBackBeforeExit() }

    /// The chip's driver, the reader opened first when it is not (`USBDriverHold.opened`).
    package func opened(by deadline: Deadline) throws(TransitError) -> Driver {
        try hold.opened(by: deadline, log: log)
    }
}

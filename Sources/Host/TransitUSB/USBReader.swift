import Foundation
import TransitModel
import TransitTransport

/// One Sony reader on USB as the USB reader source, its search and its watch use it, whatever its
/// chip: found on the bus without opening it, opened at the first look for a card, given back
/// (kernel driver re-attached) by `close`. Each chipset's driver implements it, and its line in
/// the reader table (`USBReaderTable`, `USBChipset.reader`) makes one for a reader found.
package protocol USBReader: AnyObject {
    /// The reader on the bus, with its table line (`found.model`).
    var found: LibUSBDevice.Found { get }
    /// "SONY RC-S380/S (USB 1:13)".
    var name: String { get }
    /// `--verbose` lines: the kernel driver detached, the firmware, retries.
    var log: (String) -> Void { get set }
    /// What one look at the reader saw: a card, none, or an answer that came back damaged.
    func look(by deadline: Deadline) throws(TransitError) -> USBSight
    /// The card a look found, as a reader channel.
    func channel(_ card: USBCard, exchangeTimeout: Double) throws(TransitError) -> ReaderChannel
    /// After a card was read on a reader kept open (a watch): whatever keeps it from being read
    /// again while it stays: a type A card's HLTA (ISO/IEC 14443-3 6.3.3).
    func halt(by deadline: Deadline)
    /// The reader given back: field off, interface released, kernel driver re-attached.
    func close()
}

extension USBReader {
    /// A card on the reader now; nil when none answers (a damaged answer is none yet).
    package func sense(by deadline: Deadline) throws(TransitError) -> USBCard? {
        guard case .card(let card) = try look(by: deadline) else { return nil }
        return card
    }
}

/// The USB readers on the bus, each with the driver its table line names.
package enum USBReaders {
    /// The readers on the bus whose names contain one of `filters` (any, when there is none): none
    /// where libusb cannot look (no USB in a container), which is no error for a command that may
    /// find a PC/SC reader instead. `bus` lists what is plugged in (libusb's bus, or a test's).
    package static func connected(matching filters: [String],
                                  bus: () throws(TransitError) -> [LibUSBDevice.Found] = { () throws(TransitError) in try LibUSBDevice.list() }) -> [any USBReader] {
        guard let found = try? bus() else { return [] }
        let names = ReaderProfile.selected(found.map(\.readerName), by: filters)
        return found.filter { names.contains($0.readerName) }.map(reader(for:))
    }

    /// The driver of `found`'s chip, as its table line says.
    package static func reader(for found: LibUSBDevice.Found) -> any USBReader {
        found.model.chipset.reader(found)
    }

    /// The Sony readers on the bus transit does not drive, for `doctor` and `readers`: none since
    /// the RC-S956 (issue 46); the place for a model listed before it is driven.
    package static var unsupported: [LibUSBDevice.Found] { [] }
}

/// Every USB device a reader holds open, whatever its chip, given back before the process ends on
/// a signal: the one place a command's end reaches them (`Termination.onEnd` is registered once,
/// in `transit`'s main, through `ReaderSources.giveBackAll`).
package enum HeldUSBDevices {
    private static let lock = NSLock()
    // Safe: used only with `lock` held; its devices' `giveBackBeforeExit` takes their own lock.
    nonisolated(unsafe) private static var held = [ObjectIdentifier: LibUSBDevice]()

    /// Known from before its kernel driver is detached, so that a signal from then on gives it back.
    package static func keep(_ device: LibUSBDevice) {
        lock.lock(); held[ObjectIdentifier(device)] = device; lock.unlock()
    }

    package static func forget(_ device: LibUSBDevice) {
        lock.lock(); held[ObjectIdentifier(device)] = nil; lock.unlock()
    }

    /// Opens `found`, held from before its kernel driver is detached (a signal while the reader is
    /// set up gives it back too), and forgotten again when the opening fails.
    package static func open(_ found: LibUSBDevice.Found) throws(TransitError) -> LibUSBDevice {
        var kept: LibUSBDevice?
        do throws(TransitError) {
            return try LibUSBDevice(opening: found) { kept = $0; keep($0) }
        } catch {
            if let kept { forget(kept) }
            throw error
        }
    }

    /// Every device held, given back to the kernel without closing what a command's thread may use.
    package static func giveBackAll() {
        lock.lock()
        let devices = Array(held.values)
        lock.unlock()
        devices.forEach { $0.giveBackBeforeExit() }
    }
}

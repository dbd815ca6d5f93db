import TransitModel
import TransitTransport

/// The USB readers of the reader table (`USBReaderTable`) as a `ReaderSource`: each opened by its
/// chip's driver to sense a card and given back at once; on exit, every one still held is given back to its kernel
/// driver (`HeldUSBDevices.giveBackAll`). None where libusb cannot look (a container), which is no
/// error: the user may have only PC/SC readers.
package final class USBReaderSource: ReaderSource {
    /// The lines the readers are told by, and what is plugged in: the table and libusb's bus, or
    /// a test's (a chipset's driver skeleton plugged in as a real one is).
    private let table: [USBReaderModel]
    private let bus: @Sendable () throws(TransitError) -> [LibUSBDevice.Found]

    package init(table: [USBReaderModel] = USBReaderTable.lines,
                 bus: @escaping @Sendable () throws(TransitError) -> [LibUSBDevice.Found] = { () throws(TransitError) in try LibUSBDevice.list() }) {
        self.table = table; self.bus = bus
    }

    package var transport: ReaderTransport { .usb }

    package func list(by deadline: Deadline) throws -> ReaderListing {
        ReaderListing(readers: USBReaders.connected(matching: [], bus: bus).map { reader in
            defer { reader.close() }
            do throws(TransitError) {
                let card = try reader.sense(by: deadline)
                return ListedReader(name: reader.name, transport: .usb, atr: card.map(\.atr))
            } catch {
                return ListedReader(name: reader.name, transport: .usb, atr: nil, problem: TransitError(error, while: "looking at \(reader.name)").message)
            }
        })
    }

    package func giveBackAll() { HeldUSBDevices.giveBackAll() }

    package func search(filter: String?, exchangeTimeout: Double, log: @escaping (String) -> Void) -> CardSearch {
        USBCardSearch(filter: filter, exchangeTimeout: exchangeTimeout, log: log)
    }

    package func watch(filters: [String], exchangeTimeout: Double, log: @escaping (String) -> Void, handler: TapHandler) -> TapWatch {
        USBTapWatch(filters: filters, exchangeTimeout: exchangeTimeout, log: log, handler: handler)
    }

    /// The USB section, always there: libusb usable; each Sony reader on the bus, and for each
    /// whether this user may open it (opened alone, nothing claimed or detached) and which kernel
    /// driver holds it (its own, the table line's, is detached while transit reads and given back
    /// after); transit's udev rule, the group it names
    /// and this user's place in it. A reader that cannot be opened gets the one fix that applies
    /// (`USBAccess.fix`).
    package func check() -> SourceCheck {
        var checks = [ReaderFinding]()
        let found: [LibUSBDevice.Found]
        do throws(TransitError) {
            found = try bus()
            checks.append(ReaderFinding(check: "libusb", ok: true, detail: "usable", fix: nil))
        } catch {
            found = []
            checks.append(ReaderFinding(check: "libusb", ok: true, detail: "\(error.message): no USB reader can be used here (PC/SC readers can)", fix: nil))
        }
        let access = USBAccess.here()
        for family in USBReaderTable.families(table) where !found.contains(where: { $0.model.family == family }) {
            let lines = table.filter { $0.family == family }
            let ids = lines.map { Self.hex($0.vendor) + ":" + Self.hex($0.product) }
            checks.append(ReaderFinding(check: family, ok: true, detail: "none on USB (`lsusb -d \(Self.hex(lines[0].vendor)):` lists \(lines[0].maker)'s readers: "
                                        + "\(ids.joined(separator: " and ")) \(ids.count == 1 ? "is" : "are") the \(family)'s)", fix: nil))
        }
        var blocked = false
        for reader in found {
            let check = "reader \(reader.readerName)"
            let own = reader.model.kernelDriver
            let bound = reader.boundDriver.map { "the kernel's \($0) driver holds it (transit detaches it while it reads and gives it back)" }
                ?? "no kernel driver holds it"
            // Only the reader's own driver is ever detached (issue 36 §4): a device with the
            // reader's ids that another driver holds (usbhid, usb-storage) is not read, and said so.
            if let other = reader.boundDriver, other != own {
                checks.append(ReaderFinding(check: check, ok: false,
                                          detail: "the kernel's \(other) driver holds it, not \(own): transit detaches no other driver, so it does not read this device",
                                          fix: "check that it is a \(reader.model.maker) \(reader.model.family) (`lsusb -d \(Self.hex(reader.model.vendor)):`); a real one is bound by \(own) or by no driver"))
                continue
            }
            do throws(TransitError) {
                try LibUSBDevice.checkAccess(reader)
                checks.append(ReaderFinding(check: check, ok: true,
                                          detail: "USB, read without pcscd; \(reader.node) can be opened; \(bound); "
                                            + reader.model.chipset.reads, fix: nil))
            } catch {
                let noAccess = error.message.contains("no write access")
                blocked = blocked || noAccess
                let fix = error.message.contains("bulk IN and OUT")
                    ? "this device is no reader transit can drive (its descriptors have no bulk endpoints); unplug it"
                    : noAccess ? access.fix + (reader.model.chipset.driverMayTakeItBack ? " (the kernel's \(own) driver may stay bound: transit detaches it while it reads)" : "")
                    : error.kind == .noReader ? "plug the reader in again" : "close the program that holds the reader (nfcpy…) and try again"
                checks.append(ReaderFinding(check: check, ok: false, detail: "cannot be opened: \(error.message); \(bound)", fix: fix))
            }
        }
        // Facts, a problem only where they keep a reader closed (the reader's line has the fix).
        checks.append(ReaderFinding(check: "udev rule", ok: !blocked || access.rulePath != nil, detail: access.ruleDetail, fix: nil))
        if access.rulePath != nil {
            checks.append(ReaderFinding(check: "group", ok: !blocked || access.inGroup, detail: access.groupDetail, fix: nil))
        }
        return SourceCheck(findings: checks, readers: found.count, unsupported: USBReaders.unsupported.map(\.readerName))
    }

    /// Four lower-case hexadecimal digits, as lsusb shows an ID: "054c".
    private static func hex(_ id: UInt16) -> String {
        let digits = String(id, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

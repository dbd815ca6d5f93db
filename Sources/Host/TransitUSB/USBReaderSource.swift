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
            checks.append(ReaderFinding(check: L10n.Words("libusb"), ok: true, detail: L10n.words("usable"), fix: nil))
        } catch {
            found = []
            checks.append(ReaderFinding(check: L10n.Words("libusb"), ok: true,
                                        detail: L10n.words("%1$s: no USB reader can be used here (PC/SC readers can)", error.words), fix: nil))
        }
        let access = USBAccess.here()
        for family in USBReaderTable.families(table) where !found.contains(where: { $0.model.family == family }) {
            let lines = table.filter { $0.family == family }
            // TRANSLATORS: between the USB IDs of one reader model, "054c:06c1 and 054c:06c3".
            let ids = lines.map { L10n.Words(Self.hex($0.vendor) + ":" + Self.hex($0.product)) }.joined(separator: L10n.words(" and "))
            // TRANSLATORS: %1$s is a vendor ID (054c), %2$s its maker (Sony), %3$s the product IDs, %4$s the model (RC-S380).
            let none = L10n.wordsn("none on USB (`lsusb -d %1$s:` lists %2$s's readers: %3$s is the %4$s's)",
                                   "none on USB (`lsusb -d %1$s:` lists %2$s's readers: %3$s are the %4$s's)", lines.count,
                                   .init(Self.hex(lines[0].vendor)), .init(lines[0].maker), ids, .init(family))
            checks.append(ReaderFinding(check: L10n.Words(family), ok: true, detail: none, fix: nil))
        }
        var blocked = false
        for reader in found {
            let check = L10n.words("reader %1$s", .init(reader.readerName))
            let own = reader.model.kernelDriver
            let bound = reader.boundDriver.map { L10n.words("the kernel's %1$s driver holds it (transit detaches it while it reads and gives it back)", .init($0)) }
                ?? L10n.words("no kernel driver holds it")
            // Only the reader's own driver is ever detached (issue 36 §4): a device with the
            // reader's ids that another driver holds (usbhid, usb-storage) is not read, and said so.
            if let other = reader.boundDriver, other != own {
                checks.append(ReaderFinding(check: check, ok: false,
                                          detail: L10n.words("the kernel's %1$s driver holds it, not %2$s: transit detaches no other driver, so it does not read this device",
                                                             .init(other), .init(own)),
                                          fix: L10n.words("check that it is a %1$s %2$s (`lsusb -d %3$s:`); a real one is bound by %4$s or by no driver",
                                                          .init(reader.model.maker), .init(reader.model.family), .init(Self.hex(reader.model.vendor)), .init(own))))
                continue
            }
            do throws(TransitError) {
                try LibUSBDevice.checkAccess(reader)
                checks.append(ReaderFinding(check: check, ok: true,
                                          detail: L10n.words("USB, read without pcscd; %1$s can be opened; %2$s; %3$s", .init(reader.node), bound,
                                                             L10n.Words(english: reader.model.chipset.reads, said: L10n.translated(reader.model.chipset.reads))),
                                          fix: nil))
            } catch {
                let noAccess = error.message.contains("no write access")
                blocked = blocked || noAccess
                let fix = error.message.contains("bulk IN and OUT")
                    ? L10n.words("this device is no reader transit can drive (its descriptors have no bulk endpoints); unplug it")
                    : noAccess ? access.fixWords + (reader.model.chipset.driverMayTakeItBack
                                                    ? L10n.words(" (the kernel's %1$s driver may stay bound: transit detaches it while it reads)", .init(own)) : L10n.Words(""))
                    : error.kind == .noReader ? L10n.words("plug the reader in again") : L10n.words("close the program that holds the reader (nfcpy…) and try again")
                checks.append(ReaderFinding(check: check, ok: false, detail: L10n.words("cannot be opened: %1$s; %2$s", error.words, bound), fix: fix))
            }
        }
        // Facts, a problem only where they keep a reader closed (the reader's line has the fix).
        checks.append(ReaderFinding(check: L10n.words("udev rule"), ok: !blocked || access.rulePath != nil, detail: access.ruleWords, fix: nil))
        if access.rulePath != nil {
            checks.append(ReaderFinding(check: L10n.words("group"), ok: !blocked || access.inGroup, detail: access.groupWords, fix: nil))
        }
        return SourceCheck(findings: checks, readers: found.count, unsupported: USBReaders.unsupported.map(\.readerName))
    }

    /// Four lower-case hexadecimal digits, as lsusb shows an ID: "054c".
    private static func hex(_ id: UInt16) -> String {
        let digits = String(id, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

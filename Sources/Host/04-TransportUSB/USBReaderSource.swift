import TransitModel
import TransitTransport

/// The RC-S380s on USB as a `ReaderSource`: each opened to sense a card (a Polling at 212, then
/// 424 kbit/s, then a type A sense) and given back at once; on exit, every one still held is given back to its kernel
/// driver (`HeldUSBDevices.giveBackAll`). None where libusb cannot look (a container), which is no
/// error: the user may have only PC/SC readers.
package final class USBReaderSource: ReaderSource {
    package init() {}

    package var transport: ReaderTransport { .usb }

    package func list(by deadline: Deadline) throws -> ReaderListing {
        ReaderListing(readers: USBReaders.connected(matching: []).map { reader in
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
    /// RC-S380 whether this user may open it (opened alone, nothing claimed or detached) and which
    /// kernel driver holds it (port100 is detached while transit reads and given back after);
    /// transit's udev rule, the group it names and this user's place in it. An RC-S330/360/370 is
    /// said to be a reader transit does not drive yet. A reader that cannot be opened gets the one
    /// fix that applies (`USBAccess.fix`).
    package func check() -> SourceCheck {
        var checks = [ReaderFinding]()
        let found: [LibUSBDevice.Found]
        do throws(TransitError) {
            found = try LibUSBDevice.list()
            checks.append(ReaderFinding(check: "libusb", ok: true, detail: "usable", fix: nil))
        } catch {
            found = []
            checks.append(ReaderFinding(check: "libusb", ok: true, detail: "\(error.message): no USB reader can be used here (PC/SC readers can)", fix: nil))
        }
        let access = USBAccess.here()
        let rcs380s = found.filter { $0.model.chipset == .port100 }
        if rcs380s.isEmpty {
            checks.append(ReaderFinding(check: "RC-S380", ok: true, detail: "none on USB (`lsusb -d 054c:` lists Sony's readers: 06c1 and 06c3 are RC-S380s)", fix: nil))
        }
        var blocked = false
        for reader in found {
            let check = "reader \(reader.readerName)"
            guard reader.model.chipset == .port100 else {
                checks.append(ReaderFinding(check: check, ok: false, detail: "an RC-S956 reader (054c:02e1), which transit does not drive yet (only the RC-S380)",
                                          fix: "read FeliCa cards with an RC-S380, an RC-S300 or another PC/SC reader (docs/readers.md)"))
                continue
            }
            let bound = reader.boundDriver.map { "the kernel's \($0) driver holds it (transit detaches it while it reads and gives it back)" }
                ?? "no kernel driver holds it"
            // Only port100 is ever detached (issue 36 §4): a device with the reader's ids that
            // another driver holds (usbhid, usb-storage) is not read, and said so.
            if let other = reader.boundDriver, other != "port100" {
                checks.append(ReaderFinding(check: check, ok: false,
                                          detail: "the kernel's \(other) driver holds it, not port100: transit detaches no other driver, so it does not read this device",
                                          fix: "check that it is a Sony RC-S380 (`lsusb -d 054c:`); a real one is bound by port100 or by no driver"))
                continue
            }
            do throws(TransitError) {
                try LibUSBDevice.checkAccess(reader)
                checks.append(ReaderFinding(check: check, ok: true,
                                          detail: "USB, read without pcscd; \(reader.node) can be opened; \(bound); FeliCa cards and MIFARE Ultralight tickets (not MIFARE Classic)", fix: nil))
            } catch {
                let noAccess = error.message.contains("no write access")
                blocked = blocked || noAccess
                let fix = error.message.contains("bulk IN and OUT")
                    ? "this device is no reader transit can drive (its descriptors have no bulk endpoints); unplug it"
                    : noAccess ? access.fix
                    : error.kind == .noReader ? "plug the reader in again" : "close the program that holds the reader (nfcpy…) and try again"
                checks.append(ReaderFinding(check: check, ok: false, detail: "cannot be opened: \(error.message); \(bound)", fix: fix))
            }
        }
        // Facts, a problem only where they keep a reader closed (the reader's line has the fix).
        checks.append(ReaderFinding(check: "udev rule", ok: !blocked || access.rulePath != nil, detail: access.ruleDetail, fix: nil))
        if access.rulePath != nil {
            checks.append(ReaderFinding(check: "group", ok: !blocked || access.inGroup, detail: access.groupDetail, fix: nil))
        }
        return SourceCheck(findings: checks, readers: rcs380s.count, unsupported: found.filter { $0.model.chipset != .port100 }.map(\.readerName))
    }
}


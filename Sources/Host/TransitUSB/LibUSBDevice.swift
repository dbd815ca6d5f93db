import CLibUSB
import Foundation
import TransitModel

/// A Sony reader opened with libusb-1.0: its interface claimed, its bulk endpoints found from the
/// descriptors (never assumed: docs/research/port100.md §"USB identity"), the kernel's driver (port100 binds an
/// RC-S380, docs/research/port100.md §"Kernel driver") detached for as long as transit holds the reader and re-attached on close.
/// Every transfer has a timeout from its deadline. Not thread-safe: one read uses it at a time.
package final class LibUSBDevice: USBPipe {
    /// A reader on the bus, before it is opened.
    package struct Found: Equatable, Sendable {
        package let model: USBReaderModel
        package let bus: UInt8
        package let address: UInt8
        /// The ports from the root hub to the reader ("1-4.2" in sysfs is bus 1, ports 4 and 2).
        package let ports: [UInt8]

        package init(model: USBReaderModel, bus: UInt8, address: UInt8, ports: [UInt8] = []) {
            self.model = model; self.bus = bus; self.address = address; self.ports = ports
        }

        /// The kernel driver bound to the reader's interface 0 now ("port100"), from sysfs
        /// (/sys/bus/usb/devices/BUS-PORTS:1.0/driver, configuration 1: the RC-S380 has one); nil
        /// when none is, or it cannot be told.
        package var boundDriver: String? { driver(configuration: 1, interface: 0) }

        /// The kernel driver bound to `interface` of `configuration`, from sysfs
        /// (/sys/bus/usb/devices/BUS-PORTS:CONFIG.INTERFACE/driver); nil when none is, or it cannot be told.
        package func driver(configuration: Int32, interface: Int32) -> String? {
            guard !ports.isEmpty else { return nil }
            let link = "/sys/bus/usb/devices/\(bus)-\(ports.map(String.init).joined(separator: ".")):\(configuration).\(interface)/driver"
            return (try? FileManager.default.destinationOfSymbolicLink(atPath: link)).map { ($0 as NSString).lastPathComponent }
        }

        /// "SONY RC-S380/S (USB 1:13)".
        package var readerName: String { model.readerName(bus: bus, address: address) }
        /// The device node libusb opens, "/dev/bus/usb/001/013".
        package var node: String { "/dev/bus/usb/" + Self.threeDigits(bus) + "/" + Self.threeDigits(address) }

        private static func threeDigits(_ n: UInt8) -> String { String(repeating: "0", count: max(0, 3 - String(n).count)) + String(n) }
    }

    /// The interface and endpoints the descriptors name.
    package struct Endpoints: Equatable, Sendable {
        package let interface: Int32
        package let bulkIn: UInt8
        package let bulkOut: UInt8
        /// The OUT endpoint's wMaxPacketSize: a transfer of a whole number of them ends with a zero-length packet.
        package let maxPacketSize: Int
    }

    package let found: Found
    package let endpoints: Endpoints
    /// True when a kernel driver was bound and detached to claim the reader; it is re-attached on close.
    package private(set) var detachedKernelDriver = false
    /// The detached driver's name from sysfs ("port100"); nil when it could not be told.
    package private(set) var kernelDriverName: String?
    private var context: OpaquePointer?
    private var handle: OpaquePointer?
    /// Held while the handle is given back or taken away: `giveBackBeforeExit` runs on a signal's
    /// thread while the command's may be closing.
    private let handover = NSLock()
    /// Set by `giveBackBeforeExit`: no transfer starts after it (the kernel would claim the
    /// interface again for one, and keep its driver out).
    private var givenBack = false

    /// Endpoint descriptor fields (USB 2.0, 9.6.6): bmAttributes bits 0–1 are the transfer type,
    /// bEndpointAddress bit 7 the direction.
    private static let transferTypeMask = UInt8(LIBUSB_TRANSFER_TYPE_MASK)
    private static let bulk = UInt8(LIBUSB_ENDPOINT_TRANSFER_TYPE_BULK.rawValue)
    private static let directionIn = UInt8(LIBUSB_ENDPOINT_IN.rawValue)

    /// The Sony readers connected (`USBReaderModel`), in bus order; listing needs no access to them.
    package static func list() throws(TransitError) -> [Found] {
        let context = try start()
        defer { libusb_exit(context) }
        return try devices(context) { _, found in found }
    }

    /// Opens `found`: the device, its endpoints, the kernel driver detached, interface claimed.
    /// `holding` learns of the device before anything is detached, so a signal from then on gives
    /// it back (issue 36 §1: a SIGTERM between a detach and the registration left the kernel driver out).
    /// A reader unplugged since it was listed is `noReader`; no access to its node, a reader
    /// another program holds and one another kernel driver than port100 holds are `communication`
    /// (exit 5) errors that name it and say what to do.
    package init(opening found: Found, holding: (LibUSBDevice) -> Void = { _ in }) throws(TransitError) {
        self.found = found
        let context = try Self.start()
        var opened: (OpaquePointer, Endpoints)?
        do throws(TransitError) {
            // A reference of our own: the list's go when it is freed.
            let matches = try Self.devices(context) { device, candidate in
                candidate == found ? libusb_ref_device(device) : nil
            }
            defer { matches.forEach { libusb_unref_device($0) } }
            guard let device = matches.first else {
                throw TransitError(.noReader, L10n.words("%1$s is no longer connected", .init(found.readerName)))
            }
            let endpoints = try Self.endpoints(device, found)
            var handle: OpaquePointer?
            let rv = libusb_open(device, &handle)
            guard rv == 0, let handle else { throw Self.openError(rv, found, doing: L10n.words("open")) }
            opened = (handle, endpoints)
        } catch {
            libusb_exit(context)
            throw error
        }
        guard let (handle, endpoints) = opened else { libusb_exit(context); throw TransitError(.internal, "libusb opened nothing") }
        self.context = context
        self.handle = handle
        self.endpoints = endpoints
        holding(self)
        do throws(TransitError) {
            try claim(handle)
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    /// What `--verbose` says of the kernel driver: detached and re-attached, or nothing.
    package var driverNote: String? {
        guard detachedKernelDriver else { return nil }
        return "detached the kernel's \(kernelDriverName.map { $0 + " " } ?? "")driver from \(found.readerName) (interface "
            + "\(endpoints.interface)); it is re-attached when transit lets go"
    }

    /// As the process ends on a signal, from another thread than the one that may be inside a
    /// transfer: the interface released (the kernel ends what is under way) and the kernel's driver
    /// given back, nothing closed or freed (libusb's locks may be held; the process ends next).
    /// A transfer already under way when it is called may make the kernel claim the interface
    /// again as it ends: the driver is then given back once more, a few times at most.
    package func giveBackBeforeExit() {
        handover.lock()
        defer { handover.unlock() }
        givenBack = true
        guard let handle else { return }
        for _ in 0 ..< 5 {
            libusb_release_interface(handle, endpoints.interface)
            guard detachedKernelDriver, libusb_attach_kernel_driver(handle, endpoints.interface) != 0 else { return }
            usleep(20_000)
        }
    }

    /// Releases the interface, gives the kernel its driver back, closes the device. Idempotent.
    package func close() {
        handover.lock()
        let (handle, context) = (self.handle, self.context)
        if let handle {
            libusb_release_interface(handle, endpoints.interface)
            if detachedKernelDriver { libusb_attach_kernel_driver(handle, endpoints.interface) }
        }
        self.handle = nil
        self.context = nil
        handover.unlock()
        if let handle { libusb_close(handle) }
        if let context { libusb_exit(context) }
    }

    /// Whether this user may open `found`'s device node, asked by opening it alone: no interface
    /// claimed, no kernel driver touched (`doctor`). Throws what opening for a read would: no
    /// interface with bulk IN and OUT endpoints too.
    package static func checkAccess(_ found: Found) throws(TransitError) {
        let context = try start()
        defer { libusb_exit(context) }
        let matches = try devices(context) { device, candidate in candidate == found ? libusb_ref_device(device) : nil }
        defer { matches.forEach { libusb_unref_device($0) } }
        guard let device = matches.first else { throw TransitError(.noReader, L10n.words("%1$s is no longer connected", .init(found.readerName))) }
        _ = try endpoints(device, found) // the bulk endpoints a read needs, as opening for one checks
        var handle: OpaquePointer?
        let rv = libusb_open(device, &handle)
        guard rv == 0, let handle else { throw openError(rv, found, doing: L10n.words("open")) }
        libusb_close(handle)
    }

    package func write(_ bytes: [UInt8], deadline: Deadline) throws(TransitError) {
        var buffer = bytes
        let (rv, sent) = try transfer(endpoints.bulkOut, &buffer, length: buffer.count, deadline: deadline)
        guard rv == 0, sent == bytes.count else {
            if rv == LIBUSB_ERROR_TIMEOUT.rawValue || rv == 0 {
                throw TransitError(.communication, "\(found.readerName) did not take a command (\(sent) of \(bytes.count) bytes by its deadline)")
            }
            throw failure(rv, "sending to")
        }
        // A transfer of whole packets has no short packet to end it: a zero-length one does
        // (nfcpy transport.py; port100.c sets URB_ZERO_PACKET; docs/research/port100.md §"USB identity").
        guard !bytes.isEmpty, bytes.count % endpoints.maxPacketSize == 0 else { return }
        var none: [UInt8] = [0] // libusb takes a buffer even for a zero-length packet
        let (zrv, _) = try transfer(endpoints.bulkOut, &none, length: 0, deadline: deadline)
        guard zrv == 0 else { throw failure(zrv, "ending a transfer to") }
    }

    package func read(maxLength: Int, deadline: Deadline) throws(TransitError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: max(1, maxLength))
        let (rv, got) = try transfer(endpoints.bulkIn, &buffer, length: buffer.count, deadline: deadline)
        // A timeout may still have brought part of a frame.
        guard rv == 0 || rv == LIBUSB_ERROR_TIMEOUT.rawValue else { throw failure(rv, "reading from") }
        return Array(buffer.prefix(max(0, min(got, buffer.count))))
    }

    /// One bulk transfer with a timeout of what is left until `deadline` (at least 1 ms: libusb
    /// reads 0 as "wait for ever"); an interrupted one is tried again within the deadline.
    /// Returns libusb's code and the bytes moved; a transfer with no time left moves nothing.
    private func transfer(_ endpoint: UInt8, _ buffer: inout [UInt8], length: Int, deadline: Deadline) throws(TransitError) -> (Int32, Int) {
        guard let handle else { throw TransitError(.communication, "\(found.readerName) is closed") }
        let count = Int32(clamping: min(length, buffer.count))
        while true {
            let left = deadline.secondsLeft
            guard left > 0 else { return (LIBUSB_ERROR_TIMEOUT.rawValue, 0) }
            let milliseconds = UInt32(min(Double(UInt32.max), max(1, (left * 1000).rounded(.up))))
            handover.lock()
            let stopped = givenBack
            handover.unlock()
            guard !stopped else { return (LIBUSB_ERROR_IO.rawValue, 0) }
            var moved: Int32 = 0
            let rv = buffer.withUnsafeMutableBufferPointer { bytes in
                libusb_bulk_transfer(handle, endpoint, bytes.baseAddress, count, &moved, milliseconds)
            }
            if rv == LIBUSB_ERROR_INTERRUPTED.rawValue && moved == 0 { continue }
            return (rv, Int(moved))
        }
    }

    /// A failed transfer's error: unplugged is `sessionLost` (the card's session went with the
    /// reader), anything else `communication`.
    private func failure(_ rv: Int32, _ doing: String) -> TransitError {
        if rv == LIBUSB_ERROR_NO_DEVICE.rawValue {
            return TransitError(.sessionLost, L10n.words("%1$s was unplugged during the read", .init(found.readerName)))
        }
        return TransitError(.communication, "\(doing) \(found.readerName) failed: \(Self.name(rv))")
    }

    /// The kernel driver transit detaches from `found`: the reader's own (`USBChipset.kernelDriver`,
    /// from the reader table). Any other bound to a device with
    /// its ids (usb-storage, usbhid: a gadget posing as one) is left bound.
    package static func readerDriver(_ found: Found) -> String { found.model.kernelDriver }

    /// Detaches a bound kernel driver (the reader's own alone: `readerDriver`), then claims the interface. Detaching needs
    /// only write access to the device node (docs/research/port100.md §"Kernel driver"). libusb's automatic
    /// detach is not used: under umockdev it makes the claim fail (same section), and this way transit knows
    /// what it detached. Done under `handover`: a signal's give-back waits for it and then
    /// re-attaches, and after a give-back nothing is detached.
    private func claim(_ handle: OpaquePointer) throws(TransitError) {
        handover.lock()
        defer { handover.unlock() }
        guard !givenBack else { throw TransitError(.cancelled, "\(found.readerName) was given back before it was claimed") }
        let interface = endpoints.interface
        if libusb_kernel_driver_active(handle, interface) == 1 {
            var configuration: Int32 = 1
            _ = libusb_get_configuration(handle, &configuration)
            kernelDriverName = found.driver(configuration: configuration, interface: interface)
            let own = Self.readerDriver(found), model = found.model.family
            guard kernelDriverName == own else {
                let holder = kernelDriverName.map { L10n.words("%1$s driver", .init(TerminalText.escape($0))) }
                    ?? L10n.words("driver of another name than %1$s", .init(own))
                // TRANSLATORS: %2$s is "port100 driver" or "driver of another name than port100"; %3$s a kernel driver, %4$s a model (RC-S380).
                throw TransitError(.communication, L10n.words("cannot open %1$s: the kernel's %2$s holds it, and transit detaches only %3$s, the %4$s's own; a device with the %4$s's ids that another driver takes may not be one (see lsusb -t and journalctl -k)",
                                                              .init(found.readerName), holder, .init(own), .init(model)))
            }
            let rv = libusb_detach_kernel_driver(handle, interface)
            guard rv == 0 else { throw Self.openError(rv, found, doing: kernelDriverName.map { L10n.words("detach the kernel's %1$s driver from", .init($0)) }
                                                                                      ?? L10n.words("detach the kernel's driver from")) }
            detachedKernelDriver = true
        }
        let rv = libusb_claim_interface(handle, interface)
        guard rv == 0 else { throw Self.openError(rv, found, doing: L10n.words("claim")) }
    }

    /// Where opening or claiming failed, said so a person can act: the access to give, the
    /// program to close, the cable.
    private static func openError(_ rv: Int32, _ found: Found, doing: L10n.Words) -> TransitError {
        let reader = L10n.Words(found.readerName) // "… (USB bus:device)"
        let driver = L10n.Words(found.model.kernelDriver)
        // TRANSLATORS: in these, %1$s is what failed ("open", "claim", "detach the kernel's port100 driver from"), %2$s the reader.
        switch rv {
        case LIBUSB_ERROR_ACCESS.rawValue:
            return TransitError(.communication, found.model.chipset.driverMayTakeItBack
                ? L10n.words("cannot %1$s %2$s: no write access to %3$s. transit's udev rule %4$s gives it to the person at the desktop and to group transit: the .deb installs it in /usr/lib/udev/rules.d, make install in /etc/udev/rules.d (or copy packaging/udev/%4$s there); then run sudo udevadm control --reload && sudo udevadm trigger, or replug the reader. The kernel's %5$s driver may stay bound: transit detaches it while it reads (with that same access) and gives it back",
                             doing, reader, .init(found.node), .init(USBAccess.ruleName), driver)
                : L10n.words("cannot %1$s %2$s: no write access to %3$s. transit's udev rule %4$s gives it to the person at the desktop and to group transit: the .deb installs it in /usr/lib/udev/rules.d, make install in /etc/udev/rules.d (or copy packaging/udev/%4$s there); then run sudo udevadm control --reload && sudo udevadm trigger, or replug the reader",
                             doing, reader, .init(found.node), .init(USBAccess.ruleName)))
        case LIBUSB_ERROR_BUSY.rawValue:
            return TransitError(.communication, found.model.chipset.driverMayTakeItBack
                ? L10n.words("cannot %1$s %2$s: the reader is busy (another program, e.g. nfcpy, holds it, or the kernel's %3$s driver took it back)", doing, reader, driver)
                : L10n.words("cannot %1$s %2$s: the reader is busy (another program, e.g. nfcpy, holds it)", doing, reader))
        case LIBUSB_ERROR_NO_DEVICE.rawValue:
            return TransitError(.noReader, L10n.words("cannot %1$s %2$s: it was unplugged", doing, reader))
        default:
            return TransitError(.communication, L10n.words("cannot %1$s %2$s: %3$s", doing, reader, .init(name(rv))))
        }
    }

    /// Starts a libusb context.
    private static func start() throws(TransitError) -> OpaquePointer {
        var context: OpaquePointer?
        let rv = libusb_init(&context)
        guard rv == 0, let context else { throw TransitError(.noReader, L10n.words("libusb could not start: %1$s", .init(name(rv)))) }
        return context
    }

    /// `pick` applied to every Sony reader on `context`'s buses, the nils left out.
    private static func devices<T>(_ context: OpaquePointer, _ pick: (OpaquePointer, Found) -> T?) throws(TransitError) -> [T] {
        var list: UnsafeMutablePointer<OpaquePointer?>?
        let count = libusb_get_device_list(context, &list)
        guard count >= 0, let list else { throw TransitError(.noReader, L10n.words("libusb could not list the USB devices: %1$s", .init(name(Int32(clamping: count))))) }
        defer { libusb_free_device_list(list, 1) }
        var picked = [T]()
        for index in 0 ..< count {
            guard let device = list[index] else { continue }
            var descriptor = libusb_device_descriptor()
            guard libusb_get_device_descriptor(device, &descriptor) == 0,
                  let model = USBReaderModel(vendor: descriptor.idVendor, product: descriptor.idProduct) else { continue }
            var ports = [UInt8](repeating: 0, count: 8)
            let depth = libusb_get_port_numbers(device, &ports, Int32(ports.count))
            let found = Found(model: model, bus: libusb_get_bus_number(device), address: libusb_get_device_address(device),
                              ports: Array(ports.prefix(Int(max(0, depth)))))
            if let value = pick(device, found) { picked.append(value) }
        }
        return picked
    }

    /// The first interface of the active configuration with one bulk IN and one bulk OUT endpoint
    /// (the RC-S380 has one such interface, 0: docs/research/port100.md §"USB identity").
    private static func endpoints(_ device: OpaquePointer, _ found: Found) throws(TransitError) -> Endpoints {
        var config: UnsafeMutablePointer<libusb_config_descriptor>?
        let rv = libusb_get_active_config_descriptor(device, &config)
        guard rv == 0, let config else { throw openError(rv, found, doing: L10n.words("read the configuration of")) }
        defer { libusb_free_config_descriptor(config) }
        guard let interfaces = config.pointee.interface else { throw noEndpoints(found) }
        for i in 0 ..< Int(config.pointee.bNumInterfaces) {
            let interface = interfaces[i]
            guard interface.num_altsetting > 0, let setting = interface.altsetting?.pointee, let list = setting.endpoint else { continue }
            var bulkIn: UInt8?, bulkOut: UInt8?, packet = 0
            for e in 0 ..< Int(setting.bNumEndpoints) {
                let endpoint = list[e]
                guard endpoint.bmAttributes & transferTypeMask == bulk else { continue }
                if endpoint.bEndpointAddress & directionIn != 0 {
                    bulkIn = bulkIn ?? endpoint.bEndpointAddress
                } else if bulkOut == nil {
                    bulkOut = endpoint.bEndpointAddress
                    packet = Int(endpoint.wMaxPacketSize & 0x07FF) // bits 0–10: the size (USB 2.0, 9.6.6)
                }
            }
            if let bulkIn, let bulkOut, packet > 0 {
                return Endpoints(interface: Int32(setting.bInterfaceNumber), bulkIn: bulkIn, bulkOut: bulkOut, maxPacketSize: packet)
            }
        }
        throw noEndpoints(found)
    }

    private static func noEndpoints(_ found: Found) -> TransitError {
        TransitError(.noReader, L10n.words("%1$s has no interface with bulk IN and OUT endpoints: not a reader transit drives", .init(found.readerName)))
    }

    private static func name(_ rv: Int32) -> String {
        libusb_error_name(rv).map { String(cString: $0) } ?? "libusb error \(rv)"
    }

}

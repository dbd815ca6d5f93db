import TransitModel
import TransitTransport

/// A chip behind a USB reader's endpoints, as the reader table names it: its driver (a
/// `USBReader`), the kernel driver that binds it, and what it reads, said to people. A new
/// chipset is a driver, one `USBChipset` and a table line (`USBReaderTable.lines`), with its
/// udev IDs (packaging/udev/60-transit-pasori.rules).
package struct USBChipset: Equatable, Sendable {
    /// Tells one chipset from another ("port100").
    package let id: String
    /// The kernel driver that binds the reader and that transit detaches while it reads (and no
    /// other).
    package let kernelDriver: String
    /// True when the kernel driver may take the reader back between reads (a hint in the access
    /// and busy messages).
    package let driverMayTakeItBack: Bool
    /// What a reader of the chip reads, for `doctor`: "FeliCa cards and MIFARE Ultralight tickets
    /// (not MIFARE Classic)".
    package let reads: String
    /// The cards it reads, for the note after a search found none: "FeliCa cards and MIFARE
    /// Ultralight tickets only: Suica, …".
    package let readsOnly: String
    /// The driver of a reader of the chip found on the bus.
    package let reader: @Sendable (LibUSBDevice.Found) -> any USBReader

    package init(id: String, kernelDriver: String, driverMayTakeItBack: Bool = false, reads: String, readsOnly: String,
                 reader: @escaping @Sendable (LibUSBDevice.Found) -> any USBReader) {
        self.id = id; self.kernelDriver = kernelDriver; self.driverMayTakeItBack = driverMayTakeItBack
        self.reads = reads; self.readsOnly = readsOnly; self.reader = reader
    }

    package static func == (a: USBChipset, b: USBChipset) -> Bool { a.id == b.id }
}

/// One line of the USB reader table: a vendor and product ID, the model as people know it, the
/// family its user text names, its chip, and its line of the reader table (`ReaderProfile`).
package struct USBReaderModel: Hashable, Sendable {
    package typealias Chipset = USBChipset

    package let vendor: UInt16
    package let product: UInt16
    /// The maker: "Sony" (the reader's name begins with it in capitals, "SONY", as nfcpy and pcscd write it).
    package let maker: String
    /// The model as people know it, as the reader's name shows it: "RC-S380/S".
    package let name: String
    /// The models one sentence names together: "RC-S380" for /S and /P.
    package let family: String
    package let chipset: USBChipset
    /// What a read, `transit readers` and `doctor` know of the model: its dialect, what it cannot
    /// read and why, where the facts come from. Its patterns match `readerName`'s name; the lines of
    /// one family share it.
    package let profile: ReaderProfile

    package init(vendor: UInt16, product: UInt16, maker: String = "Sony", name: String, family: String, chipset: USBChipset,
                 profile: ReaderProfile) {
        self.vendor = vendor; self.product = product; self.maker = maker; self.name = name; self.family = family; self.chipset = chipset
        self.profile = profile
    }

    /// The reader's name on USB bus `bus`, device `address`: "SONY RC-S380/S (USB 1:13)".
    package func readerName(bus: UInt8, address: UInt8) -> String {
        "\(maker.uppercased()) \(name) (USB \(bus):\(address))"
    }

    /// The product ID.
    package var rawValue: UInt16 { product }
    package var kernelDriver: String { chipset.kernelDriver }

    /// The line of a vendor and product ID pair in the table; nil for anything else.
    package init?(vendor: UInt16, product: UInt16) {
        guard let line = USBReaderTable.line(vendor: vendor, product: product) else { return nil }
        self = line
    }

    package static func == (a: USBReaderModel, b: USBReaderModel) -> Bool { a.vendor == b.vendor && a.product == b.product }
    package func hash(into hasher: inout Hasher) { hasher.combine(vendor); hasher.combine(product) }

    /// Sony's USB vendor ID.
    package static let sonyVendor: UInt16 = 0x054C
}

/// The USB readers transit drives, one line a model (docs/research/port100.md §"USB identity";
/// nfcpy device.py, port100.c `port100_table`; the kernel's pn533 usb.c). The udev rule grants
/// access to exactly these IDs (UdevRuleTests).
package enum USBReaderTable {
    package static let lines: [USBReaderModel] = [.rcs380S, .rcs380P, .rcs956]

    /// The line of `vendor` and `product` in `table`.
    package static func line(vendor: UInt16, product: UInt16, in table: [USBReaderModel] = lines) -> USBReaderModel? {
        table.first { $0.vendor == vendor && $0.product == product }
    }

    /// The reader-table lines of `lines`, each once, in table order: what `transit` adds to
    /// `ReaderTable` as it starts, so that every lookup by a reader's name finds them.
    package static func profiles(_ lines: [USBReaderModel] = lines) -> [ReaderProfile] {
        lines.map(\.profile).reduce(into: [ReaderProfile]()) { known, p in if !known.contains(where: { $0.name == p.name }) { known.append(p) } }
    }

    /// The families of `lines` in table order, each once: "RC-S380", "RC-S330/360/370".
    package static func families(_ lines: [USBReaderModel] = lines) -> [String] {
        lines.map(\.family).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
    }
}

extension USBReaderModel {
    /// RC-S380/S: "the only known difference … /S has the CE and FCC marks" (nfcpy docs/overview.rst).
    package static let rcs380S = USBReaderModel(vendor: sonyVendor, product: 0x06C1, name: "RC-S380/S", family: "RC-S380", chipset: .port100,
                                                  profile: .rcs380)
    package static let rcs380P = USBReaderModel(vendor: sonyVendor, product: 0x06C3, name: "RC-S380/P", family: "RC-S380", chipset: .port100,
                                                  profile: .rcs380)
    /// RC-S330, RC-S360 and RC-S370: one product ID, one RC-S956 chip (nfcpy docs/overview.rst),
    /// driven by `RCS956Reader` (docs/research/rcs956-facts.md).
    package static let rcs956 = USBReaderModel(vendor: sonyVendor, product: 0x02E1, name: "RC-S330/360/370", family: "RC-S330/360/370",
                                                 chipset: .rcs956, profile: .rcs956)

    package static var allCases: [USBReaderModel] { USBReaderTable.lines }
}

extension ReaderProfile {
    /// The RC-S380's line of the reader table. Not a PC/SC reader on Linux: TransitUSB drives it
    /// over libusb (the Port-100 lines above) and answers FF CA and bare frames itself, naming it
    /// "SONY RC-S380/S (USB 1:13)"; a type A card gets a storage card's ATR, FF CA and FF B0
    /// (Type 2 READ).
    package static let rcs380 = ReaderProfile(
        name: "Sony RC-S380", patterns: ["RC-S380"], dialects: [.bareFrame],
        classicRefusal: L10n.mark("the Sony RC-S380 cannot open MIFARE Classic sectors: it has no public Crypto1 command (nfcpy issue 133); read this card on a PC/SC reader such as an ACR122U"),
        readsTypeB: false, typeBSource: "TransitUSB senses 212 and 424 kbit/s FeliCa and 106 kbit/s type A (MIFARE Ultralight read, Classic refused); the chip's 106 kbit/s type B (nfcpy rcs380.py sense_ttb) is not driven",
        note: "driven over USB, not through pcscd: the kernel's port100 driver is detached while transit holds it; FF CA gives the IDm of the Polling or the UID of the type A anticollision; MIFARE Ultralight pages are read with Type 2 READ (30), four a command",
        source: "docs/research/port100.md: the Port-100 protocol of nfcpy rcs380.py and the kernel's port100.c (type A: nfcpy sense_tta and its tests), nfcpy issue #11's trace of the initialisation; no FeliCa or type A exchange of a real RC-S380 logged",
        confidence: .code, ownDriver: true)

    /// The RC-S330, RC-S360 and RC-S370's line of the reader table. Not a PC/SC reader on Linux
    /// either: TransitUSB drives it over libusb (the RC-S956 line above; USBFeliCaChannel answers
    /// FF CA and bare frames), naming it "SONY RC-S330/360/370 (USB 1:13)". FeliCa only.
    package static let rcs956 = ReaderProfile(
        name: "Sony RC-S330/360/370", patterns: ["RC-S330", "RC-S360", "RC-S370"], dialects: [.bareFrame],
        classicRefusal: L10n.mark("the Sony RC-S330/360/370 cannot open MIFARE Classic sectors: transit reads FeliCa cards on it; read this card on a PC/SC reader such as an ACR122U"),
        readsTypeB: false, typeBSource: "TransitUSB senses 212 and 424 kbit/s FeliCa on the RC-S956 (InListPassiveTarget); its type A and B are not driven",
        note: "driven over USB, not through pcscd: the kernel's pn533_usb driver is detached while transit holds it; FF CA gives the IDm of InListPassiveTarget's Polling; one InCommunicateThru a card command",
        source: "docs/research/rcs956-facts.md: nfcpy rcs956.py and pn53x.py with their test fixtures, the kernel's pn533 driver, libnfc, the RC-S330 trace of nfcpy issue #256",
        confidence: .code, ownDriver: true)
}

import Foundation
import TestSupport
import TransitModel
import TransitTransport
import TransitUSB
import XCTest

/// The USB driver seam: a chipset is a driver (a `USBReader`), a `USBChipset` and a table line.
/// A third chipset's driver skeleton, which exists only here, is plugged in exactly so and listed
/// by the code `transit readers` and `transit doctor` run (`USBReaderSource.list`, `check`), with
/// nothing in TransitUSB knowing it.
final class USBReaderTableTests: XCTestCase {
    /// A driver skeleton for a made-up chip: it "senses" the FeliCa card it is given and records
    /// what the source asked of it.
    /// The names of the skeleton readers closed, in order.
    final class Closed: @unchecked Sendable { // @unchecked: `names` is read and written only under `lock`
        private let lock = NSLock()
        private var names = [String]()
        func add(_ name: String) { lock.lock(); names.append(name); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return names }
    }

    final class SkeletonReader: USBReader {
        static let closed = Closed()
        let found: LibUSBDevice.Found
        var log: (String) -> Void = { _ in }
        let card: USBCard?

        init(_ found: LibUSBDevice.Found, card: USBCard?) { self.found = found; self.card = card }

        var name: String { found.readerName }
        func look(by deadline: Deadline) throws(TransitError) -> USBSight { card.map { .card($0) } ?? .none }
        func channel(_ card: USBCard, exchangeTimeout: Double) throws(TransitError) -> ReaderChannel {
            throw TransitError(.readerUnsupported, "a skeleton reads no card")
        }
        func halt(by deadline: Deadline) {}
        func close() { Self.closed.add(name) }
    }

    static let felica = USBCard.felica(FeliCaTarget(idm: [0x01, 0x2E, 0x4C, 0x01, 0x02, 0x03, 0x04, 0x05],
                                                    pmm: [0x10, 0x0B, 0x4B, 0x42, 0x84, 0x85, 0xD0, 0xFF], systemCode: 0x0003, bitRate: .kbps212))
    static let skeletonChip = USBChipset(id: "skeleton", kernelDriver: "skeleton_usb", reads: "FeliCa cards (a skeleton chip)",
                                         readsOnly: "FeliCa cards only (a skeleton chip)", reader: { SkeletonReader($0, card: felica) })
    /// The table line: IDs no real reader has (vendor FFFF is reserved by the USB-IF).
    static let skeletonProfile = ReaderProfile(name: "Acme SK-3", patterns: ["SK-3"], dialects: [.bareFrame], source: "this test's skeleton",
                                               confidence: .guess, ownDriver: true)
    static let skeletonLine = USBReaderModel(vendor: 0xFFFF, product: 0x0956, maker: "Acme", name: "SK-3", family: "SK-3", chipset: skeletonChip,
                                             profile: skeletonProfile)

    func testAThirdChipsetsDriverIsListedThroughTheTableLine() throws {
        let table = USBReaderTable.lines + [Self.skeletonLine]
        let source = USBReaderSource(table: table, bus: { [LibUSBDevice.Found(model: Self.skeletonLine, bus: 3, address: 7)] })
        let listing = try source.list(by: Deadline(secondsFromNow: 5))
        XCTAssertEqual(listing.readers, [ListedReader(name: "ACME SK-3 (USB 3:7)", transport: .usb, atr: USBFeliCaChannel.atr)])
        XCTAssertEqual(SkeletonReader.closed.all.filter { $0 == "ACME SK-3 (USB 3:7)" }.count, 1, "given back after the look, as a real reader is")
    }

    func testDoctorNamesEachFamilyOfTheTableWithItsIDs() {
        let source = USBReaderSource(table: USBReaderTable.lines + [Self.skeletonLine], bus: { [] })
        let findings = source.check().findings
        let none = Dictionary(findings.map { ($0.check, $0.detail) }, uniquingKeysWith: { a, _ in a })
        // The IDs: docs/research/port100.md §"USB identity" (06c1, 06c3), rcs956-facts.md (02e1); the skeleton's from its line.
        XCTAssertEqual(none["RC-S380"], "none on USB (`lsusb -d 054c:` lists Sony's readers: 054c:06c1 and 054c:06c3 are the RC-S380's)")
        XCTAssertEqual(none["RC-S330/360/370"], "none on USB (`lsusb -d 054c:` lists Sony's readers: 054c:02e1 is the RC-S330/360/370's)")
        XCTAssertEqual(none["SK-3"], "none on USB (`lsusb -d ffff:` lists Acme's readers: ffff:0956 is the SK-3's)")
    }

    func testEachLineMakesItsChipsetsDriver() {
        XCTAssertTrue(USBReaders.reader(for: LibUSBDevice.Found(model: .rcs380S, bus: 1, address: 2)) is RCS380Reader)
        XCTAssertTrue(USBReaders.reader(for: LibUSBDevice.Found(model: .rcs956, bus: 1, address: 2)) is RCS956Reader)
        XCTAssertTrue(USBReaders.reader(for: LibUSBDevice.Found(model: Self.skeletonLine, bus: 1, address: 2)) is SkeletonReader)
        // A line not in the table is not found by its IDs: only the table's lines are looked for on the bus.
        XCTAssertNil(USBReaderModel(vendor: 0xFFFF, product: 0x0956))
    }

    func testTheSearchNoteSaysWhatEachFamilyReads() {
        XCTAssertEqual(USBCardSearch.note([.rcs380S]),
                       "the RC-S380 reads FeliCa cards and MIFARE Ultralight tickets only: Suica, ICOCA, Edy, WAON, nanaco, Octopus…; Compass, Ventra…")
        XCTAssertEqual(USBCardSearch.note([Self.skeletonLine, Self.skeletonLine]), "SK-3s read FeliCa cards only (a skeleton chip)")
        XCTAssertEqual(USBCardSearch.note([.rcs956, Self.skeletonLine]),
                       "the RC-S330/360/370 reads FeliCa cards only: Suica, ICOCA, Edy, WAON, nanaco, Octopus…; the SK-3 reads FeliCa cards only (a skeleton chip)")
    }

    /// Each line's reader-table line, added as `transit` starts, is what every lookup by the name
    /// the driver gives its reader finds (a read's dialects, `readers`, `doctor`, the no-card note).
    func testEachLinesProfileIsFoundByTheNameItsReaderGets() {
        let table = USBReaderTable.lines + [Self.skeletonLine]
        XCTAssertEqual(USBReaderTable.profiles(table).map(\.name), ["Sony RC-S380", "Sony RC-S330/360/370", "Acme SK-3"])
        ReaderTable.add(USBReaderTable.profiles(table))
        for line in table {
            let name = line.readerName(bus: 1, address: 13)
            XCTAssertEqual(ReaderProfile.matching(name), line.profile, name)
            XCTAssertEqual(line.profile.dialects, [.bareFrame], name)
            XCTAssertTrue(line.profile.ownDriver, name)
            XCTAssertTrue(Set(line.profile.dialects).isDisjoint(with: line.profile.unsafe.keys), name)
            XCTAssertFalse(line.profile.source.isEmpty, name)
        }
        // None is found among pcscd's readers: only the drivers' lines name them.
        for line in table {
            let name = line.readerName(bus: 1, address: 13).uppercased()
            XCTAssertFalse(ReaderTable.lines.contains { $0.patterns.contains { name.contains($0.uppercased()) } }, name)
        }
    }

    /// TransitTransport, below the USB drivers, names none of their models, chips or kernel
    /// drivers: a new chipset changes TransitUSB alone (issue 48). Compared with "-", "_" and
    /// spaces left out, in lower case ("Port-100", "port100", "RC-S956", "pn533_usb").
    func testTransitTransportNamesNoUSBReaderOrChip() throws {
        func plain(_ text: String) -> String { text.lowercased().filter { !"-_ ".contains($0) } }
        var words = Set<String>()
        for line in USBReaderTable.lines {
            words.formUnion(line.profile.patterns.map(plain))
            words.formUnion([line.family, line.chipset.id, line.chipset.kernelDriver].map(plain))
            words.insert(plain(String(line.chipset.kernelDriver.prefix { $0 != "_" })))
        }
        XCTAssertTrue(words.isSuperset(of: ["rcs380", "rcs370", "port100", "rcs956", "pn533"]), "\(words.sorted())")
        let root = BuildProducts.packageRoot.appendingPathComponent("Sources/Host")
        func sources(_ module: String) throws -> [(file: String, text: String)] {
            let folder = root.appendingPathComponent(module)
            return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted().map {
                ($0, plain(try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)))
            }
        }
        let usb = try sources("TransitUSB")
        for word in words { XCTAssertTrue(usb.contains { $0.text.contains(word) }, "the check would find \(word): TransitUSB names it") }
        let transport = try sources("TransitTransport")
        XCTAssertGreaterThan(transport.count, 10)
        for (file, text) in transport {
            for word in words.sorted() where text.contains(word) { XCTFail("Sources/Host/TransitTransport/\(file) names \(word)") }
        }
    }
}

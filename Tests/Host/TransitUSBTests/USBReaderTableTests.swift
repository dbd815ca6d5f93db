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
    static let skeletonLine = USBReaderModel(vendor: 0xFFFF, product: 0x0956, maker: "Acme", name: "SK-3", family: "SK-3", chipset: skeletonChip)

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
}

import TestSupport
import XCTest
import TransitUSB

/// Product IDs, FeliCa timing and the names the CLI shows.
final class USBModelTests: XCTestCase {
    func testSonyProductIDs() {
        // docs/research/port100.md §"USB identity": 054c:06c1 RC-S380/S, 054c:06c3 RC-S380/P, 054c:02e1 RC-S956.
        XCTAssertEqual(USBReaderModel(vendor: 0x054C, product: 0x06C1), .rcs380S)
        XCTAssertEqual(USBReaderModel(vendor: 0x054C, product: 0x06C3), .rcs380P)
        XCTAssertEqual(USBReaderModel(vendor: 0x054C, product: 0x02E1)?.chipset, .rcs956)
        XCTAssertEqual(USBReaderModel.rcs380P.chipset, .port100)
        XCTAssertNil(USBReaderModel(vendor: 0x054C, product: 0x0DC8)) // RC-S300: CCID, pcscd's
        XCTAssertNil(USBReaderModel(vendor: 0x072F, product: 0x06C1))
    }

    func testTheDeviceNodeOfAFoundReader() {
        let found = LibUSBDevice.Found(model: .rcs380S, bus: 1, address: 13)
        XCTAssertEqual(found.node, "/dev/bus/usb/001/013")
        XCTAssertEqual(found.readerName, "SONY RC-S380/S (USB 1:13)")
    }

    func testFeliCaTimesFromTheResearch() {
        // docs/research/port100.md §"FeliCa card timing" (nfcpy tt3.py): Polling 3.625 ms + 1.208 ms a slot; below 10 ms, V5's 10 ms.
        XCTAssertEqual(FeliCaTiming.polling(slots: 1), 0.010, accuracy: 1e-9)
        XCTAssertEqual(FeliCaTiming.polling(slots: 16), 0.003_625 + 0.001_208 * 16, accuracy: 1e-9)
        // Read: 302.1 µs × ((b+1)·n + a + 1) × 4^e; V5's PMm byte 5 is 77: a 7, b 6, e 1.
        let pmm = USBVectors.v5PMm
        XCTAssertEqual(try XCTUnwrap(FeliCaTiming.readWithoutEncryption(pmm: pmm, blocks: 12)), 302.1e-6 * 92 * 4, accuracy: 1e-9)
        // A 12-block read of that card takes longer than the channel's 0.1 s floor.
        let read12: [UInt8] = [0x20, 0x06] + USBVectors.v5IDm + [0x01, 0x0F, 0x09, 0x0C] + (0 ..< 12).flatMap { [0x80, UInt8($0)] }
        XCTAssertEqual(FeliCaTiming.timeout(for: read12, pmm: pmm, floor: 0.1), 302.1e-6 * 92 * 4, accuracy: 1e-9)
        XCTAssertEqual(FeliCaTiming.timeout(for: USBVectors.v7Frame, pmm: pmm, floor: 0.1), 0.1)
        XCTAssertEqual(FeliCaTiming.timeout(for: [0x06, 0x00, 0xFF, 0xFF, 0x01, 0x0F], pmm: pmm, floor: 0.1),
                       0.003_625 + 0.001_208 * 16, accuracy: 1e-9)
        // Short or odd frames fall back to the floor.
        XCTAssertEqual(FeliCaTiming.timeout(for: [0x0B, 0x06, 0x01], pmm: pmm, floor: 0.1), 0.1)
        XCTAssertEqual(FeliCaTiming.timeout(for: [0x0E, 0x06] + USBVectors.v5IDm + [0x09, 0x0F, 0x09], pmm: pmm, floor: 0.1), 0.1)
    }

    func testStatusNames() {
        XCTAssertEqual(InCommRFStatus(rawValue: 0x84).description, "CRC error, receive timeout")
        XCTAssertEqual(InCommRFStatus(rawValue: 0x1_0000).description, "bits 0x10000")
        XCTAssertNil(InCommRFStatus(answer: [0x00, 0x00]))
        XCTAssertEqual(Port100Status.describe(0x07), "command type error (07)")
        XCTAssertEqual(Port100Status.describe(0x42), "status 42")
        XCTAssertEqual(Port100Command.setCommandType.answerCode, 0x2B)
    }
}

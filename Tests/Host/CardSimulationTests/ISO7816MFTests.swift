import CardSimulation
import TestSupport
import XCTest

/// The simulated ISO card keeps its current DF between commands and between reads, as a card left
/// in the field does (ISO/IEC 7816-4, 5.3.1), and goes back to the MF when SELECT names its
/// reserved identifier 3F00 (5.1.1): the card's own files, top-level `commands`, answer again.
final class ISO7816MFTests: XCTestCase {
    func testSelectingTheMFLeavesAnApplicationAndItsFilesAnswerAgain() throws {
        let reader = try VirtualReader(image: try CardImages.sample("beijing.json"))
        let mfFile: [UInt8] = [0x00, 0xB0, 0x84, 0x00, 0x20] // READ BINARY, SFI 04 of the MF
        XCTAssertEqual(reader.transmit(mfFile).suffix(2), [0x90, 0x00], "at power-up the MF is current")
        XCTAssertEqual(reader.transmit([0x00, 0xA4, 0x00, 0x00, 0x02, 0x10, 0x01]), [0x90, 0x00], "DF 1001")
        XCTAssertEqual(reader.transmit(mfFile), [0x6A, 0x82], "SFI 04 is not a file of DF 1001: file not found")
        XCTAssertEqual(reader.transmit([0x00, 0xA4, 0x00, 0x00, 0x02, 0x3F, 0x00]), [0x90, 0x00], "SELECT MF")
        XCTAssertEqual(reader.transmit(mfFile).prefix(2), [0x10, 0x00], "the MF's file again: a Beijing number starts 10 00")
        XCTAssertEqual(reader.transmit([0x00, 0xA4, 0x00, 0x00, 0x02, 0x12, 0x34]), [0x6A, 0x82], "an unknown FID is still not found")
    }
}

import CardSimulation
import TestSupport
import XCTest

/// Flipper Zero DESFire dumps (`Device type: Mifare DESFire`, written by scripts/make_desfire_samples.py
/// from mf_desfire_i.c's keys) read as the cards they were dumped from.
final class FlipperDESFireTests: XCTestCase {
    func testClipperAndORCADumpsReadAsTheirCards() throws {
        for name in ["clipper", "orca"] {
            let fromDump = try DESFireReading.read(CardImage.load(BuildProducts.sample("\(name).nfc"))).reading
            let fromImage = try DESFireReading.read(CardImages.sample("\(name).json")).reading
            XCTAssertEqual(fromDump, fromImage, name)
        }
    }

    func testAHandWrittenDumpWithALockedFile() throws {
        // Opal's application with file 7 (decimal id, wire-order access rights) and a file 3 the
        // Flipper could not read (no data line): the card image answers 91 AE for it.
        let opal = try CardImages.sample("opal.json")
        let data = try XCTUnwrap(opal.iso7816?.desfire?.applications.first?.files.first?.data)
        let spaced = stride(from: 0, to: data.count, by: 2).map { String(Array(data)[$0 ..< $0 + 2]) }.joined(separator: " ")
        let text = """
        Filetype: Flipper NFC device
        Version: 4
        Device type: Mifare DESFire
        UID: 04 A1 B2 C3 D4 E5 F6
        Application Count: 1
        Application IDs: 31 45 53
        Application 314553 File IDs: 03 07
        Application 314553 File 3 Type: 00
        Application 314553 File 3 Communication Settings: 03
        Application 314553 File 3 Access Rights: 11 11
        Application 314553 File 3 Size: 32
        Application 314553 File 7 Type: 00
        Application 314553 File 7 Communication Settings: 00
        Application 314553 File 7 Access Rights: 31 E3
        Application 314553 File 7 Size: 16
        Application 314553 File 7: \(spaced)

        """
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flipper-desfire-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("opal.nfc")
        try text.write(to: path, atomically: true, encoding: .utf8)
        let image = try CardImage.load(path.path)
        XCTAssertEqual(image.iso7816?.desfire?.applications.first?.files.first?.access, "1101", "no data: its Read key (high nibble of byte 2) becomes key 0")
        let r = try DESFireReading.read(image).reading
        XCTAssertEqual(r.serialNumber, "3085 2200 7654 3219")
        XCTAssertEqual(r.balance, 1234)
    }
}

import Foundation
import TestSupport
import XCTest
@testable import CardSimulation

/// Ultralight page reads, the storage cards' ATRs, and a Classic card served by `transit-sim`
/// behind a stand-in for vpcd. Expected bytes come from the made-up cards of `StorageCardImages`.
final class StorageCardTests: XCTestCase {
    typealias I = StorageCardImages
    private let ok: [UInt8] = [0x90, 0x00]

    private func send(_ reader: VirtualReader, _ hex: String) -> [UInt8] { reader.transmit(I.bytes(hex)) }

    func testUltralightReadsFourPagesOrTheBytesLeAsks() throws {
        for model in ReaderModel.allCases where model != .phone {
            let r = try VirtualReader(image: I.ultralight(), model: model)
            // ACR122T API p.16: Le 10 answers pages 4–7, Le 04 page 4 alone.
            XCTAssertEqual(send(r, "FF B0 00 04 10"), I.bytes("04040404 05050505 06060606 07070707") + ok, model.rawValue)
            XCTAssertEqual(send(r, "FF B0 00 04 04"), I.bytes("04040404") + ok, model.rawValue)
            // Pages 11–14 are all known.
            XCTAssertEqual(send(r, "FF B0 00 0B 10"), I.bytes("0B0B0B0B 0C0C0C0C 0D0D0D0D 0E0E0E0E") + ok, model.rawValue)
            XCTAssertEqual(r.storageReads, 3, model.rawValue)
            XCTAssertEqual(r.refusedCommands, [], model.rawValue)
        }
    }

    func testAnUltralightPagePastTheEndOrUnreadFails() throws {
        let acs = try VirtualReader(image: I.ultralight(), model: .acr122u)
        // Pages 12–15: page 15 holds an unread byte. Pages 13–16: page 16 is past the card.
        XCTAssertEqual(send(acs, "FF B0 00 0C 10"), [0x63, 0x00])
        XCTAssertEqual(send(acs, "FF B0 00 0D 04"), [0x63, 0x00])
        XCTAssertEqual(send(acs, "FF B0 00 10 10"), [0x63, 0x00])
        // More than one READ's 16 bytes.
        XCTAssertEqual(send(acs, "FF B0 00 00 20"), [0x63, 0x00])
        // An Ultralight authenticates nothing: the reader's failure.
        XCTAssertEqual(send(acs, "FF 82 00 00 06 FF FF FF FF FF FF"), ok)
        XCTAssertEqual(send(acs, "FF 86 00 00 05 01 00 04 60 00"), [0x63, 0x00])
        XCTAssertEqual(send(try VirtualReader(image: I.ultralight(), model: .utrust3700f), "FF B0 00 0C 10"), [0x69, 0x82])
    }

    func testAnUltralightImageOfBadPagesIsRefused() throws {
        var image = I.ultralight()
        image.mifareUltralight?.pages[2] = "0202020"
        XCTAssertThrowsError(try VirtualReader(image: image)) { XCTAssertTrue("\($0)".contains("page 2"), "\($0)") }
        image = I.ultralight()
        image.mifareUltralight?.uid = "A1B2C3D4"
        XCTAssertThrowsError(try VirtualReader(image: image)) { XCTAssertTrue("\($0)".contains("7 bytes"), "\($0)") }
    }

    /// PC/SC Part 3 3.1.3.2.3: 3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 NN NN 00 00 00 00 TCK. The
    /// XOR of 8F 80 01 80 4F 0C A0 00 00 03 06 03 alone is 6B (8F^80 = 0F, ^01 = 0E, ^80 = 8E,
    /// ^4F = C1, ^0C = CD, ^A0 = 6D, ^03 = 6E, ^06 = 68, ^03 = 6B), so TCK = 6B ^ NN NN:
    /// 1K 00 01 → 6A, 4K 00 02 → 69, Ultralight 00 03 → 68, Mini 00 26 → 4D, 2K 00 36 → 5D.
    func testEachStorageCardGetsThePart3ATRWithItsCardName() throws {
        let head = "3B 8F 80 01 80 4F 0C A0 00 00 03 06 03"
        let cases: [(CardImage, String)] = [
            (I.classic1K(), "00 01 00 00 00 00 6A"), (I.classic4K(), "00 02 00 00 00 00 69"), (I.ultralight(), "00 03 00 00 00 00 68"),
            (I.classic(type: "Mini", blocks: 20), "00 26 00 00 00 00 4D"), (I.classic(type: "2K", blocks: 128), "00 36 00 00 00 00 5D"),
        ]
        for model in ReaderModel.allCases where model != .phone {
            for (image, tail) in cases {
                XCTAssertEqual(try VirtualReader(image: image, model: model).atr, I.bytes(head + tail), "\(model.rawValue) \(tail)")
            }
        }
    }

    func testACardImageHoldsOneCardOnly() throws {
        var image = I.classic1K()
        image.mifareUltralight = I.ultralight().mifareUltralight
        XCTAssertThrowsError(try image.validate()) { XCTAssertTrue("\($0)".contains("exactly one of"), "\($0)") }
    }

    func testTransitSimServesAClassicImageBehindVPCD() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("storage-sim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try CardImages.write(I.classic1K(), in: dir, name: "classic.json")
        XCTAssertEqual(try CardImage.load(file), I.classic1K(), "the image reads back from its file")
        let vpcd = try FakeVPCD()
        let sim = Process()
        sim.executableURL = URL(fileURLWithPath: BuildProducts.simulator)
        sim.arguments = ["--card", file, "--reader-model", "acr122u", "--port", "\(vpcd.port)"]
        try sim.run()
        defer { if sim.isRunning { sim.terminate() } }
        XCTAssertEqual(try vpcd.exchange([4]), I.bytes("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 01 00 00 00 00 6A"))
        XCTAssertEqual(try vpcd.exchange(I.bytes("FF CA 00 00 00")), I.bytes("A1B2C3D4") + ok)
        XCTAssertEqual(try vpcd.exchange(I.bytes("FF 82 00 00 06 FF FF FF FF FF FF")), ok)
        XCTAssertEqual(try vpcd.exchange(I.bytes("FF 86 00 00 05 01 00 04 60 00")), ok)
        XCTAssertEqual(try vpcd.exchange(I.bytes("FF B0 00 04 10")), I.bytes(I.block4) + ok)
        vpcd.close()
        sim.waitUntilExit()
        XCTAssertEqual(sim.terminationStatus, 0)
    }

    func testTransitSimServesAResetCardWithTheReadersKeys() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("storage-sim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try CardImages.write(I.classic1K(), in: dir, name: "classic.json")
        let vpcd = try FakeVPCD()
        let sim = Process()
        sim.executableURL = URL(fileURLWithPath: BuildProducts.simulator)
        let log = dir.appendingPathComponent("sim.log").path
        sim.arguments = ["--card", file, "--reader-model", "utrust-3700f", "--port", "\(vpcd.port)", "--log", log]
        try sim.run()
        defer { if sim.isRunning { sim.terminate() } }
        XCTAssertEqual(try vpcd.exchange(I.bytes("FF 82 00 60 06 FF FF FF FF FF FF")), ok)
        XCTAssertEqual(try vpcd.exchange(I.bytes("FF 86 00 00 05 01 00 06 60 01")), ok)
        XCTAssertEqual(try vpcd.exchange(I.bytes("FF B0 00 06 10")), I.bytes(I.filled(6)) + ok)
        // vpcd's reset (control code 2, unanswered): the card leaves sector 1, so the read fails
        // (69 82, SCM3712 reference 8.2.1.4); the reader still holds key A for key number 01.
        try vpcd.send([2])
        XCTAssertEqual(try vpcd.exchange(I.bytes("FF B0 00 06 10")), [0x69, 0x82])
        XCTAssertEqual(try vpcd.exchange(I.bytes("FF 86 00 00 05 01 00 06 60 01")), ok)
        XCTAssertEqual(try vpcd.exchange(I.bytes("FF B0 00 06 10")), I.bytes(I.filled(6)) + ok)
        vpcd.close()
        sim.waitUntilExit()
        XCTAssertEqual(sim.terminationStatus, 0)
        // The log keeps the Load Keys without its key.
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.first, "FF82006006 (key withheld) -> 9000")
        XCTAssertFalse(lines.contains { $0.contains("FFFFFFFFFFFF") }, "\(lines)")
    }

    func testTransitSimRefusesAPhoneForAClassicCard() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("storage-sim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try CardImages.write(I.classic1K(), in: dir, name: "classic.json")
        let run = try CommandRun.run(BuildProducts.simulator, ["--card", file, "--reader-model", "phone", "--port", "1"])
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertTrue(run.stderr.contains("not MIFARE Classic or Ultralight"), run.stderr)
    }
}

import CardSimulation
import Foundation
import TestSupport
import XCTest

/// Read-only by construction (issue 42 item 7): no write, increment, decrement, restore or transfer
/// command reaches a MIFARE Classic or Ultralight card, in any pass-through form. The host builds
/// only `FF CA` (UID), `FF 82` (Load Keys), `FF 86` (General Authenticate) and `FF B0` (Read
/// Binary) for such a card, and refuses a plugin's own APDUs and frames.
final class ReadOnlyStorageTests: XCTestCase {
    /// The storage-card commands PC/SC Part 3 §3.2.2.1 defines for reading: Get Data, Load Keys,
    /// General Authenticate, Read Binary.
    static let reads: Set<[UInt8]> = [[0xFF, 0xCA], [0xFF, 0x82], [0xFF, 0x86], [0xFF, 0xB0]]

    static let samples = ["easycard.json", "charliecard.json", "troika-e3.json", "troika-e5.json", "podorozhnik.json",
                          "podorozhnik-4k.json", "bilhete-unico.json", "troika-ul.json", "troika-ul-a.json", "compass.json",
                          "ventra.json", "hsl-ul.json"]

    /// Samples told only by a key digest hold made-up keys: their plugin is given the digest.
    static let digestPlugins: [String: PluginRead.Plugin] = [
        "podorozhnik.json": PluginRead.Plugin("podorozhnik", BuildProducts.plugin("TransitPodorozhnik"),
                                              options: ["key-digests": PodorozhnikTests.madeUpKeyDigest]),
        "podorozhnik-4k.json": PluginRead.Plugin("podorozhnik", BuildProducts.plugin("TransitPodorozhnik"),
                                                 options: ["key-digests": PodorozhnikTests.madeUpKeyDigest]),
    ]

    func testEveryFamilysReadSendsOnlyReadCommands() throws {
        var read = 0
        for name in Self.samples {
            var commands = [[UInt8]]()
            let plugins = PluginRead.Plugin.defaultOrder.map { p in Self.digestPlugins[name].flatMap { $0.name == p.name ? $0 : nil } ?? p }
            let outcome = try PluginRead.read(CardImages.sample(name), plugins: plugins) { _, command, answer in
                commands.append(command)
                return answer
            }
            XCTAssertNotNil(outcome.reading, "\(name): \(String(describing: outcome.error))")
            XCTAssertFalse(commands.isEmpty, name)
            for c in commands { XCTAssertTrue(Self.reads.contains(Array(c.prefix(2))), "\(name) sent \(c.map { String(format: "%02X", $0) }.joined())") }
            read += 1
        }
        XCTAssertEqual(read, Self.samples.count, "every Classic and Ultralight sample read")
    }

    func testAPluginThatTriesEveryWriteFormIsRefusedBeforeTheReader() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("transit-writer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let library = try CPluginBuilder.build(into: dir, name: "libwriter.so", source: "storage_writer_plugin.c")
        // A 1K card of made-up data whose sectors open with the factory key.
        var blocks = [String]()
        for s in 0 ..< 16 {
            blocks.append(s == 0 ? "A1B2C3D4DE0804006263646566676869" : String(repeating: "11", count: 16))
            blocks += [String(repeating: "22", count: 16), String(repeating: "33", count: 16), "FFFFFFFFFFFFFF078069FFFFFFFFFFFF"]
        }
        let image = CardImage(mifareClassic: .init(uid: "A1B2C3D4", type: "1K", blocks: blocks))
        var commands = [[UInt8]]()
        let outcome = try PluginRead.read(image, plugins: [PluginRead.Plugin("writer", library)]) { _, command, answer in
            commands.append(command)
            return answer
        }
        let reading = try XCTUnwrap(outcome.reading, "\(String(describing: outcome.error))")
        XCTAssertEqual(reading.metadata["refusedAttempts"], "18", "9 commands, each as an APDU and as a FeliCa frame: all refused")
        XCTAssertEqual(reading.balance, 48, "sector 1's three data blocks, read after the refusals")
        for c in commands { XCTAssertTrue(Self.reads.contains(Array(c.prefix(2))), "the reader saw \(c.map { String(format: "%02X", $0) }.joined())") }
    }
}

import CardSimulation
import TestSupport
import XCTest

/// Untrusted radio input for the easycard, charliecard and bilhete-unico libraries: a reader answer
/// changed at a byte or cut short, or a sector's data bytes replaced at random, never traps (in
/// process: a trap would end the test); each read ends in a reading or an error.
final class EasyCharlieBilheteFuzzTests: XCTestCase {
    static let cases: [(sample: String, plugin: PluginRead.Plugin)] =
        [("easycard.json", .easycard), ("charliecard.json", .charliecard), ("bilhete-unico.json", .bilheteUnico)]

    func testReaderAnswersMutated() throws {
        var random = SplitMix64(seed: 0x4543_4255)
        for (sample, plugin) in Self.cases {
            let image = try CardImages.sample(sample)
            for _ in 0 ..< 150 {
                let mutation = AnswerMutation(&random, exchanges: 60)
                let outcome = try PluginRead.read(image, plugins: [plugin], fault: mutation.fault, runner: .inProcess)
                XCTAssertTrue(outcome.reading != nil || outcome.error != nil, sample)
                XCTAssertEqual(DateWindow.outside(outcome.reading), [], "\(sample): a date outside 1980-2100")
            }
        }
    }

    func testSectorDataRandomised() throws {
        var random = SplitMix64(seed: 0x5345_4354)
        for (sample, plugin) in Self.cases {
            let original = try CardImages.sample(sample)
            for _ in 0 ..< 150 {
                var image = original
                // A few data blocks of sectors 1-8 (never a trailer: the keys stay) get random bytes.
                for _ in 0 ..< 1 + random.below(4) {
                    let block = (1 + random.below(8)) * 4 + random.below(3)
                    image.mifareClassic?.blocks[block] = (0 ..< 16).map { _ in String(format: "%02X", random.byte()) }.joined()
                }
                let outcome = try PluginRead.read(image, plugins: [plugin], runner: .inProcess)
                XCTAssertTrue(outcome.reading != nil || outcome.error != nil, sample)
                XCTAssertEqual(DateWindow.outside(outcome.reading), [], "\(sample): a date outside 1980-2100")
            }
        }
    }
}

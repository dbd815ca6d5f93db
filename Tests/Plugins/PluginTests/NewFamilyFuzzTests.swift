import CardSimulation
import TestSupport
import XCTest

/// Untrusted radio input for the china-city and desfire libraries: one answer of a read changed at
/// a byte, cut short, or cut into its status word, never traps (in process: a trap would end the test).
final class NewFamilyFuzzTests: XCTestCase {
    func mutate(_ samples: [String], _ plugin: PluginRead.Plugin, seed: UInt64, exchanges: Int) throws {
        var random = SplitMix64(seed: seed)
        for sample in samples {
            let image = try CardImages.sample(sample)
            for _ in 0 ..< 150 {
                let mutation = AnswerMutation(&random, exchanges: exchanges)
                let outcome = try PluginRead.read(image, plugins: [plugin], fault: mutation.fault, runner: .inProcess)
                XCTAssertTrue(outcome.reading != nil || outcome.error != nil, sample)
            }
        }
    }

    func testChinaCityAnswersMutated() throws {
        try mutate(["beijing.json", "shenzhen.json", "shanghai.json", "lingnan.json", "macau.json"], .chinaCity, seed: 0x4348_494E_41, exchanges: 18)
    }

    func testDESFireAnswersMutated() throws {
        try mutate(["opal.json", "clipper.json", "orca.json", "hsl.json"], .desfire, seed: 0x4445_5346_4952_45, exchanges: 17)
    }
}

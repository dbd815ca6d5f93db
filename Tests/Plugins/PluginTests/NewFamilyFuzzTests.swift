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
                let target = 1 + random.below(exchanges), mode = random.below(3), position = random.next(), value = random.byte()
                let outcome = try PluginRead.read(image, plugins: [plugin], fault: { i, _, answer in
                    guard i == target, answer.count > 2 else { return answer }
                    var a = answer
                    switch mode {
                    case 0: a[Int(position % UInt64(a.count - 2))] = value
                    case 1: a = Array(a.prefix(Int(position % UInt64(a.count - 2)))) + a.suffix(2)
                    default: a = Array(a.prefix(Int(position % UInt64(a.count))))
                    }
                    return a
                }, runner: .inProcess)
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

import CardSimulation
import Foundation
import TestSupport
import XCTest

/// Untrusted radio input for the families added last: china-city, desfire, calypso, and the MIFARE
/// Classic and Ultralight families: one answer of a read changed at a byte, cut short, or cut into
/// its status word, never traps (in process: a trap would end the test), and no reading shows a date
/// outside 1980-2100 (issue 45). 150 reads a sample in the suite (3,000 in all); FUZZ_FAMILY_READS
/// runs more (scripts/fuzz.sh).
final class NewFamilyFuzzTests: XCTestCase {
    static let reads = ProcessInfo.processInfo.environment["FUZZ_FAMILY_READS"].flatMap(Int.init) ?? 150

    func mutate(_ samples: [String], _ plugins: [PluginRead.Plugin], seed: UInt64, exchanges: Int) throws {
        var random = SplitMix64(seed: seed)
        for sample in samples {
            let image = try CardImages.sample(sample)
            for _ in 0 ..< Self.reads {
                let mutation = AnswerMutation(&random, exchanges: exchanges)
                let outcome = try PluginRead.read(image, plugins: plugins, fault: mutation.fault, runner: .inProcess)
                XCTAssertTrue(outcome.reading != nil || outcome.error != nil, sample)
                XCTAssertEqual(DateWindow.outside(outcome.reading), [], "\(sample): a date outside 1980-2100")
            }
        }
    }

    func testChinaCityAnswersMutated() throws {
        try mutate(["beijing.json", "shenzhen.json", "shanghai.json", "lingnan.json", "macau.json"], [.chinaCity], seed: 0x4348_494E_41, exchanges: 18)
    }

    func testDESFireAnswersMutated() throws {
        try mutate(["opal.json", "clipper.json", "orca.json", "hsl.json"], [.desfire], seed: 0x4445_5346_4952_45, exchanges: 17)
    }

    func testCalypsoAnswersMutated() throws {
        try mutate(["navigo.json", "navigo-cla94.json", "korrigo.json", "mobib-blank.json"], [.calypso], seed: 0x4341_4C59_5053_4F, exchanges: 24)
    }

    /// Troika, Podorozhnik and the Ultralight tickets through the storage families in plugins.conf's
    /// order (a Podorozhnik told by its made-up key's digest).
    func testClassicAndUltralightAnswersMutated() throws {
        let order = PluginRead.Plugin.storageOrder.map { p in
            p.name == "podorozhnik" ? PluginRead.Plugin("podorozhnik", BuildProducts.plugin("TransitPodorozhnik"),
                                                        options: ["key-digests": PodorozhnikTests.madeUpKeyDigest]) : p
        }
        try mutate(["troika-e3.json", "troika-e5.json", "podorozhnik.json", "troika-ul.json", "compass.json", "ventra.json", "hsl-ul.json"],
                   order, seed: 0x5354_4F52_4147_45, exchanges: 40)
    }
}

import CardSimulation
import Foundation
import TestSupport
import TransitModel
import XCTest

/// Untrusted radio input for the families added last: china-city, desfire, calypso, and the MIFARE
/// Classic and Ultralight families: one answer of a read changed at a byte, cut short, or cut into
/// its status word, never traps (in process: a trap would end the test) and keeps `ReadProperty`'s
/// properties (issues 45 and 48): a reading or an error a card can cause, a balance its purse field
/// can hold (`purse`), no date outside 1980-2100, and at most twice the exchanges the test's
/// samples take whole. 150 reads a sample in the suite (3,000 in all); FUZZ_FAMILY_READS runs more
/// (scripts/fuzz.sh).
final class NewFamilyFuzzTests: XCTestCase {
    static let reads = ProcessInfo.processInfo.environment["FUZZ_FAMILY_READS"].flatMap(Int.init) ?? 150

    /// The balance each family's purse field can hold, in minor units, from the layouts its plugin
    /// cites: nil for a family whose cards hold none (a balance would be invented).
    static func purse(_ r: CardReading) -> ClosedRange<Int64>? {
        switch r.family {
        case "china-city" where r.currency == "MOP": return -1000 ... 0x7FFF_FFFF * 10 - 1000 // 31 bits of 0.1 MOP, less 10 MOP
        case "china-city": return 0 ... 0x7FFF_FFFF // the PBOC purse: 31 bits, the top one not the amount
        case "opal": return -0x10_0000 ... 0x0F_FFFF // 21 bits, two's complement
        case "clipper": return -0x8000 ... 0x7FFF // 16 bits, signed
        case "orca": return 0 ... 0xFFFF // 16 bits
        case "hsl": return 0 ... 0xF_FFFF // 20 bits
        case "troika": return 0 ... 0x3F_FFFF // 22 bits (E3), 19 bits (E5)
        case "podorozhnik": return Int64(Int32.min) ... Int64(Int32.max) // 32 bits, signed
        case "compass", "ventra": return 0 ... 0x7FF // 11 bits
        default: return nil
        }
    }

    func mutate(_ samples: [String], _ plugins: [PluginRead.Plugin], seed: UInt64, exchanges: Int) throws {
        var random = SplitMix64(seed: seed)
        var wholeExchanges = 0
        for sample in samples {
            let whole = try PluginRead.read(CardImages.sample(sample), plugins: plugins, runner: .inProcess)
            XCTAssertEqual(ReadProperty.broken(whole, purse: Self.purse, exchanges: .max), [], "\(sample) whole")
            XCTAssertNotNil(whole.reading, "\(sample): \(String(describing: whole.error))")
            wholeExchanges = max(wholeExchanges, whole.exchanges)
        }
        for sample in samples {
            let image = try CardImages.sample(sample)
            for _ in 0 ..< Self.reads {
                let mutation = AnswerMutation(&random, exchanges: exchanges)
                let outcome = try PluginRead.read(image, plugins: plugins, fault: mutation.fault, runner: .inProcess)
                XCTAssertEqual(ReadProperty.broken(outcome, purse: Self.purse, exchanges: 2 * wholeExchanges), [], sample)
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
                                                        options: ["key-digests": CardImages.podorozhnikKeyDigest]) : p
        }
        try mutate(["troika-e3.json", "troika-e5.json", "podorozhnik.json", "troika-ul.json", "compass.json", "ventra.json", "hsl-ul.json"],
                   order, seed: 0x5354_4F52_4147_45, exchanges: 40)
    }
}
